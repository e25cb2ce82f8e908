import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError } from '../../src/runtime/shared/contracts.js';
import { errorCodeIn } from '../../src/runtime/surface/prompts.js';
import { callExtra, harness, NAMES, type Harness } from './surface-fixtures.js';

const promptText = (result: GetPromptResult): string => {
  assert.equal(result.messages.length, 1);
  const content = result.messages[0]?.content as { type: string; text: string };
  assert.equal(content.type, 'text');
  return content.text;
};

/** Every ```json block in a prompt, which the prompts use only for calls. */
function callsIn(text: string): { name: string; arguments: Record<string, unknown> }[] {
  return [...text.matchAll(/```json\n([\s\S]*?)\n```/g)]
    .map((match) => JSON.parse(match[1] ?? ''))
    .filter((value) => value !== null && typeof value === 'object' && 'name' in value && 'arguments' in value);
}

const REJECTED_BEFORE_RUNNING = new Set(['VALIDATION_ERROR', 'INVALID_COMMAND', 'TOOL_NOT_FOUND', 'AMBIGUOUS_SLUG', 'BATCH_TOO_LARGE']);

/** Sends each call a prompt carries through the real surface: none may be rejected as malformed. */
async function assertCallsValidate(h: Harness, text: string, minimum: number): Promise<void> {
  const calls = callsIn(text);
  assert.ok(calls.length >= minimum, `expected ≥ ${minimum} calls in:\n${text}`);
  for (const call of calls) {
    if (call.name !== NAMES.metaToolName) {
      const tool = h.tools.find((candidate) => candidate.slug === call.name);
      assert.ok(tool && tool.withheldReason === null, `direct call to advertised tool: ${call.name}`);
    }
    const result = await h.surface.callTool(call.name, call.arguments, callExtra());
    const code = (result.structuredContent as { code?: string } | undefined)?.code;
    assert.ok(
      !result.isError || !REJECTED_BEFORE_RUNNING.has(code ?? ''),
      `${JSON.stringify(call)} → ${JSON.stringify(result.structuredContent)}`,
    );
    if (call.arguments.command === 'batch') {
      assert.equal((result.structuredContent as { total: number }).total, (call.arguments.runs as unknown[]).length);
    }
  }
}

describe('prompt list', () => {
  it('offers four described prompts with their arguments', () => {
    const { prompts } = harness().surface.listPrompts();
    assert.deepEqual(
      prompts.map((prompt) => [prompt.name, (prompt.arguments ?? []).map((argument) => argument.name)]),
      [
        ['find-tool', ['goal']],
        ['use-tool', ['slug']],
        ['plan-batch', ['task']],
        ['recover', ['error', 'slug']],
      ],
    );
    for (const prompt of prompts) {
      assert.ok((prompt.description ?? '').length > 20, prompt.name);
      for (const argument of prompt.arguments ?? []) assert.ok((argument.description ?? '').length > 5);
    }
  });
});

