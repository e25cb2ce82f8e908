import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLocalExecutor, stripCredentials } from '../../src/runtime/execution/local-exec.js';
import { localExecutionWarning } from '../../src/runtime/execution/local-exec-gate.js';
import type { RunOutcome } from '../../src/runtime/shared/contracts.js';
import { captureLog, manifest, servedTool, testNames } from './core-fixtures.js';

function toolWithCode(slug: string, code: string) {
  return servedTool(manifest({ slug, source: { runtime: 'node', code } }));
}

function failureOf(outcome: RunOutcome) {
  assert.equal(outcome.ok, false, JSON.stringify(outcome));
  return outcome.ok ? undefined : outcome.failure;
}

test('runs CommonJS source and returns its result, sync or async', async () => {
  const executor = createLocalExecutor({ timeoutMs: 10_000, log: () => {} });
  const sync = await executor.run(toolWithCode('sum', 'exports.run = (p) => ({ total: p.a + p.b });'), { a: 2, b: 3 });
  assert.deepEqual(sync.ok && sync.result, { total: 5 });
  const asyncTool = toolWithCode(
    'later',
    `const { createHash } = require('node:crypto');
module.exports = { async run(p) { await new Promise((r) => setTimeout(r, 10)); return createHash('sha1').update(p.text).digest('hex'); } };`,
  );
  const later = await executor.run(asyncTool, { text: 'abc' });
  assert.deepEqual(later.ok && later.result, 'a9993e364706816aba3e25717850c26c9cd0d89d');
});

test('an infinite loop is killed at the deadline: TIMEOUT', async () => {
  const executor = createLocalExecutor({ timeoutMs: 700, log: () => {} });
  const started = Date.now();
  const failure = failureOf(await executor.run(toolWithCode('spin', 'exports.run = () => { for (;;) {} };'), {}));
  assert.equal(failure?.code, 'TIMEOUT');
  assert.equal(failure?.retryable, true);
  assert.ok(Date.now() - started < 5000);
});

test('a memory bomb hits the heap cap: EXECUTION_ERROR', async () => {
  const executor = createLocalExecutor({ timeoutMs: 30_000, heapMb: 64, log: () => {} });
  const bomb = toolWithCode(
    'bomb',
    'exports.run = () => { const hoard = []; for (;;) hoard.push({ at: hoard.length, pad: "x".repeat(64) + hoard.length }); };',
  );
  const failure = failureOf(await executor.run(bomb, {}));
  assert.equal(failure?.code, 'EXECUTION_ERROR');
  assert.match(failure?.error ?? '', /out of memory \(heap cap 64 MB\)/);
});

test('stdout writes never reach our stdout; they are forwarded to the log', async () => {
  const { log, lines } = captureLog();
  const originalWrite = process.stdout.write.bind(process.stdout);
  const stdoutChunks: string[] = [];
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdoutChunks.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  try {
    const executor = createLocalExecutor({ timeoutMs: 10_000, log });
    const noisy = toolWithCode(
      'noisy',
      'exports.run = () => { console.log("HIJACK-STDOUT"); process.stdout.write("MORE\\n"); console.error("to stderr"); return 1; };',
    );
    const outcome = await executor.run(noisy, {});
    assert.deepEqual(outcome.ok && outcome.result, 1);
  } finally {
    process.stdout.write = originalWrite;
  }
  assert.ok(
    stdoutChunks.every((chunk) => !chunk.includes('HIJACK')),
    'child output reached our stdout',
  );
  assert.ok(lines.some((line) => line.includes('stdout') && line.includes('HIJACK-STDOUT')));
  assert.ok(lines.some((line) => line.includes('stderr') && line.includes('to stderr')));
});

test('process.exit without a result: EXECUTION_ERROR', async () => {
  const executor = createLocalExecutor({ timeoutMs: 10_000, log: () => {} });
  const failure = failureOf(await executor.run(toolWithCode('quitter', 'exports.run = () => { process.exit(0); };'), {}));
  assert.equal(failure?.code, 'EXECUTION_ERROR');
  assert.match(failure?.error ?? '', /exit code 0.*without returning a result/);
});

test('throwing a string or an Error: EXECUTION_ERROR with the message', async () => {
  const executor = createLocalExecutor({ timeoutMs: 10_000, log: () => {} });
  const str = failureOf(await executor.run(toolWithCode('str', 'exports.run = () => { throw "just a string"; };'), {}));
  assert.equal(str?.code, 'EXECUTION_ERROR');
  assert.match(str?.error ?? '', /non-Error value \(string\): "just a string"/);
  const err = failureOf(await executor.run(toolWithCode('err', 'exports.run = async () => { throw new RangeError("bad range"); };'), {}));
  assert.match(err?.error ?? '', /RangeError: bad range/);
  const none = failureOf(await executor.run(toolWithCode('none', 'exports.walk = () => 1;'), {}));
  assert.match(none?.error ?? '', /does not export a run\(params\)/);
  const syntax = failureOf(await executor.run(toolWithCode('syntax', 'exports.run = () => {'), {}));
  assert.match(syntax?.error ?? '', /failed to load: SyntaxError/);
  const cyclic = failureOf(await executor.run(toolWithCode('cyclic', 'exports.run = () => { const a = {}; a.a = a; return a; };'), {}));
  assert.match(cyclic?.error ?? '', /not JSON-serialisable/);
});

