// What the HTTP endpoint answers itself, before a server sees the body: an oversized batch, and calls whose arguments
// the SDK's parse would change (see raw-requests.ts).

import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { batchRefusal, oversizedBatchProblem, protoArgumentAnswer } from './raw-requests.js';

export interface RefusedBody {
  status: number;
  body: JSONRPCMessage | JSONRPCMessage[];
  /** For the log. */
  why: string;
}

/** The answer to a body that is not served, or null to serve it. */
export function refusedBeforeServing(body: unknown): RefusedBody | null {
  const oversized = oversizedBatchProblem(body);
  if (oversized !== null && Array.isArray(body)) return { status: 400, body: batchRefusal(body, oversized), why: oversized };
  const messages = Array.isArray(body) ? body : [body];
  const answers = messages.map(protoArgumentAnswer);
  if (answers.every((answer) => answer === null)) return null;
  const why = 'a tools/call has an argument named __proto__';
  if (!Array.isArray(body)) return { status: 200, body: answers[0] as JSONRPCMessage, why };
  // Within a batch the refused calls get their answer and the rest is not run, so no call of it runs half-checked.
  const rest = batchRefusal(
    messages.filter((_, index) => answers[index] === null),
    'Invalid Request: not run, because another call of this batch has an argument named __proto__; send it again without that call.',
  );
  const others = rest.filter((answer) => (answer as { id: unknown }).id !== null);
  return {
    status: 200,
    body: [...answers.filter((answer): answer is JSONRPCMessage => answer !== null), ...others],
    why: `${why} (in a batch: its other calls were not run)`,
  };
}