describe('find-tool', () => {
  for (const goal of ['check my .env file has all keys', 'make fake test data', 'decode a jwt', 'legacy env checker']) {
    it(`ranks tools for "${goal}" with costs, URIs and calls that validate`, async () => {
      const h = harness();
      const text = promptText(h.surface.getPrompt('find-tool', { goal }));
      assert.match(text, /cost: \d+\/\d+ params; manifest: nexusbloom:\/\/tools\//);
      await assertCallsValidate(h, text, 1);
    });
  }
  it('falls back to the list command when nothing matches', async () => {
    const h = harness();
    const text = promptText(h.surface.getPrompt('find-tool', { goal: 'qqqzzz xxyyw' }));
    assert.match(text, /No published tool matches/);
    await assertCallsValidate(h, text, 1);
  });
});

describe('use-tool', () => {
  it('gives parameters, output schema and a valid call for every tool', async () => {
    const h = harness();
    for (const tool of h.tools) {
      const text = promptText(h.surface.getPrompt('use-tool', { slug: tool.slug }));
      assert.match(text, /Parameters:/);
      assert.match(text, /output_schema:/);
      assert.match(text, /A valid call to copy/);
      await assertCallsValidate(h, text, 1);
    }
  });
  it('names required fields', () => {
    const text = promptText(harness().surface.getPrompt('use-tool', { slug: 'diff-checker' }));
    assert.match(text, /- original \(string, required\): First text\./);
  });
  const rejected: [string, RegExp][] = [
    ['jwt', /No tool named "jwt".*jwt-decoder.*Only an exact slug/s],
    ['env-validatr', /Closest matches: env-validator/],
  ];
  for (const [slug, message] of rejected) {
    it(`accepts only exact slugs: ${slug} is an InvalidParams error`, () => {
      assert.throws(
        () => harness().surface.getPrompt('use-tool', { slug }),
        (error: unknown) => error instanceof ProtocolError && error.code === ErrorCode.InvalidParams && message.test(error.message),
      );
    });
  }
});

describe('plan-batch', () => {
  for (const task of [
    'set up a new node repository: gitignore, check env, fake data',
    'prepare api docs: markdown to html and format json',
  ]) {
    it(`plans "${task}" with a batch call that validates`, async () => {
      const h = harness();
      const text = promptText(h.surface.getPrompt('plan-batch', { task }));
      assert.match(text, /at most 10 runs/);
      assert.match(text, /one invalid item rejects the whole batch/);
      const [batch] = callsIn(text);
      assert.ok(batch);
      assert.equal(batch.arguments.command, 'batch');
      assert.ok((batch.arguments.runs as unknown[]).length >= 2);
      await assertCallsValidate(h, text, 1);
    });
  }
});

describe('recover', () => {
  const cases: [string, string, RegExp][] = [
    ['VALIDATION_ERROR', 'data-generator', /Code VALIDATION_ERROR \(not retryable\)[\s\S]*required: count/],
    ['{"success":false,"error":"slow","code":"RATE_LIMITED","retryable":true}', 'hash-generator', /Code RATE_LIMITED \(retryable\)/],
    ['the call failed with TIMEOUT after 15s', 'json/format', /Code TIMEOUT \(retryable\)[\s\S]*"command": "run"/],
    ['TOOL_NOT_FOUND', 'env-validatr', /No tool has the exact slug "env-validatr"\. Closest: env-validator/],
  ];
  for (const [error, slug, pattern] of cases) {
    it(`${error.slice(0, 30)} on ${slug}`, async () => {
      const h = harness();
      const text = promptText(h.surface.getPrompt('recover', { error, slug }));
      assert.match(text, pattern);
      assert.match(text, /\| AUTH_ERROR \| no \|/);
      assert.match(text, /\| UPSTREAM_ERROR \| yes \|/);
      await assertCallsValidate(h, text, 1);
    });
  }
});

describe('prompt errors', () => {
  const table: [string, Record<string, string>, RegExp][] = [
    ['find-tool', {}, /needs the argument "goal"/],
    ['recover', { error: 'TIMEOUT' }, /needs the argument "slug"/],
    ['nope', {}, /Unknown prompt "nope"/],
  ];
  for (const [name, args, message] of table) {
    it(`${name} ${JSON.stringify(args)}`, () => {
      assert.throws(
        () => harness().surface.getPrompt(name, args),
        (error: unknown) => error instanceof ProtocolError && error.code === ErrorCode.InvalidParams && message.test(error.message),
      );
    });
  }
  it('finds error codes in codes, envelopes and prose', () => {
    assert.equal(errorCodeIn('AUTH_ERROR'), 'AUTH_ERROR');
    assert.equal(errorCodeIn('{"code":"BATCH_TOO_LARGE"}'), 'BATCH_TOO_LARGE');
    assert.equal(errorCodeIn('got output_mismatch back'), 'OUTPUT_MISMATCH');
    assert.equal(errorCodeIn('something odd'), null);
  });
});
