// Checks on JSON-RPC messages as parsed from the wire, before the SDK's schemas read them: what those schemas would
// silently change (a top-level `__proto__` argument is dropped by the parse) or what one body may not ask for at once.

import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { MAX_BATCH_RUNS } from '../surface/guide.js';
import { protoMemberFailure } from '../schema/json-arguments.js';
import { failureResult } from '../history/results.js';
import { isJsonObject } from '../shared/json-values.js';

type RequestId = string | number;

const usableId = (value: unknown): RequestId | undefined =>
  isJsonObject(value) && (typeof value.id === 'string' || (typeof value.id === 'number' && Number.isSafeInteger(value.id)))
    ? value.id
    : undefined;

/**
 * The answer to a `tools/call` whose arguments hold an own member named `__proto__`: a VALIDATION_ERROR result, as for
 * any argument the tool cannot take. The SDK's parse would drop the member, and the tool would run without it.
 */
export function protoArgumentAnswer(message: unknown): JSONRPCMessage | null {
  if (!isJsonObject(message) || message.method !== 'tools/call' || !isJsonObject(message.params)) return null;
  const args = message.params.arguments;
  const id = usableId(message);
  if (id === undefined || !isJsonObject(args) || !Object.hasOwn(args, '__proto__')) return null;
  const name = typeof message.params.name === 'string' ? message.params.name : '';
  return { jsonrpc: '2.0', id, result: failureResult(protoMemberFailure(name)) } as JSONRPCMessage;
}

/** Tool runs a message asks for: a tools/call is one, or as many as its `runs` (the meta-tool's batch). */
function runsAsked(message: unknown): number {
  if (!isJsonObject(message) || message.method !== 'tools/call' || !isJsonObject(message.params)) return 0;
  const args = message.params.arguments;
  return isJsonObject(args) && Array.isArray(args.runs) ? Math.max(1, args.runs.length) : 1;
}

/**
 * Why a JSON-RPC batch (an array body, HTTP only: stdio refuses every batch) is refused as a whole, or null: more
 * messages, or more tool runs in all, than the meta-tool's own batch cap, so one POST cannot run more than one batch.
 */
export function oversizedBatchProblem(body: unknown): string | null {
  if (!Array.isArray(body)) return null;
  const runs = body.reduce((sum: number, message) => sum + runsAsked(message), 0);
  if (body.length <= MAX_BATCH_RUNS && runs <= MAX_BATCH_RUNS) return null;
  return (
    `Invalid Request: a JSON-RPC batch holds at most ${MAX_BATCH_RUNS} messages and ${MAX_BATCH_RUNS} tool runs in all; ` +
    `this one has ${body.length} messages and ${runs} runs. Nothing was run: send fewer per request.`
  );
}

/** One error answer per usable id of the batch (JSON-RPC 2.0 §6), or a single one without an id when none has one. */
export function batchRefusal(body: readonly unknown[], message: string): JSONRPCMessage[] {
  const ids = body.flatMap((item) => {
    const id = usableId(item);
    return id === undefined ? [] : [id];
  });
  const error = { code: ErrorCode.InvalidRequest, message };
  return (ids.length === 0 ? [{ jsonrpc: '2.0', id: null, error }] : ids.map((id) => ({ jsonrpc: '2.0', id, error }))) as JSONRPCMessage[];
}
