import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createRunHistory } from '../../src/runtime/history/history.js';
import { createAgentSurface } from '../../src/runtime/surface/surface.js';
import { createToolSearch } from '../../src/runtime/search/index.js';
import { ajvValidator, callExtra, functionRunner, harness, MANIFESTS, NAMES, servedTools } from './surface-fixtures.js';
import { toolList } from '../../src/runtime/catalogue/slug-index.js';

const data = (result: CallToolResult): Record<string, any> => result.structuredContent as Record<string, any>;

describe('direct tool calls', () => {
  it('runs an advertised tool by its slug, as in the README example', async () => {
    const h = harness();
    const result = await h.surface.callTool('env-validator', { env_content: 'DEBUG=true' }, callExtra());
    assert.equal(result.isError, undefined);
    assert.deepEqual(data(result), { valid: true, missing: [], empty: [] });
    assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), data(result));
    assert.equal(result._meta?.run_id, 'r1');
  });

  it('wraps non-object results in {result}', async () => {
    const result = await harness().surface.callTool('data-generator', { count: 2 }, callExtra());
    assert.equal(data(result).result.length, 2);
  });

  const failures: [string, string, unknown, string, RegExp][] = [
    [
      'typo',
      'env-validatr',
      {},
      'TOOL_NOT_FOUND',
      /^No tool named "env-validatr" is published\. Closest matches: env-validator\. Use the nexusbloom tool with \{"command":"search"/,
    ],
    ['ambiguous prefix', 'json', {}, 'AMBIGUOUS_SLUG', /json-formatter, json-schema-validator/],
    ['missing argument', 'env-validator', {}, 'VALIDATION_ERROR', /"env_content"/],
    [
      'withheld slug',
      'Env Validator',
      { env_content: 'A=1' },
      'TOOL_NOT_FOUND',
      /not directly callable.*"command":"run","slug":"Env Validator"/,
    ],
  ];
  for (const [name, tool, args, code, message] of failures) {
    it(`${name} → ${code} with zero runner calls`, async () => {
      const h = harness();
      const result = await h.surface.callTool(tool, args, callExtra());
      assert.equal(result.isError, true);
      assert.equal(data(result).code, code);
      assert.match(data(result).error, message);
      assert.equal(h.runner.calls.length, 0);
    });
  }

  it('resolves an unambiguous prefix among advertised tools only', async () => {
    const h = harness();
    // "json/" is a prefix of the withheld "json/format" only, so a direct call does not reach it.
    assert.equal(data(await h.surface.callTool('json/', { json: '{}' }, callExtra())).code, 'TOOL_NOT_FOUND');
    const result = await h.surface.callTool('word-c', { text: 'a b' }, callExtra());
    assert.deepEqual(data(result), { words: 2, characters: 3 });
  });

  it('sees a refreshed catalogue on the next call', async () => {
    let tools = toolList(servedTools(MANIFESTS.filter((m) => m.slug !== 'word-counter')));
    const runner = functionRunner();
    const surface = createAgentSurface({
      names: NAMES,
      getTools: () => tools,
      search: createToolSearch(() => tools.tools),
      runner,
      validator: ajvValidator(),
      history: createRunHistory(),
      startedAt: new Date(),
      log: () => undefined,
    });
    assert.equal(data(await surface.callTool('word-counter', { text: 'a' }, callExtra())).code, 'TOOL_NOT_FOUND');
    tools = toolList(servedTools());
    assert.equal(data(await surface.callTool('word-counter', { text: 'a' }, callExtra())).words, 1);
  });

  it('records direct calls in the history shared with the meta-tool, inputs redacted', async () => {
    const h = harness();
    await h.surface.callTool('ip-info', { ip: '192.0.2.1', api_token: 'tok-123456' }, callExtra());
    const shown = data(await h.surface.callTool(NAMES.metaToolName, { command: 'history', show: 'r1' }, callExtra()));
    assert.deepEqual(shown.runs[0].input, { ip: '192.0.2.1', api_token: '[redacted]' });
    assert.deepEqual(shown.runs[0].masked_input_fields, ['/api_token']);
  });

  it('diffs two runs that differ only in a redacted input as identical inputs: masked values compare as masked', async () => {
    const h = harness();
    const diffOf = async (): Promise<CallToolResult> => h.surface.callTool(NAMES.metaToolName, { command: 'diff' }, callExtra());
    await h.surface.callTool('ip-info', { ip: '192.0.2.1', api_token: 'tok-first-1' }, callExtra());
    await h.surface.callTool('ip-info', { ip: '192.0.2.1', api_token: 'tok-first-1' }, callExtra());
    const same = await diffOf();
    assert.equal(data(same).inputs_differ, false);
    await h.surface.callTool('ip-info', { ip: '192.0.2.1', api_token: 'tok-second-2' }, callExtra());
    const moved = await diffOf();
    assert.equal(data(moved).inputs_differ, false);
    assert.deepEqual(data(moved).masked_input_fields, ['/api_token']);
    assert.match(JSON.stringify(moved.content), /compared as masked/);
    const history = await h.surface.callTool(NAMES.metaToolName, { command: 'history', show: '-1' }, callExtra());
    const shown = JSON.stringify([same, moved, history]);
    assert.ok(!shown.includes('tok-first-1') && !shown.includes('tok-second-2'));
  });

  it('exposes the meta-tool definition', () => {
    assert.equal(harness().surface.metaTool.name, 'nexusbloom');
  });
});

describe('unexpected failures', () => {
  it('answer with an error result and a log line instead of throwing', async () => {
    const logs: string[] = [];
    const validator = ajvValidator();
    validator.validateInput = () => {
      throw new Error('schema failed to compile');
    };
    const surface = createAgentSurface({
      names: NAMES,
      getTools: () => toolList(servedTools()),
      search: createToolSearch(() => servedTools()),
      runner: functionRunner(),
      validator,
      history: createRunHistory(),
      startedAt: new Date(),
      log: (line) => void logs.push(line),
    });
    const result = await surface.callTool('word-counter', { text: 'a' }, callExtra());
    assert.equal(result.isError, true);
    assert.match(data(result).error, /schema failed to compile/);
    assert.equal(logs.length, 1);
  });
});
