// Requests a hostile caller can send over stdio and HTTP: oversized JSON-RPC batches, a top-level `__proto__` argument,
// arguments nested thousands of levels deep. Each gets a clear answer; nothing is run half-checked.

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { ServedCatalogueFile } from '../../src/runtime/shared/contracts.js';
import { serveHttp, type HttpMcpServer } from '../../src/runtime/transport/http.js';
import { MAX_ARGUMENT_DEPTH } from '../../src/runtime/schema/json-arguments.js';
import { LineStdioTransport } from '../../src/runtime/transport/main.js';
import { createServer } from '../../src/runtime/transport/server.js';
import { captureLog, manifest, servedTool, testNames } from './core-fixtures.js';

const catalogue: ServedCatalogueFile = {
  format: 'nexusbloom-served-catalogue/1',
  tools: [
    servedTool(
      manifest({ slug: 'echo', input_schema: { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: true } }),
    ),
  ],
};

/** `{"a":{"a":…}}` nested `levels` deep, as JSON text (a literal that deep would overflow the parser of this file). */
const deepText = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const protoCall = (id: number, name: string): string =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":{"__proto__":{"admin":true},"text":"x"}}}`;

type Answer = {
  id?: unknown;
  result?: { isError?: boolean; structuredContent?: { code?: string; retryable?: boolean; error?: string } };
  error?: { code: number; message: string };
};

describe('over stdio', () => {
  let stdin: PassThrough;
  let out = '';
  const answers = (): Answer[] =>
    out
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Answer);
  async function answerTo(id: number): Promise<Answer> {
    for (let waited = 0; waited < 5000; waited += 5) {
      const found = answers().find((answer) => answer.id === id);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`no answer to ${id}:\n${out}`);
  }
  let names: string[] = [];
  const created = createServer({ names: testNames, catalogue, env: {}, log: () => undefined });

  before(async () => {
    stdin = new PassThrough();
    const stdout = new PassThrough();
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await created.server.connect(new LineStdioTransport(stdin, stdout, captureLog().log));
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })}\n`);
    names = ((await answerTo(1)).result as unknown as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
  });
  after(() => created.close());

  it('a top-level __proto__ argument is a VALIDATION_ERROR, for a tool and through the meta-tool', async () => {
    const tool = names.find((name) => name !== 'nexusbloom') as string;
    stdin.write(`${protoCall(2, tool)}\n`);
    stdin.write(
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nexusbloom","arguments":{"command":"run","slug":"echo","params":{"__proto__":{"admin":true}}}}}\n`,
    );
    for (const id of [2, 3]) {
      const answer = await answerTo(id);
      assert.equal(answer.result?.isError, true, JSON.stringify(answer));
      assert.equal(answer.result?.structuredContent?.code, 'VALIDATION_ERROR');
      assert.match(answer.result?.structuredContent?.error ?? '', /__proto__/);
    }
  });

  it('arguments nested 5,000 levels are a VALIDATION_ERROR naming the depth, not a retryable failure', async () => {
    const started = Date.now();
    stdin.write(
      `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nexusbloom","arguments":{"command":"run","slug":"echo","params":${deepText(5000)}}}}\n`,
    );
    const answer = await answerTo(4);
    assert.equal(answer.result?.structuredContent?.code, 'VALIDATION_ERROR', JSON.stringify(answer).slice(0, 500));
    assert.equal(answer.result?.structuredContent?.retryable, false);
    assert.match(answer.result?.structuredContent?.error ?? '', new RegExp(`nested deeper than ${MAX_ARGUMENT_DEPTH} levels`));
    assert.ok(Date.now() - started < 2000);
  });
});

describe('over HTTP', () => {
  let server: HttpMcpServer;
  before(async () => {
    server = await serveHttp({ names: testNames, catalogue, env: {}, log: captureLog().log, port: 0 });
  });
  after(() => server.close());

  async function post(body: string): Promise<{ status: number; answers: Answer[] }> {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body,
    });
    const text = await response.text();
    const answers =
      text.startsWith('event:') || text.includes('\ndata: ') || text.startsWith('data: ')
        ? text
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => JSON.parse(line.slice(6)) as Answer)
        : ([] as Answer[]).concat(JSON.parse(text) as Answer | Answer[]);
    return { status: response.status, answers };
  }

  const metaRun = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'nexusbloom', arguments: { command: 'run', slug: 'echo', params: { text: 'x' } } },
  });

  it('a batch of more than 10 calls is refused whole, every id answered, nothing run', async () => {
    const { status, answers } = await post(JSON.stringify(Array.from({ length: 100 }, (_, i) => metaRun(i + 1))));
    assert.equal(status, 400);
    assert.equal(answers.length, 100);
    assert.ok(answers.every((answer) => answer.error?.code === -32600 && /at most 10 messages/.test(answer.error.message)));
  });

  it('so is a small batch whose meta-tool batches add up to more than 10 runs', async () => {
    const batchCall = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'nexusbloom',
        arguments: { command: 'batch', runs: Array.from({ length: 10 }, () => ({ slug: 'echo', params: {} })) },
      },
    });
    const { status, answers } = await post(JSON.stringify([batchCall(1), batchCall(2)]));
    assert.equal(status, 400);
    assert.match(answers[0]?.error?.message ?? '', /20 runs/);
  });

  it('a batch within the cap is still served', async () => {
    const { status, answers } = await post(
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
      ]),
    );
    assert.equal(status, 200);
    assert.equal(answers.length, 2);
  });

  it('a top-level __proto__ argument is a VALIDATION_ERROR', async () => {
    const { status, answers } = await post(protoCall(7, 'nexusbloom'));
    assert.equal(status, 200);
    assert.equal(answers[0]?.id, 7);
    assert.equal(answers[0]?.result?.structuredContent?.code, 'VALIDATION_ERROR');
  });
});
