// Multi round-trip requests (MCP 2026-07-28) as a confirmation channel: the server cannot send elicitation/create in
// that revision, so the question goes back as an `input_required` result and the user's answer arrives with the retry
// of the same tools/call, in `inputResponses`. Nothing waits on the server between the two requests.

import { createHash } from 'node:crypto';
import type { JsonObject } from '../shared/contracts.js';
import { elicitationChannel, type ConfirmationChannel, type ElicitationReply } from '../policy/index.js';

/** The key of the confirmation among a request's input requests and responses. */
export const CONFIRMATION_INPUT_KEY = 'confirm';

export interface InputRequiredConfirmation {
  channel: ConfirmationChannel;
  /** The `input_required` result to answer with when the channel had to ask, else null. */
  inputRequired(): Record<string, unknown> | null;
}

/**
 * A channel for one 2026-07-28 tools/call. When the retried request carries an answer to the same question (the
 * `requestState` is a digest of the question, so an answer given for other runs or other arguments does not count),
 * that answer is the user's; otherwise the question is recorded for `inputRequired()` and the channel reports it could
 * not ask within this request.
 */
export function inputRequiredConfirmation(params: { inputResponses?: unknown; requestState?: unknown }): InputRequiredConfirmation {
  let pending: Record<string, unknown> | null = null;
  const channel = elicitationChannel(async (elicitParams: JsonObject): Promise<ElicitationReply> => {
    const state = questionState(elicitParams);
    const answer = answerTo(params.inputResponses);
    if (answer !== null && params.requestState === state) return answer;
    pending = {
      resultType: 'input_required',
      inputRequests: { [CONFIRMATION_INPUT_KEY]: { method: 'elicitation/create', params: elicitParams } },
      requestState: state,
    };
    throw new Error('the question goes back to the client as an input_required result');
  });
  return { channel, inputRequired: () => pending };
}

function questionState(question: JsonObject): string {
  return `confirm-v1:${createHash('sha256').update(JSON.stringify(question)).digest('base64url')}`;
}

/** The client's ElicitResult for the confirmation, when it is one. */
function answerTo(responses: unknown): ElicitationReply | null {
  if (responses === null || typeof responses !== 'object') return null;
  const reply = (responses as Record<string, unknown>)[CONFIRMATION_INPUT_KEY];
  if (reply === null || typeof reply !== 'object') return null;
  const { action, content } = reply as { action?: unknown; content?: unknown };
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') return null;
  const fields =
    content !== null && typeof content === 'object' && !Array.isArray(content) ? (content as Record<string, unknown>) : undefined;
  return { action, content: fields };
}
