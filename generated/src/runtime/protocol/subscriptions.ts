// `subscriptions/listen` (MCP 2026-07-28): a long-lived request whose response stream carries the list changes the
// client opted in to, each tagged with the subscription's id, until the client cancels it or the server shuts down.

import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { META_KEYS } from './eras.js';

/** The notification types a client may ask for, and those this server can deliver. */
export interface NotificationFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** What a listen request needs from the request it runs in. */
export interface ListenExtra {
  requestId: RequestId;
  signal: AbortSignal;
  sendNotification(notification: { method: string; params: Record<string, unknown> }): Promise<void>;
}

export interface Subscriptions {
  /** Serves one listen request; resolves with its closing result when the server ends it, or never (cancelled). */
  listen(filter: NotificationFilter, extra: ListenExtra): Promise<Record<string, unknown>>;
  /** Ends every open subscription with its graceful completion result (shutdown). */
  endAll(): void;
}

/**
 * `onListChanged` registers a listener for a changed tool list (which changes the per-tool resources too) and returns
 * what removes it. The prompts are fixed and single resources are not watched, so those types are never acknowledged.
 */
export function createSubscriptions(onListChanged: (listener: () => void) => () => void): Subscriptions {
  const open = new Set<() => void>();
  return {
    async listen(filter, extra) {
      const tagged = { [META_KEYS.subscriptionId]: extra.requestId };
      const honoured: NotificationFilter = {
        ...(filter.toolsListChanged === true ? { toolsListChanged: true } : {}),
        ...(filter.resourcesListChanged === true ? { resourcesListChanged: true } : {}),
      };
      await extra.sendNotification({
        method: 'notifications/subscriptions/acknowledged',
        params: { _meta: tagged, notifications: honoured },
      });
      const notify = (method: string): void => {
        extra.sendNotification({ method, params: { _meta: tagged } }).catch(() => undefined);
      };
      const stopListening = onListChanged(() => {
        if (honoured.toolsListChanged === true) notify('notifications/tools/list_changed');
        if (honoured.resourcesListChanged === true) notify('notifications/resources/list_changed');
      });
      try {
        await new Promise<void>((resolve) => {
          const end = (): void => {
            open.delete(end);
            resolve();
          };
          open.add(end);
          extra.signal.addEventListener('abort', end, { once: true });
        });
      } finally {
        stopListening();
      }
      return { _meta: tagged };
    },
    endAll() {
      for (const end of [...open]) end();
    },
  };
}
