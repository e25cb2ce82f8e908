// The confirmation rule for runs through the meta-tool: which tools need the user's yes, and asking for it once per
// call over whatever channel the transport offers (MCP elicitation today; another channel plugs in as a
// ConfirmationChannel). Without a channel the call is refused with CONFIRMATION_REQUIRED, naming the tools to call
// directly so the host's own gate decides.

import { toolFailure, type JsonObject, type ServedTool, type ServerNames, type ToolFailure } from '../shared/contracts.js';
import { redactSecrets, safeStringify } from '../secrets/redact.js';
import { declaresDestructive, mayBeDestructive } from './risk.js';
import type { ConfirmMode } from './settings.js';

/** One run the user is asked about: the tool and its arguments with secrets masked. */
export interface ConfirmationItem {
  slug: string;
  title: string;
  arguments: unknown;
}

export type ConfirmationAnswer =
  | { outcome: 'confirmed' }
  | { outcome: 'declined'; why: string }
  /** The channel cannot ask (the client went away, or answered with a protocol error). */
  | { outcome: 'unavailable'; why: string };

/** "Ask the user to confirm this list": one question for every item, answered once. */
export interface ConfirmationChannel {
  /** Names the channel in messages ("elicitation"). */
  readonly name: string;
  ask(question: ConfirmationQuestion, signal: AbortSignal): Promise<ConfirmationAnswer>;
}

export interface ConfirmationQuestion {
  /** What the user reads, listing every run. */
  message: string;
  items: ConfirmationItem[];
}

export function needsConfirmation(tool: ServedTool, mode: ConfirmMode): boolean {
  if (mode === 'off') return false;
  return mode === 'unless-safe' ? mayBeDestructive(tool.manifest.annotations) : declaresDestructive(tool.manifest.annotations);
}

export function confirmationQuestion(
  names: Pick<ServerNames, 'productName'>,
  runs: ReadonlyArray<{ tool: ServedTool; params: JsonObject }>,
): ConfirmationQuestion {
  const items = runs.map(({ tool, params }) => ({
    slug: tool.slug,
    title: String(tool.manifest.name ?? tool.slug),
    arguments: redactSecrets(params).value,
  }));
  const lines = items.map((item, index) => `${index + 1}. ${item.slug} (${item.title}) with ${safeStringify(item.arguments)}`);
  const message =
    `The assistant wants to run ${items.length === 1 ? 'a tool that may change or delete data' : `${items.length} tools that may change or delete data`} ` +
    `through ${names.productName}:\n${lines.join('\n')}\nAllow ${items.length === 1 ? 'it' : 'them'}?`;
  return { message, items };
}

export interface ConfirmationContext {
  names: Pick<ServerNames, 'productName' | 'metaToolName'>;
  mode: ConfirmMode;
  /** The channel of the current call, or undefined when the client offers none. */
  channel: ConfirmationChannel | undefined;
  /** The variable that turns confirmation off or widens it, for the messages. */
  confirmVar: string;
}

/**
 * Null when the runs may go ahead (none needs confirmation, or the user confirmed); otherwise the failure to answer
 * with, nothing having run. `runs` are the whole call's (a batch asks once for all of its runs that need it).
 */
export async function confirmRuns(
  ctx: ConfirmationContext,
  runs: ReadonlyArray<{ tool: ServedTool; params: JsonObject }>,
  signal: AbortSignal,
): Promise<ToolFailure | null> {
  const needing = runs.filter(({ tool }) => needsConfirmation(tool, ctx.mode));
  if (needing.length === 0) return null;
  const slugs = [...new Set(needing.map(({ tool }) => tool.slug))];
  const question = confirmationQuestion(ctx.names, needing);
  const details = { tools: slugs, runs: question.items.map(({ slug, arguments: args }) => ({ slug, arguments: args })) };
  const answer: ConfirmationAnswer =
    ctx.channel === undefined
      ? {
          outcome: 'unavailable',
          why: 'this client cannot be asked to confirm (it declares no elicitation capability, or the transport cannot carry the question)',
        }
      : await ctx.channel.ask(question, signal).catch((error: unknown) => ({
          outcome: 'unavailable' as const,
          why: `asking for confirmation failed: ${error instanceof Error ? error.message : String(error)}`,
        }));
  if (answer.outcome === 'confirmed') return null;
  const named = slugs.map((slug) => JSON.stringify(slug)).join(', ');
  if (answer.outcome === 'declined') {
    return toolFailure(
      'CONFIRMATION_DECLINED',
      `The user did not confirm running ${named} (${answer.why}); nothing was run. Do not retry it ` + 'unless the user asks for it again.',
      details,
    );
  }
  const direct = slugs.map((slug) => `the tool ${JSON.stringify(slug)}`).join(', ');
  return toolFailure(
    'CONFIRMATION_REQUIRED',
    `${named} may change or delete data and needs the user's confirmation, which ${ctx.names.metaToolName} ` +
      `cannot ask for: ${answer.why}. Nothing was run. Call ${direct} directly instead, so the host asks the user as it does for ` +
      `any tool; the operator can change this rule with ${ctx.confirmVar}.`,
    { ...details, call_directly: slugs },
  );
}

/** The schema of the one-field form a confirmation elicitation asks for. */
export const CONFIRMATION_FORM_SCHEMA = {
  type: 'object',
  properties: {
    confirm: {
      type: 'boolean',
      title: 'Run these tools',
      description: 'Yes runs every tool listed; no runs none of them.',
      default: false,
    },
  },
  required: ['confirm'],
} as const;

/** What a client answers to elicitation/create. */
export interface ElicitationReply {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown> | undefined;
}

/** A channel over MCP elicitation (form mode): `send` delivers elicitation/create within the call being handled. */
export function elicitationChannel(send: (params: JsonObject, signal: AbortSignal) => Promise<ElicitationReply>): ConfirmationChannel {
  return {
    name: 'elicitation',
    async ask(question, signal) {
      const reply = await send({ mode: 'form', message: question.message, requestedSchema: CONFIRMATION_FORM_SCHEMA }, signal);
      if (reply.action === 'accept' && reply.content?.confirm === true) return { outcome: 'confirmed' };
      if (reply.action === 'accept') return { outcome: 'declined', why: 'the user answered no' };
      return { outcome: 'declined', why: reply.action === 'decline' ? 'the user declined' : 'the user dismissed the question' };
    },
  };
}

/** Whether declared client capabilities take form-mode elicitation (an empty `elicitation: {}` means form). */
export function supportsFormElicitation(capabilities: { elicitation?: { form?: object; url?: object } | undefined } | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
}
