// Reads an HTTP request body with a size cap, for the Streamable HTTP endpoint and the mock API alike.

import type { IncomingMessage } from 'node:http';

/** The request body as UTF-8 text, or null as soon as it grows past `maxBytes` (the rest is not buffered). */
export async function readRequestBody(req: IncomingMessage, maxBytes: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
