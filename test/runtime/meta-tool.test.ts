import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callExtra, functionRunner, harness, MANIFESTS, NAMES, servedTools, STARTED_AT, type Harness } from './surface-fixtures.js';

const META = NAMES.metaToolName;
const text = (result: CallToolResult): string => (result.content[0] as { text: string }).text;
const data = (result: CallToolResult): Record<string, any> => result.structuredContent as Record<string, any>;
const meta = (h: Harness, args: unknown, extra = callExtra()) => h.surface.callTool(META, args, extra);

describe('meta-tool definition', () => {
  const { surface } = harness();
  const schema = surface.metaTool.inputSchema as Record<string, any>;
  it('is named after the configured meta-tool name', () => assert.equal(surface.metaTool.name, META));
  it('is one flat object schema that strict hosts accept', () => {
    assert.equal(schema.type, 'object');
    for (const combinator of ['oneOf', 'anyOf', 'allOf', '$ref', 'not', 'if']) assert.equal(schema[combinator], undefined, combinator);
    assert.doesNotMatch(JSON.stringify(schema), /"\$ref"|"oneOf"|"anyOf"|"allOf"/);
    assert.deepEqual(schema.required, ['command']);
    assert.deepEqual(schema.properties.command.enum, ['search', 'list', 'schema', 'run', 'batch', 'history', 'diff']);
    for (const [name, property] of Object.entries<Record<string, unknown>>(schema.properties)) {
      assert.equal(typeof property.description, 'string', name);
      assert.ok((property.description as string).length > 10, name);
    }
    assert.match(surface.metaTool.name, /^[a-zA-Z0-9_-]{1,64}$/);
    assert.ok((surface.metaTool.description ?? '').length > 50);
  });
});

describe('INVALID_COMMAND names the field', () => {
  const table: [string, unknown, string, RegExp][] = [
    ['no arguments', undefined, 'command', /"command"/],
    ['no command', {}, 'command', /Field "command" is required/],
    ['unknown command', { command: 'fly' }, 'command', /Unknown command "fly"/],
    ['search without query', { command: 'search' }, 'query', /Field "query" is required/],
    ['limit out of range', { command: 'search', query: 'x', limit: 0 }, 'limit', /"limit"/],
    ['schema without slug', { command: 'schema' }, 'slug', /"slug"/],
    ['arguments instead of params', { command: 'run', slug: 'jwt-decoder', arguments: {} }, 'arguments', /Did you mean "params"\?/],
    ['params not an object', { command: 'run', slug: 'jwt-decoder', params: 'x' }, 'params', /"params"/],
    ['batch without runs', { command: 'batch' }, 'runs', /"runs" is required/],
    ['empty batch', { command: 'batch', runs: [] }, 'runs', /at least one/],
    ['history show not a string', { command: 'history', show: {} }, 'show', /"show"/],
  ];
  for (const [name, args, field, message] of table) {
    it(name, async () => {
      const h = harness();
      const result = await meta(h, args);
      assert.equal(result.isError, true);
      assert.equal(data(result).code, 'INVALID_COMMAND');
      assert.equal(data(result).details.field, field);
      assert.match(data(result).error, message);
      assert.equal(h.runner.calls.length, 0);
    });
  }
});