test('credentials are not visible to the tool; ordinary variables are', async () => {
  const env = {
    PATH: process.env.PATH,
    NEXUSBLOOM_API_KEY: 'sk-live-123',
    STRIPE_SECRET_KEY: 's',
    AWS_SESSION_TOKEN: 't',
    DB_PASSWORD: 'p',
    GIT_AUTH: 'a',
    my_private_thing: 'q',
    PROJECT_MODE: 'demo',
  };
  const executor = createLocalExecutor({ timeoutMs: 10_000, log: () => {}, env });
  const spy = toolWithCode(
    'spy',
    'exports.run = () => ({ key: process.env.NEXUSBLOOM_API_KEY ?? null, names: Object.keys(process.env).sort(), mode: process.env.PROJECT_MODE });',
  );
  const outcome = await executor.run(spy, {});
  assert.equal(outcome.ok, true, JSON.stringify(outcome));
  const result = (outcome.ok ? outcome.result : {}) as { key: string | null; names: string[]; mode: string };
  assert.equal(result.key, null);
  assert.equal(result.mode, 'demo');
  for (const hidden of ['NEXUSBLOOM_API_KEY', 'STRIPE_SECRET_KEY', 'AWS_SESSION_TOKEN', 'DB_PASSWORD', 'GIT_AUTH', 'my_private_thing']) {
    assert.ok(!result.names.includes(hidden), hidden);
  }
  assert.ok(result.names.includes('PATH'));
});

test('stripCredentials matches by case-insensitive substring and copies', () => {
  const env = { HOME: '/h', api_key: 'x', Cookie_jar: 'y', PASSPHRASE_FILE: 'z', NODE_ENV: 'test', CREDENTIALS_PATH: 'c' };
  assert.deepEqual(stripCredentials(env), { HOME: '/h', NODE_ENV: 'test' });
  assert.equal(env.api_key, 'x');
});

test('a tool without source is NO_LOCAL_SOURCE', async () => {
  const executor = createLocalExecutor({ timeoutMs: 1000, log: () => {}, executionVar: 'NEXUSBLOOM_MCP_EXECUTION' });
  const failure = failureOf(await executor.run(servedTool(manifest({ slug: 'remote-only' })), {}));
  assert.equal(failure?.code, 'NO_LOCAL_SOURCE');
  assert.match(failure?.error ?? '', /NEXUSBLOOM_MCP_EXECUTION/);
});

test('cancellation kills the child', async () => {
  const executor = createLocalExecutor({ timeoutMs: 20_000, log: () => {} });
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 300);
  const started = Date.now();
  const failure = failureOf(
    await executor.run(toolWithCode('slow', 'exports.run = () => new Promise(() => setInterval(() => {}, 1000));'), {}, controller.signal),
  );
  assert.equal(failure?.details?.cancelled, true);
  assert.equal(failure?.code, 'CANCELLED');
  assert.ok(Date.now() - started < 5000);
});

test('this process survives hostile tools and keeps serving', async () => {
  const executor = createLocalExecutor({ timeoutMs: 15_000, heapMb: 64, log: () => {} });
  const hostile = [
    'exports.run = () => { process.kill(process.ppid, 0); process.exit(1); };',
    'exports.run = () => { setTimeout(() => { throw new Error("later"); }, 1); return new Promise(() => {}); };',
    'exports.run = () => { process.abort(); };',
  ];
  const outcomes = await Promise.all(hostile.map((code, i) => executor.run(toolWithCode(`h${i}`, code), {})));
  for (const outcome of outcomes) assert.equal(outcome.ok, false);
  const after = await executor.run(toolWithCode('fine', 'exports.run = () => "still here";'), {});
  assert.deepEqual(after.ok && after.result, 'still here');
});

test('the start-up warning states the threat model', () => {
  const warning = localExecutionWarning(testNames, 'auto');
  assert.match(warning, /NEXUSBLOOM_MCP_EXECUTION=auto/);
  assert.match(warning, /not a security sandbox/);
  assert.match(warning, /user permissions/);
});

test('killAll stops runs in progress (the server calls it when it closes)', async () => {
  const executor = createLocalExecutor({ timeoutMs: 60_000, log: () => {} });
  const pending = executor.run(toolWithCode('pid-then-spin', 'exports.run = () => { for (;;) {} };'), {});
  await new Promise((resolve) => setTimeout(resolve, 500));
  const started = Date.now();
  executor.killAll();
  const failure = failureOf(await pending);
  assert.equal(failure?.code, 'EXECUTION_ERROR');
  assert.match(failure?.error ?? '', /SIGKILL/);
  assert.ok(Date.now() - started < 3000);
});
