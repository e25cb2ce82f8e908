import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { withheldReasonFor } from '../../src/runtime/catalogue/advertise.js';
import type { Manifest, ServedCatalogueFile } from '../../src/runtime/shared/contracts.js';
import { createServer } from '../../src/runtime/transport/server.js';
import {
  advertisedSurface,
  budgetLines,
  contextBudget,
  lastChunkStart,
  overBudgetMessage,
} from '../../src/pipeline/budget/context-budget.js';
import {
  boundedCounter,
  loadTokenCounter,
  hasLongRun,
  MAX_COUNTED_RUN,
  shippedRanksFile,
  writeShippedRanks,
  type BatchCounter,
} from '../../src/pipeline/budget/token-count.js';
import { LIST_PARTS_JOB } from '../../src/pipeline/emit/advertised-list.js';
import { emitPackage } from '../../src/pipeline/emit/emit-package.js';
import { SEARCH_PARTS_JOB } from '../../src/pipeline/emit/search-index-file.js';
import { checkCatalogue } from '../../src/pipeline/check/check-in-thread.js';
import { planPackage } from '../../src/pipeline/plan/plan-package.js';
import { createWork } from '../../src/pipeline/parallel/work.js';
import { cacheDir, memoryCache } from '../../src/pipeline/cache/build-cache.js';
import { resolveConfig } from '../../src/pipeline/config.js';
import { buildPackage } from '../../src/pipeline/run-pipeline.js';
import { loadsTokenizerAhead } from '../../src/pipeline/budget/build-budget.js';
import { staticImports } from '../helpers/import-graph.js';
import { BOUNDED_HEAP_FROM_TOOLS } from '../../src/pipeline/memory.js';
import { PipelineError } from '../../src/pipeline/problems.js';
import { runCli } from '../helpers/cli.js';
import { bundle, hostileBundle, tool } from '../fixtures/catalogues.js';

const EXAMPLE = new URL('../../examples/catalogue.json', import.meta.url);
const exampleTools = (JSON.parse(readFileSync(EXAMPLE, 'utf8')) as { tools: Manifest[] }).tools
  .map((m) => ({ slug: m.slug, manifest: m, identifier: m.slug, withheldReason: withheldReasonFor(m.slug) }))
  .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
const names = resolveConfig().names;

async function listFromServer(env: Record<string, string>) {
  const catalogue: ServedCatalogueFile = { format: 'nexusbloom-served-catalogue/1', tools: exampleTools };
  const created = createServer({ names, catalogue, env, log: () => {} });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'budget-test', version: '0.0.0' });
  await created.server.connect(serverTransport);
  await client.connect(clientTransport);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
    await created.close();
  }
}

test('the budget is counted over exactly what the server lists, in full and meta-tool only', async () => {
  const surface = advertisedSurface(exampleTools, names);
  assert.deepEqual(await listFromServer({ NEXUSBLOOM_MCP_TOOLS: 'all' }), surface.listed);
  assert.deepEqual(await listFromServer({ NEXUSBLOOM_MCP_TOOLS: 'meta' }), surface.metaOnly);

  const budget = await contextBudget(exampleTools, names);
  assert.equal(budget.encoding, 'o200k_base');
  assert.equal(budget.total, countTokens(JSON.stringify({ tools: surface.listed })));
  assert.equal(budget.metaOnly, countTokens(JSON.stringify({ tools: surface.metaOnly })));
  assert.ok(budget.metaOnly < budget.total / 5, `meta only ${budget.metaOnly} vs ${budget.total}`);

  const advertisable = exampleTools.filter((t) => t.withheldReason === null).map((t) => t.slug);
  assert.ok(advertisable.length < exampleTools.length, 'the example catalogue has withheld slugs, which cost nothing');
  assert.deepEqual(budget.perTool.map((t) => t.slug).sort(), advertisable);
  for (const entry of budget.perTool) {
    const listed = surface.listed.find((t) => t.name === entry.slug);
    assert.equal(entry.tokens, countTokens(JSON.stringify(listed)), entry.slug);
  }
  for (let index = 1; index < budget.perTool.length; index += 1) {
    const [before, after] = [budget.perTool[index - 1], budget.perTool[index]];
    assert.ok(before !== undefined && after !== undefined);
    assert.ok(
      before.tokens > after.tokens || (before.tokens === after.tokens && before.slug < after.slug),
      `${before.slug} before ${after.slug}`,
    );
  }
});

