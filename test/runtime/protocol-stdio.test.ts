// The stdio transport of the bin, with the real server behind it: lines that are not messages are answered, not dropped.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { LineStdioTransport, leadingRequestId } from '../../src/runtime/transport/main.js';
import { createServer, type CreatedServer } from '../../src/runtime/transport/server.js';
import type { ServedCatalogueFile } from '../../src/runtime/shared/contracts.js';
import { captureLog, manifest, servedTool, testNames } from './core-fixtures.js';

const catalogue: ServedCatalogueFile = {
  format: 'nexusbloom-served-catalogue/1',
  tools: [servedTool(manifest({ slug: 'env-validator' }))],
};

interface Wire {
  stdin: PassThrough;
  lines(): Array<Record<string, unknown>>;
  /** Waits until `count` lines have come out on stdout. */
  waitLines(count: number): Promise<Array<Record<string, unknown>>>;
  logged: string[];
  created: CreatedServer;
}

let open: Wire | undefined;
afterEach(async () => {
  await open?.created.close();
  open = undefined;
});

async function wire(maxLineBytes?: number): Promise<Wire> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const { log, lines: logged } = captureLog();
  const created = createServer({ names: testNames, catalogue, env: {}, log: () => undefined });
  await created.server.connect(new LineStdioTransport(stdin, stdout, log, maxLineBytes));
  const lines = (): Array<Record<string, unknown>> =>
    out
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const waitLines = async (count: number): Promise<Array<Record<string, unknown>>> => {
    for (let waited = 0; lines().length < count; waited += 5) {
      if (waited > 2000) throw new Error(`expected ${count} lines, got:\n${out}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return lines();
  };
  open = { stdin, lines, waitLines, logged, created };
  return open;
}

const ping = (id: number | string): string => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;

test('a line that is not JSON is answered with -32700 and the next request is served', async () => {
  const io = await wire();
  io.stdin.write('{not json\n');
  io.stdin.write(ping(1));
  const [parseError, pong] = await io.waitLines(2);
  assert.deepEqual(parseError, {
    jsonrpc: '2.0',
    error: { code: -32700, message: 'Parse error: a line on stdin is not JSON; send one JSON-RPC message per line.' },
  });
  assert.deepEqual(pong, { jsonrpc: '2.0', id: 1, result: {} });
  assert.match(io.logged.join('\n'), /-32700/);
});

test('JSON that is not a JSON-RPC message is -32600, carrying the id when there is a usable one', async () => {
  const io = await wire();
  io.stdin.write('{"jsonrpc":"1.0","id":4,"method":"ping"}\n');
  io.stdin.write('42\n');
  io.stdin.write('{"jsonrpc":"2.0","id":1.5,"method":"ping"}\n');
  io.stdin.write('[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","id":6,"method":"ping"}]\n');
  const answers = await io.waitLines(5);
  assert.deepEqual(
    answers.map((answer) => [answer.id, (answer.error as { code: number }).code]),
    [
      [4, -32600],
      [undefined, -32600],
      [undefined, -32600],
      ['a', -32600],
      [6, -32600],
    ],
  );
  assert.match(String((answers[0]?.error as { message: string }).message), /"jsonrpc" must be "2\.0"/);
  assert.match(String((answers[3]?.error as { message: string }).message), /batches are not supported/);
});

test('a line over the cap is skipped and answered with its id, and the session goes on', async () => {
  const io = await wire(1024);
  const big = JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name: 'env-validator', arguments: { text: 'x'.repeat(4000) } },
  });
  // Split across writes, as a pipe delivers it, with the next request in the same chunk as its end.
  io.stdin.write(big.slice(0, 700));
  io.stdin.write(big.slice(700, 2500));
  io.stdin.write(`${big.slice(2500)}\n${ping(8).trimEnd()}`);
  io.stdin.write('\n');
  const [tooLong, pong] = await io.waitLines(2);
  assert.equal(tooLong?.id, 7);
  assert.equal((tooLong?.error as { code: number }).code, -32600);
  assert.match(String((tooLong?.error as { message: string }).message), /longer than 1024 bytes/);
  assert.deepEqual(pong, { jsonrpc: '2.0', id: 8, result: {} });
});

test('lines split across chunks, CRLF ends and blank lines are read as the messages they are', async () => {
  const io = await wire();
  const line = ping('split');
  io.stdin.write(line.slice(0, 10));
  io.stdin.write(`${line.slice(10).trimEnd()}\r\n\n   \n${ping(2)}`);
  const answers = await io.waitLines(2);
  assert.deepEqual(
    answers.map((answer) => answer.id),
    ['split', 2],
  );
});

test('the id of an over-long line is read only where it cannot be part of the params', () => {
  assert.equal(leadingRequestId('{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{'), 12);
  assert.equal(leadingRequestId('{"id":"r-1","jsonrpc":"2.0"'), 'r-1');
  assert.equal(leadingRequestId('{"method":"tools/call","params":{"id":3'), undefined);
  assert.equal(leadingRequestId('{"jsonrpc":"2.0","id":1.5,'), undefined);
});

test('when stdout breaks the transport closes, so the bin can shut down instead of queueing answers nobody reads', async () => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const { log } = captureLog();
  const created = createServer({ names: testNames, catalogue, env: {}, log: () => undefined });
  const closed = new Promise<void>((resolve) => (created.server.onclose = resolve));
  const transport = new LineStdioTransport(stdin, stdout, log);
  await created.server.connect(transport);
  stdout.destroy();
  stdin.write(ping(1));
  await closed;
  await assert.rejects(transport.send({ jsonrpc: '2.0', id: 1, result: {} }), /closed/);
  await created.close();
});

test('a tools/call with task metadata is answered normally: this server declares no task capability (MCP 2025-11-25)', async () => {
  const io = await wire();
  io.stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'nexusbloom', arguments: { command: 'list' }, task: { ttl: 60_000 } } })}\n`,
  );
  const [answer] = await io.waitLines(1);
  assert.equal(answer?.error, undefined, JSON.stringify(answer));
  assert.equal((answer?.result as { structuredContent?: { count?: number } }).structuredContent?.count, 1);
});