describe('search, list and schema', () => {
  it('search ranks by intent with reasons, parameter counts and manifest URIs', async () => {
    const result = await meta(harness(), { command: 'search', query: 'validate env file', limit: 3 });
    const results = data(result).results;
    assert.equal(results.length, 3);
    assert.equal(results[0].slug, 'env-validator');
    assert.deepEqual(results[0].parameters, { required: 1, total: 3 });
    assert.equal(results[0].uri, 'nexusbloom://tools/env-validator');
    assert.match(results[0].reason, /^matched: /);
    assert.match(text(result), /^3 tools match "validate env file"/);
    assert.match(text(result), /\{"command":"schema","slug":"env-validator"\}/);
  });

  it('search defaults to 10 results', async () => {
    const result = await meta(harness(), { command: 'search', query: 'text json html generate convert' });
    assert.equal(data(result).results.length, 10);
  });

  it('list shows every tool, withheld ones marked', async () => {
    const h = harness();
    const result = await meta(h, { command: 'list' });
    assert.equal(data(result).count, h.tools.length);
    const withheld = data(result)
      .tools.filter((tool: { withheld: boolean }) => tool.withheld)
      .map((tool: { slug: string }) => tool.slug);
    assert.deepEqual(withheld, ['Env Validator', 'json/format']);
    assert.equal(text(result).split('\n').length, h.tools.length + 1);
  });

  it('schema gives exact schemas and an example call that validates, for every tool', async () => {
    const h = harness();
    for (const tool of h.tools) {
      const result = await meta(h, { command: 'schema', slug: tool.slug });
      assert.equal(result.isError, undefined, tool.slug);
      const described = data(result);
      assert.deepEqual(described.input_schema, tool.manifest.input_schema ?? { type: 'object', properties: {} });
      assert.deepEqual(described.output_schema, tool.manifest.output_schema ?? null);
      const example = described.example as { name: string; arguments: Record<string, unknown> };
      if (tool.withheldReason === null) {
        assert.equal(example.name, tool.slug);
        assert.equal(h.ctx.validator.validateInput(tool, example.arguments), null, tool.slug);
      } else {
        assert.equal(example.name, META);
        assert.equal(example.arguments.command, 'run');
        assert.equal(h.ctx.validator.validateInput(tool, example.arguments.params), null, tool.slug);
      }
    }
  });

  it('schema resolves an unambiguous prefix and rejects a typo with suggestions', async () => {
    const h = harness();
    assert.equal(data(await meta(h, { command: 'schema', slug: 'jwt' })).slug, 'jwt-decoder');
    const typo = await meta(h, { command: 'schema', slug: 'env-validatr' });
    assert.equal(data(typo).code, 'TOOL_NOT_FOUND');
    assert.deepEqual(data(typo).details.closest.slice(0, 1), ['env-validator']);
  });
});

describe('run', () => {
  it('runs a tool and returns its result', async () => {
    const h = harness();
    const result = await meta(h, { command: 'run', slug: 'env-validator', params: { env_content: 'DEBUG=true', required_keys: ['PORT'] } });
    assert.deepEqual(data(result), { valid: false, missing: ['PORT'], empty: [] });
    assert.equal(result._meta?.run_id, 'r1');
  });

  it('runs withheld tools', async () => {
    const h = harness();
    const result = await meta(h, { command: 'run', slug: 'json/format', params: { json: '{}' } });
    assert.equal(result.isError, undefined);
    assert.deepEqual(h.runner.calls, [{ slug: 'json/format', params: { json: '{}' } }]);
  });

  it('runs and describes tools whose slug is only white space; only "" is not a slug', async () => {
    const blank = (slug: string) => ({ ...MANIFESTS.find((m) => m.slug === 'json/format')!, slug, name: `Blank ${JSON.stringify(slug)}` });
    const h = harness({ tools: servedTools([...MANIFESTS, blank(' '), blank('\u00a0')]) });
    for (const slug of [' ', '\u00a0']) {
      const described = await meta(h, { command: 'schema', slug });
      assert.equal(described.isError, undefined, JSON.stringify(described.structuredContent));
      assert.equal(data(described).slug, slug);
      const ran = await meta(h, { command: 'run', slug, params: { json: '{}' } });
      assert.equal(ran.isError, undefined, JSON.stringify(ran.structuredContent));
    }
    assert.deepEqual(
      h.runner.calls.map((call) => call.slug),
      [' ', '\u00a0'],
    );
    for (const command of ['run', 'schema']) {
      const empty = await meta(h, { command, slug: '' });
      assert.equal(data(empty).code, 'INVALID_COMMAND');
      assert.equal(data(empty).details.field, 'slug');
    }
  });

  const failures: [string, unknown, string, RegExp][] = [
    ['typo', { command: 'run', slug: 'env-validatr', params: {} }, 'TOOL_NOT_FOUND', /Closest matches: env-validator/],
    [
      'ambiguous prefix',
      { command: 'run', slug: 'json', params: {} },
      'AMBIGUOUS_SLUG',
      /json-formatter, json-schema-validator, json\/format/,
    ],
    ['missing argument', { command: 'run', slug: 'data-generator', params: {} }, 'VALIDATION_ERROR', /"count"/],
    ['failing tool', { command: 'run', slug: 'jwt-decoder', params: { token: 'notajwt' } }, 'EXECUTION_ERROR', /not a JWT/],
    ['output mismatch', { command: 'run', slug: 'http-status', params: { code: 418 } }, 'OUTPUT_MISMATCH', /output_schema/],
  ];
  for (const [name, args, code, message] of failures) {
    it(`${name} → ${code}`, async () => {
      const result = await meta(harness(), args);
      assert.equal(result.isError, true);
      assert.equal(data(result).code, code);
      assert.match(data(result).error, message);
      assert.deepEqual(JSON.parse(text(result)), data(result));
    });
  }
});