test('over the limit the message names the total and the largest tools; at the limit there is none', async () => {
  const budget = await contextBudget(exampleTools, names);
  assert.equal(overBudgetMessage(budget, budget.total, 'NEXUSBLOOM_'), null);
  const message = overBudgetMessage(budget, budget.total - 1, 'NEXUSBLOOM_') ?? '';
  assert.match(message, new RegExp(`costs ${budget.total} tokens \\(o200k_base\\), over --max-tokens ${budget.total - 1}`));
  for (const largest of budget.perTool.slice(0, 5)) assert.ok(message.includes(`${largest.slug} (${largest.tokens})`), largest.slug);
  assert.match(message, /NEXUSBLOOM_MCP_TOOLS=auto/);
  const lines = budgetLines(budget);
  assert.equal(lines.length, 6);
  assert.match(lines[0] ?? '', new RegExp(`tools/list ${budget.total} tokens; meta-tool only ${budget.metaOnly}`));
  assert.match(lines[1] ?? '', new RegExp(`${budget.perTool[0]?.tokens}  ${budget.perTool[0]?.slug}$`));
});

test('buildPackage reports the budget, and --max-tokens below it fails before anything is written', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'nexusbloom-budget-'));
  try {
    const config = resolveConfig();
    const source = join(dir, 'catalogue.json');
    await writeFile(source, JSON.stringify(bundle([tool('alpha'), tool('beta', { description: 'Beta. '.repeat(200) }), tool('bad slug')])));
    const built = await buildPackage({ source, outDir: join(dir, 'ok'), config, compile: false });
    assert.deepEqual(
      built.budget.perTool.map((t) => t.slug),
      ['beta', 'alpha'],
    );
    assert.ok(built.budget.total > built.budget.perTool.reduce((sum, t) => sum + t.tokens, 0), 'the total includes the meta-tool');

    const out = join(dir, 'over');
    await assert.rejects(
      buildPackage({ source, outDir: out, config, compile: false, maxTokens: built.budget.total - 1 }),
      (error: unknown) =>
        error instanceof PipelineError && error.message.includes(`costs ${built.budget.total} tokens`) && error.message.includes('beta ('),
    );
    await assert.rejects(readdir(out), 'nothing was written');
    const fits = await buildPackage({ source, outDir: out, config, compile: false, maxTokens: built.budget.total });
    assert.deepEqual(fits.budget, built.budget);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('emit hands over the tools/list entries before it makes the search index, the same ones it returns', async () => {
  const check = checkCatalogue(JSON.parse(readFileSync(EXAMPLE, 'utf8')));
  const work = createWork();
  const seen: Array<{ served: number; entries: ReadonlyMap<string, string> }> = [];
  const ran = work.map.bind(work);
  const kinds: string[] = [];
  // The kinds of per-tool work in the order emit asks for them, and where the entries were handed over among them.
  work.map = (job, inputs) => (kinds.push(job.kind), ran(job, inputs));
  const emitted = await emitPackage(planPackage(check.tools), resolveConfig(), work, {
    onListed: ({ served, listEntries }) => {
      seen.push({ served: served.length, entries: listEntries });
      kinds.push('(listed)');
    },
  });
  assert.equal(seen.length, 1);
  assert.equal(seen[0]!.served, emitted.served.length);
  assert.deepEqual([...seen[0]!.entries], [...emitted.listEntries]);
  assert.ok(emitted.listEntries.size > 0);
  assert.ok(kinds.indexOf('(listed)') < kinds.indexOf(SEARCH_PARTS_JOB.kind), kinds.join(' '));
});

test('the budget counted on another thread while emit goes on is the one counted in this thread after emit', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'nexusbloom-budget-'));
  const workers = process.env.NEXUSBLOOM_GEN_WORKERS;
  try {
    const config = resolveConfig();
    const source = fileURLToPath(EXAMPLE);
    const aside = await buildPackage({ source, outDir: join(dir, 'aside'), config, compile: false });
    // No worker threads allowed: the tokenizer loads in this thread, once emit is done.
    process.env.NEXUSBLOOM_GEN_WORKERS = '0';
    const here = await buildPackage({ source, outDir: join(dir, 'here'), config, compile: false });
    assert.deepEqual(aside.budget, here.budget);
    assert.deepEqual(aside.listing, here.listing);
    assert.equal(
      readFileSync(join(dir, 'aside', 'data', 'token-costs.json'), 'utf8'),
      readFileSync(join(dir, 'here', 'data', 'token-costs.json'), 'utf8'),
    );
  } finally {
    if (workers === undefined) delete process.env.NEXUSBLOOM_GEN_WORKERS;
    else process.env.NEXUSBLOOM_GEN_WORKERS = workers;
    await rm(dir, { recursive: true, force: true });
  }
});

test('CLI: build prints the total and top tools; --max-tokens exits non-zero naming them', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'nexusbloom-budget-cli-'));
  try {
    const ok = await runCli(['build', '--source', 'examples/catalogue.json', '--out', join(dir, 'pkg'), '--no-compile', '--json']);
    assert.equal(ok.code, 0, ok.stderr);
    const result = JSON.parse(ok.stdout) as {
      budget: { encoding: string; total: number; metaOnly: number; perTool: Array<{ slug: string; tokens: number }> };
    };
    assert.equal(result.budget.encoding, 'o200k_base');
    const human = await runCli(['build', '--source', 'examples/catalogue.json', '--out', join(dir, 'pkg'), '--no-compile']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, new RegExp(`tools/list ${result.budget.total} tokens`));
    for (const top of result.budget.perTool.slice(0, 5)) assert.ok(human.stdout.includes(top.slug), top.slug);
    const over = await runCli([
      'build',
      '--source',
      'examples/catalogue.json',
      '--out',
      join(dir, 'over'),
      '--no-compile',
      '--max-tokens',
      '100',
    ]);
    assert.notEqual(over.code, 0);
    assert.match(over.stderr, new RegExp(`costs ${result.budget.total} tokens \\(o200k_base\\), over --max-tokens 100`));
    assert.ok(over.stderr.includes(result.budget.perTool[0]?.slug ?? '?'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/** Served tools from a bundle's manifests, as the pipeline hands them to the budget. */
const served = (manifests: Manifest[]) =>
  manifests
    .map((m) => ({ slug: m.slug, manifest: m, identifier: m.slug.replace(/\W/g, '_'), withheldReason: withheldReasonFor(m.slug) }))
    .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));

test('the total summed entry by entry is the count of the whole tools/list text, whatever the tools hold', async () => {
  const awkward = [
    ...(hostileBundle().tools as Manifest[]),
    tool('digits', { description: 'Ends in digits 12345' }),
    tool('spaces', { description: 'Ends in spaces   ' }),
    tool('slash', { description: 'path/to/' }),
    tool('unicode', { description: 'Ünïcødé — 日本語 ✓ 🙂' }),
    tool('quote', { description: 'ends with a quote "' }),
    tool('newline', { description: 'line\r\nbreaks\n' }),
    tool('special', { description: 'Stops at <|endoftext|>, <|endofprompt|> and <|im_start|>' }),
    tool('marks', {
      description: 'Combining marks: e\u0301\u0301"}x',
      input_schema: { type: 'object', properties: { "it's": { type: 'string', enum: ["'s", '\'"s', "a'll"] } } },
    }),
  ];
  // Catalogue text is plain text to a host: special-token spellings are counted as characters, and never throw.
  const plain = (text: string): number => countTokens(text, { disallowedSpecial: new Set() });
  for (const tools of [served(awkward), served([tool('only')]), []]) {
    const surface = advertisedSurface(tools, names);
    const budget = await contextBudget(tools, names);
    assert.equal(budget.total, plain(JSON.stringify({ tools: surface.listed })), tools.map((t) => t.slug).join(','));
    assert.equal(budget.metaOnly, plain(JSON.stringify({ tools: surface.metaOnly })));
    for (const entry of budget.perTool)
      assert.equal(entry.tokens, plain(JSON.stringify(surface.listed.find((t) => t.name === entry.slug))), entry.slug);
    // The build hands in the forms it emitted for tools-list.json: the same text, hence the same budget.
    const cache = memoryCache();
    const entries = new Map((await createWork(cache).map(LIST_PARTS_JOB, tools)).map((parts, index) => [tools[index]!.slug, parts.tool]));
    assert.deepEqual(await contextBudget(tools, names, { cache, entryJsonOf: (t) => entries.get(t.slug) }), budget);
  }
});

test('long unbroken runs are counted in pieces: ordinary text exactly, a run to within a token a piece', async () => {
  const plain = (text: string): number => countTokens(text, { disallowedSpecial: new Set() });
  const pieces: string[] = [];
  const bounded = boundedCounter((text) => {
    pieces.push(text);
    return plain(text);
  });
  const prose = `${'A sentence of ordinary prose, with punctuation; and numbers 12345. '.repeat(200)}日本語のテキスト。`;
  assert.equal(bounded(prose), plain(prose));
  assert.deepEqual(pieces, [prose]);
  for (const run of ['x'.repeat(2000), '日本'.repeat(1000), '-'.repeat(2000), ' '.repeat(2000), '𠀀'.repeat(1000)]) {
    pieces.length = 0;
    const text = `before ${run} after`;
    const counted = bounded(text);
    assert.equal(pieces.join(''), text, 'the pieces are the text, in order');
    assert.ok(
      pieces.every((piece) => !/\ud800(?![\udc00-\udfff])|(?<![\ud800-\udbff])\udc00/.test(piece)),
      'no surrogate pair is cut',
    );
    assert.ok(pieces.length >= Math.floor(run.length / MAX_COUNTED_RUN), `${pieces.length} pieces`);
    const exact = plain(text);
    assert.ok(counted >= exact && counted - exact <= pieces.length, `${counted} against ${exact} in ${pieces.length} pieces`);
  }
});

test('the one-pass check for a long run agrees with the regular expression it stands for, on every class of character', () => {
  const longRun = new RegExp(
    `[\\p{L}\\p{M}]{${MAX_COUNTED_RUN + 1},}|\\s{${MAX_COUNTED_RUN + 1},}|[^\\s\\p{L}\\p{M}\\p{N}]{${MAX_COUNTED_RUN + 1},}`,
    'u',
  );
  // Letters (ASCII, CJK, astral, a combining mark), spaces (ASCII and not), digits of two scripts, punctuation, symbols.
  const alphabet = ['a', 'Z', '日', '𠀀', '\u0301', ' ', '\n', '\u3000', '7', '٣', '-', '"', '€', '😀'];
  let state = 7;
  const next = (): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
  const answers = [0, 0];
  for (let sample = 0; sample < 600; sample += 1) {
    // Runs of one character around the limit, joined by others, so that both answers come up often.
    const parts: string[] = [];
    for (let part = 0; part < 4; part += 1)
      parts.push(alphabet[Math.floor(next() * alphabet.length)]!.repeat(MAX_COUNTED_RUN - 8 + Math.floor(next() * 16)));
    const text = parts.join(next() < 0.5 ? '' : alphabet[Math.floor(next() * alphabet.length)]!);
    const expected = longRun.test(text);
    assert.equal(hasLongRun(text), expected, JSON.stringify(text.slice(0, 40)));
    answers[Number(expected)]! += 1;
  }
  assert.ok(
    answers.every((count) => count > 50),
    `both answers come up: ${answers.join(' / ')}`,
  );
  assert.equal(hasLongRun('short'), false);
});

test('a catalogue with a very long unbroken description builds its budget', { timeout: 120_000 }, async () => {
  // Counted whole, these runs would take hours; in pieces, well under the timeout (which only guards against a hang).
  const tools = served([tool('long-run', { description: `${'日本'.repeat(50_000)} ${'x'.repeat(100_000)}` })]);
  const budget = await contextBudget(tools, names);
  assert.ok(budget.total > 50_000 / 2, String(budget.total));
});

test("the tokenizer's table as the generator's build ships it counts as the library's own, and a broken one is not used", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'nexusbloom-ranks-'));
  try {
    const texts = ['', 'hello world', '<|endoftext|> is text', `${'日本'.repeat(300)} ${'x'.repeat(700)}`, '{"tools":[{"name":"a"}]}'];
    // The library's own table, through the same long-run bound.
    const expected = texts.map(boundedCounter((text) => countTokens(text, { disallowedSpecial: new Set() })));
    const file = await writeShippedRanks(pathToFileURL(`${dir}/`));
    assert.equal(file, shippedRanksFile(pathToFileURL(`${dir}/`)));
    assert.ok(Array.isArray(JSON.parse(readFileSync(file, 'utf8'))));
    assert.deepEqual(texts.map(await loadTokenCounter(file)), expected);
    // None there (the generator run from source), or a broken one: the library's own.
    assert.deepEqual(texts.map(await loadTokenCounter(join(dir, 'absent.json'))), expected);
    await writeFile(file, '[1,2');
    assert.deepEqual(texts.map(await loadTokenCounter(file)), expected);
    await writeFile(file, '[1,2]');
    assert.deepEqual(texts.map(await loadTokenCounter(file)), expected);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("the generator's build ships the tokenizer's table in dist/, and a build writes none of its own", async () => {
  assert.ok(existsSync(shippedRanksFile(new URL('../../dist/tokenizer/', import.meta.url))));
  const dir = await mkdtemp(join(tmpdir(), 'nexusbloom-first-build-'));
  try {
    const source = join(dir, 'catalogue.json');
    await writeFile(source, JSON.stringify(bundle(['alpha', 'beta-tool'].map((slug) => tool(slug)))));
    const out = join(dir, 'package');
    await buildPackage({ source, outDir: out, config: resolveConfig(), compile: false });
    assert.deepEqual(
      (await readdir(cacheDir(out))).filter((name) => name.includes('ranks')),
      [],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a text splits at its last chunk start into two parts that count as much as the whole, whatever follows', async () => {
  const count = await loadTokenCounter();
  const texts = [
    '"name":"alpha","inputSchema":{"type":"object"}}',
    'ends in digits 12345"}',
    'it\'s "quoted"\'s:"x"}',
    'a\u0301"}b',
    '  spaced ;; x',
    'path//to/"x"]}',
    '<|endoftext|>"}z',
    '日本語":"ok"}',
    'no split here',
    // One punctuation character does not end a chunk: `.D` and `"D` are not split points.
    'a:"b" x.Description',
    '{"x":1} y"Description',
  ];
  let split = 0;
  for (const text of texts) {
    const at = lastChunkStart(text);
    if (at <= 0) continue;
    split += 1;
    assert.match(text.slice(at - 2, at + 1), /^[^A-Za-z0-9\s]{2}[A-Za-z]$/, text);
    for (const next of ['', ',{"', ']}', 'x', ' ']) {
      assert.equal(count(text.slice(0, at)) + count(`${text.slice(at)}${next}`), count(`${text}${next}`), JSON.stringify([text, next]));
    }
  }
  assert.ok(split >= 6, `${split} of the texts split`);
  assert.equal(lastChunkStart('no split here'), -1);
  assert.equal(lastChunkStart('{"a'), 2);
  assert.equal(lastChunkStart('a:"b" x.Description'), 3);
});

test('counts come from the cache by content: no tokenizer when nothing changed, one tool counted when one did', async () => {
  const cache = memoryCache();
  const tools = served([tool('alpha'), tool('beta'), tool('gamma')]);
  const counted: string[] = [];
  const counting = async (): Promise<BatchCounter> => {
    const count = await loadTokenCounter();
    return async (texts) => {
      counted.push(...texts);
      return texts.map(count);
    };
  };
  const first = await contextBudget(tools, names, { cache, counter: counting });
  assert.ok(counted.length > 0);

  const never = async (): Promise<BatchCounter> => assert.fail('the tokenizer is not loaded when every count is cached');
  assert.deepEqual(await contextBudget(tools, names, { cache, counter: never }), first);

  counted.length = 0;
  const changed = tools.map((t) =>
    t.slug === 'beta' ? { ...t, manifest: { ...t.manifest, description: 'Beta, now longer and different.' } } : t,
  );
  const second = await contextBudget(changed, names, { cache, counter: counting });
  assert.ok(
    counted.length > 0 && counted.every((text) => !text.includes('alpha') && !text.includes('gamma')),
    'only beta (and the head) were counted',
  );
  assert.equal(second.total, countTokens(JSON.stringify({ tools: advertisedSurface(changed, names).listed })));
  assert.notEqual(second.total, first.total);
});

test('the tokenizer loads on another core from the start for a rebuild or a small catalogue, after emit for a large first build', () => {
  assert.equal(loadsTokenizerAhead(0, 300, {}, 2), true);
  assert.equal(loadsTokenizerAhead(2900, 3000, {}, 2), true);
  // A large catalogue's first build keeps the tokenizer's tables away from emit's peak.
  assert.equal(loadsTokenizerAhead(0, BOUNDED_HEAP_FROM_TOOLS, {}, 2), false);
  // No other core, or no worker threads allowed: never.
  assert.equal(loadsTokenizerAhead(0, 300, {}, 1), false);
  assert.equal(loadsTokenizerAhead(0, 300, { NEXUSBLOOM_GEN_WORKERS: '0' }, 2), false);
});

test("a build counts the meta-tool's entry without loading its command handlers (search, history, slug resolution)", () => {
  const names = staticImports(new URL('../../src/commands/build.ts', import.meta.url));
  assert.ok(names.includes('runtime/surface/meta-tool-definition.ts'), names.join(' '));
  for (const apart of [
    'runtime/surface/meta-tool.ts',
    'runtime/history/runs.ts',
    'runtime/catalogue/resolve.ts',
    'runtime/search/tool-search.ts',
  ])
    assert.ok(!names.includes(apart), `${apart} is loaded by every build: ${names.join(' ')}`);
});