describe('batch', () => {
  const validRun = (index: number) => ({ slug: 'word-counter', params: { text: `run ${index}` } });

  it('rejects 11 runs with BATCH_TOO_LARGE and runs nothing', async () => {
    const h = harness();
    const result = await meta(h, { command: 'batch', runs: Array.from({ length: 11 }, (_unused, index) => validRun(index)) });
    assert.equal(data(result).code, 'BATCH_TOO_LARGE');
    assert.equal(data(result).retryable, false);
    assert.equal(h.runner.calls.length, 0);
  });

  it('accepts exactly 10 runs', async () => {
    const h = harness();
    const result = await meta(h, { command: 'batch', runs: Array.from({ length: 10 }, (_unused, index) => validRun(index)) });
    assert.equal(data(result).succeeded, 10);
    assert.equal(h.runner.calls.length, 10);
  });

  const rejected: [string, unknown[], number, string, RegExp][] = [
    [
      'invalid params at index 2',
      [validRun(0), validRun(1), { slug: 'data-generator', params: {} }],
      2,
      'VALIDATION_ERROR',
      /runs\[2\]: .*"count"/,
    ],
    [
      'unknown slug at index 1',
      [validRun(0), { slug: 'env-validatr' }, validRun(2)],
      1,
      'TOOL_NOT_FOUND',
      /runs\[1\]: No tool named "env-validatr"/,
    ],
    ['ambiguous slug at index 0', [{ slug: 'json', params: {} }], 0, 'AMBIGUOUS_SLUG', /runs\[0\]/],
    ['item not an object at index 1', [validRun(0), 'word-counter'], 1, 'INVALID_COMMAND', /runs\[1\] must be an object/],
    ['missing slug at index 0', [{ params: {} }], 0, 'INVALID_COMMAND', /runs\[0\]\.slug is required/],
    ['alias field at index 0', [{ slug: 'word-counter', arguments: {} }], 0, 'INVALID_COMMAND', /Did you mean "params"/],
  ];
  for (const [name, runs, index, code, message] of rejected) {
    it(`rejects the whole batch for ${name} with zero runs`, async () => {
      const h = harness();
      const result = await meta(h, { command: 'batch', runs });
      assert.equal(result.isError, true);
      assert.equal(data(result).code, code);
      assert.equal(data(result).details.index, index);
      assert.match(data(result).error, /^Batch rejected, nothing was run/);
      assert.match(data(result).error, message);
      assert.equal(h.runner.calls.length, 0);
      assert.equal(h.ctx.history.list().length, 0);
    });
  }

  it('names every invalid item', async () => {
    const result = await meta(harness(), { command: 'batch', runs: [{ slug: 'data-generator' }, validRun(1), { slug: 'nope-nope' }] });
    assert.deepEqual(
      data(result).details.items.map((item: { index: number }) => item.index),
      [0, 2],
    );
  });

  it('is an isError result when no run succeeded, with every failure kept', async () => {
    const broken = { slug: 'jwt-decoder', params: { token: 'broken' } };
    const result = await meta(harness(), { command: 'batch', runs: [broken, broken] });
    assert.equal(result.isError, true);
    assert.equal(text(result).split('\n')[0], '2 runs: 0 succeeded, 2 failed');
    assert.deepEqual(
      data(result).runs.map((run: { code: string }) => run.code),
      ['EXECUTION_ERROR', 'EXECUTION_ERROR'],
    );
  });

  it('keeps successes when one run fails, lists failures first and keeps request order in the data', async () => {
    const h = harness();
    const result = await meta(h, {
      command: 'batch',
      runs: [
        { slug: 'env-validator', params: { env_content: 'DEBUG=true' } },
        { slug: 'jwt-decoder', params: { token: 'broken' } },
        { slug: 'data-generator', params: { count: 2 } },
      ],
    });
    assert.equal(result.isError, undefined);
    const lines = text(result).split('\n');
    assert.equal(lines[0], '3 runs: 2 succeeded, 1 failed');
    assert.match(lines[1] ?? '', /^runs\[1\] jwt-decoder \(r2\) failed \[EXECUTION_ERROR, retryable: false\]/);
    assert.match(lines[2] ?? '', /^runs\[0\] env-validator \(r1\) succeeded/);
    const runs = data(result).runs;
    assert.deepEqual(
      runs.map((run: { slug: string; success: boolean }) => [run.slug, run.success]),
      [
        ['env-validator', true],
        ['jwt-decoder', false],
        ['data-generator', true],
      ],
    );
    assert.equal(runs[2].result.length, 2);
    assert.equal(runs[1].code, 'EXECUTION_ERROR');
    assert.deepEqual([data(result).total, data(result).succeeded, data(result).failed], [3, 2, 1]);
    assert.equal(h.runner.calls.length, 3);
  });

  it('sends no run after the call is cancelled, and records and counts only the runs that were sent', async () => {
    const controller = new AbortController();
    const runner = functionRunner({
      'word-counter': () => {
        controller.abort();
        return { words: 2, characters: 5 };
      },
    });
    const h = harness({ runner });
    const result = await meta(h, { command: 'batch', runs: [0, 1, 2, 3].map(validRun) }, { ...callExtra(), signal: controller.signal });
    assert.equal(h.runner.calls.length, 1);
    assert.deepEqual(
      h.ctx.history.list().map((run) => run.id),
      ['r1'],
    );
    assert.deepEqual([data(result).total, data(result).succeeded, data(result).failed, data(result).not_sent], [4, 1, 0, 3]);
    assert.deepEqual(
      data(result).runs.map((run: { run_id?: string; code?: string }) => [run.run_id, run.code]),
      [
        ['r1', undefined],
        [undefined, 'CANCELLED'],
        [undefined, 'CANCELLED'],
        [undefined, 'CANCELLED'],
      ],
    );
    assert.match(text(result), /^4 runs: 1 succeeded, 0 failed, 3 not sent/);
  });

  const batchOfThree = { command: 'batch', runs: [validRun(0), { slug: 'jwt-decoder', params: { token: 'broken' } }, validRun(2)] };

  it('sends an opening tick and one per entry, monotonic, when the host sent a progress token', async () => {
    const extra = callExtra({ token: 'tok-1' });
    await meta(harness(), batchOfThree, extra);
    assert.deepEqual(
      extra.ticks.map((tick) => [tick.progress, tick.total]),
      [
        [0, 3],
        [1, 3],
        [2, 3],
        [3, 3],
      ],
    );
    assert.match(extra.ticks[2]?.message ?? '', /jwt-decoder: failed/);
  });

  it('sends no progress without a token', async () => {
    const extra = callExtra();
    const result = await meta(harness(), batchOfThree, extra);
    assert.equal(data(result).total, 3);
    assert.deepEqual(extra.ticks, []);
  });

  it('never fails the call because a progress notification failed', async () => {
    const extra = callExtra({ token: 0, failProgress: true });
    const h = harness();
    const result = await meta(h, batchOfThree, extra);
    assert.equal(data(result).succeeded, 2);
    assert.equal(extra.ticks.length, 4);
    assert.ok(h.logs.some((line) => /progress notification failed/.test(line)));
  });
});

describe('history and diff', () => {
  async function withRuns(): Promise<Harness> {
    const h = harness();
    await meta(h, { command: 'run', slug: 'env-validator', params: { env_content: 'A=1', required_keys: ['A'] } });
    await meta(h, { command: 'run', slug: 'env-validator', params: { env_content: 'B=1', required_keys: ['A'] } });
    // Invalid, so never run and never recorded.
    await meta(h, { command: 'run', slug: 'hash-generator', params: { input: 'x', api_key: 'sk-live-123' } });
    return h;
  }

  it('lists runs newest first with the process scope and start time', async () => {
    const h = await withRuns();
    const result = await meta(h, { command: 'history' });
    const index = data(result);
    assert.deepEqual(
      index.runs.map((run: { id: string }) => run.id),
      ['r2', 'r1'],
    );
    assert.deepEqual(Object.keys(index.runs[0]), ['id', 'slug', 'status', 'duration_ms', 'at']);
    assert.equal(index.process_started_at, STARTED_AT.toISOString());
    assert.match(text(result), /scoped to this server process \(started 2026-01-02T03:04:05\.000Z\)/);
    assert.match(text(result), /spans every conversation/);
  });

  it('shows one run in full, redacted, and says what is missing', async () => {
    const h = harness();
    await meta(h, { command: 'run', slug: 'secret-scanner', params: { content: 'x' } });
    await h.surface.callTool('env-validator', { env_content: 'TOKEN=abc', required_keys: ['TOKEN'] }, callExtra());
    const shown = data(await meta(h, { command: 'history', show: 'r1' }));
    assert.equal(shown.runs.length, 1);
    assert.deepEqual(shown.runs[0].input, { content: 'x' });
    assert.equal(shown.runs[0].input_truncated, false);
    assert.ok('result' in shown.runs[0]);
    assert.match(shown.note, /not reset between them/);
    const latest = data(await meta(h, { command: 'history', show: '-1' }));
    assert.equal(latest.runs[0].id, 'r2');
    const missing = await meta(h, { command: 'history', show: 'r9' });
    assert.equal(data(missing).code, 'RUN_NOT_FOUND');
    assert.match(data(missing).error, /it holds r1 to r2/);
    assert.match(data(missing).error, /2026-01-02T03:04:05\.000Z/);
  });

  it('shows failed runs with their error', async () => {
    const h = harness();
    await meta(h, { command: 'run', slug: 'jwt-decoder', params: { token: 'broken' } });
    const run = data(await meta(h, { command: 'history', show: 'r1' })).runs[0];
    assert.equal(run.status, 'failed');
    assert.equal(run.error.code, 'EXECUTION_ERROR');
    assert.equal(run.error_truncated, false);
  });

  it('diffs the last two runs by default and flags changed inputs', async () => {
    const h = await withRuns();
    const result = await meta(h, { command: 'diff' });
    assert.equal(data(result).verdict, 'results differ; inputs differ too');
    assert.deepEqual(data(result).input.changed, ['/env_content']);
    assert.deepEqual(data(result).result, { changed: ['/valid'], added: ['/missing/0'], removed: [] });
    assert.ok(text(result).startsWith('r1 → r2: results differ; inputs differ too.'));
    assert.match(text(result), /scoped to this server process/);
    assert.equal(data(await meta(h, { command: 'diff', from: 'r1', to: 'r1' })).verdict, 'identical');
    assert.equal(data(await meta(h, { command: 'diff', from: -2, to: -1 })).from.id, 'r1');
  });

  it('says so when a diff compares truncated payloads', async () => {
    const h = harness();
    const big = 'x'.repeat(9000);
    await meta(h, { command: 'run', slug: 'word-counter', params: { text: big } });
    await meta(h, { command: 'run', slug: 'word-counter', params: { text: big } });
    const result = await meta(h, { command: 'diff', from: '-2', to: '-1' });
    assert.match(data(result).verdict, /truncated/);
    assert.doesNotMatch(data(result).verdict, /^identical/);
    assert.equal(data(result).truncated.fromInput, true);
  });

  it('names the field of a run that does not exist', async () => {
    const h = await withRuns();
    const result = await meta(h, { command: 'diff', from: 'r1', to: 'r77' });
    assert.equal(data(result).code, 'RUN_NOT_FOUND');
    assert.equal(data(result).details.field, 'to');
    const empty = await meta(harness(), { command: 'diff' });
    assert.equal(data(empty).details.field, 'from');
    assert.match(data(empty).error, /holds no runs yet/);
  });
});
