// The package's data files review well: a new field on one tool, or one new tool, changes only that tool's lines of
// each data/*.json (plus a named header line), as a line diff of two real builds shows.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { parseSearchIndex } from '../../src/runtime/search/index.js';
import {
  packagedSearchIndex,
  packagedTablesBy,
  searchIndexFileText,
  searchIndexParts,
  vocabularyOf,
} from '../../src/pipeline/emit/search-index-file.js';
import { memoryCache } from '../../src/pipeline/cache/build-cache.js';
import { createWork } from '../../src/pipeline/parallel/work.js';
import { loadEvalSet } from '../bench/search-quality.js';
import { runCli } from '../helpers/cli.js';
import { EXAMPLE_CATALOGUE } from '../helpers/mcp.js';

type Bundle = { format: string; tools: Array<Record<string, any>> };

const TOUCHED = 'base64-codec';
const ADDED = 'hash-calculator-lite';

/** Line numbers (1-based) that a line diff from `before` to `after` removes and adds. */
async function changedLines(beforeText: string, afterText: string, dir: string): Promise<{ removed: number[]; added: number[] }> {
  writeFileSync(join(dir, 'before'), beforeText);
  writeFileSync(join(dir, 'after'), afterText);
  // git diff --no-index exits 1 when the files differ.
  const diff = await promisify(execFile)('git', ['diff', '--no-index', '--no-color', '-U0', 'before', 'after'], { cwd: dir }).catch(
    (error: { code?: number; stdout?: string }) => (error.code === 1 ? { stdout: error.stdout ?? '' } : Promise.reject(error)),
  );
  const removed: number[] = [];
  const added: number[] = [];
  for (const match of diff.stdout.matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)) {
    const [oldStart, oldCount, newStart, newCount] = [match[1], match[2] ?? '1', match[3], match[4] ?? '1'].map(Number) as [
      number,
      number,
      number,
      number,
    ];
    for (let i = 0; i < oldCount; i += 1) removed.push(oldStart + i);
    for (let i = 0; i < newCount; i += 1) added.push(newStart + i);
  }
  return { removed, added };
}

/** The lines of `text` that belong to the tool `slug`: its own line, or its block in the pretty-printed catalogue. */
function linesOfTool(path: string, text: string, slug: string): Set<number> {
  const lines = text.split('\n');
  const own = new Set<number>();
  if (path === 'catalogue.json') {
    // A tool's block opens with `    {`, then `      "slug": …`, and closes at the next line that is `    }` or `    },`.
    const start = lines.findIndex((line, i) => line === '    {' && lines[i + 1] === `      "slug": ${JSON.stringify(slug)},`);
    if (start < 0) return own;
    let end = start + 1;
    while (lines[end] !== '    }' && lines[end] !== '    },') end += 1;
    for (let i = start; i <= end; i += 1) own.add(i + 1);
    return own;
  }
  const quoted = JSON.stringify(slug);
  lines.forEach((line, i) => {
    if (line.includes(`"slug":${quoted}`) || line.includes(`"name":${quoted}`) || line.startsWith(`${quoted}:`)) own.add(i + 1);
  });
  if (path === 'search-index.json' && own.size === 1) {
    // The synonym table's entries for the tool's own terms (a query term one a line, after the tools).
    const toolLine = lines[[...own][0]! - 1]!.replace(/,$/, '');
    const terms = new Set((JSON.parse(toolLine) as { terms: string[] }).terms);
    const tablesAt = lines.indexOf('],"synonyms":{');
    lines.forEach((line, i) => {
      const entry = i > tablesAt ? /^("(?:[^"\\]|\\.)*"):(\[.*\]),?$/.exec(line) : null;
      if (entry && [JSON.parse(entry[1]!) as string, ...(JSON.parse(entry[2]!) as string[])].some((term) => terms.has(term)))
        own.add(i + 1);
    });
  }
  return own;
}

/** Short lines a change to any tool may also touch: totals and the index key live on the first line. */
const HEADER_LINES: Record<string, number[]> = { 'search-index.json': [1], 'token-costs.json': [1] };

async function build(bundle: Bundle, root: string, name: string): Promise<Map<string, string>> {
  const source = join(root, `${name}.json`);
  writeFileSync(source, JSON.stringify(bundle));
  const out = join(root, name);
  const built = await runCli(['build', '--source', source, '--out', out, '--no-compile']);
  assert.equal(built.code, 0, built.stderr);
  const data = join(out, 'data');
  return new Map(readdirSync(data).map((file) => [file, readFileSync(join(data, file), 'utf8')]));
}

describe('data files', () => {
  let root: string;
  let base: Map<string, string>;
  const example = (): Bundle => JSON.parse(readFileSync(EXAMPLE_CATALOGUE, 'utf8')) as Bundle;

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'data-files-'));
    base = await build(example(), root, 'base');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  /** Asserts every data file changed only on `slug`'s lines and its header lines; gives the changed-line counts. */
  async function assertOnlyToolLines(changed: Map<string, string>, slug: string): Promise<Record<string, number>> {
    assert.deepEqual([...changed.keys()].sort(), [...base.keys()].sort());
    const counts: Record<string, number> = {};
    for (const [file, beforeText] of base) {
      const afterText = changed.get(file) as string;
      const { removed, added } = await changedLines(beforeText, afterText, root);
      counts[file] = removed.length + added.length;
      // A header line counts as one only while it stays short: a whole file on its first line is no header.
      const header = (HEADER_LINES[file] ?? []).filter((line) => (beforeText.split('\n')[line - 1] ?? '').length <= 300);
      const oldOwn = linesOfTool(file, beforeText, slug);
      const newOwn = linesOfTool(file, afterText, slug);
      const stray = [
        ...removed
          .filter((line) => !oldOwn.has(line) && !header.includes(line))
          .map((line) => `-${line}: ${beforeText.split('\n')[line - 1]?.slice(0, 120)}`),
        ...added
          .filter((line) => !newOwn.has(line) && !header.includes(line))
          .map((line) => `+${line}: ${afterText.split('\n')[line - 1]?.slice(0, 120)}`),
      ];
      assert.deepEqual(stray, [], `${file}: lines outside ${slug}'s changed`);
    }
    return counts;
  }

  it(`a new input field on one tool changes only that tool's lines (and the index key, the token total)`, async () => {
    const bundle = example();
    const tool = bundle.tools.find((candidate) => candidate.slug === TOUCHED) as Record<string, any>;
    tool.input_schema.properties.lineLength = {
      type: 'integer',
      minimum: 0,
      description: 'Wrap the encoded output at this many characters (MIME uses 76).',
    };
    const counts = await assertOnlyToolLines(await build(bundle, root, 'field'), TOUCHED);
    // The field reaches the listed schema, the served manifest, the search terms and the token count.
    for (const file of ['tools-list.json', 'catalogue.json', 'search-index.json', 'token-costs.json'])
      assert.ok((counts[file] ?? 0) > 0, `${file} changed`);
    assert.equal(counts['catalogue-index.json'], 0);
    assert.equal(counts['tools-list.json'], 2, 'one line out, one in');
    assert.ok((counts['search-index.json'] ?? 0) <= 4, 'the header line and the tool line');
  });

  it(`one new tool adds its own lines and changes no other tool's`, async () => {
    const bundle = example();
    const copy = structuredClone(bundle.tools.find((candidate) => candidate.slug === 'hash-calculator') as Record<string, any>);
    copy.slug = ADDED;
    copy.name = 'Hash Calculator Lite';
    bundle.tools.push(copy);
    const changed = await build(bundle, root, 'tool');
    await assertOnlyToolLines(changed, ADDED);
    for (const [file, text] of changed)
      if (file !== 'policy.json') assert.ok(linesOfTool(file, text, ADDED).size > 0, `${file} has the new tool`);
  });

  it(`the search index file, joined from each tool's own parts, reads back into the index of the whole list (real APIs)`, () => {
    // Kubernetes (1,000+ operations) and Gitea, converted from their public OpenAPI documents: words shared by many
    // tools, first seen in different spellings, and synonym targets that only other tools hold.
    for (const api of ['kubernetes', 'gitea']) {
      const { tools } = loadEvalSet(api);
      const reversed = [...tools].reverse().map(searchIndexParts).reverse();
      const text = searchIndexFileText(tools, reversed);
      assert.equal(JSON.stringify(parseSearchIndex(JSON.parse(text))), JSON.stringify(packagedSearchIndex(tools)), api);
    }
  });

  it(`the synonym table made a word at a time through the build's work is the table made at once, and a rebuild reuses it`, async () => {
    const { tools } = loadEvalSet('gitea');
    const parts = tools.map(searchIndexParts);
    const cache = memoryCache();
    const first = createWork(cache);
    const tables = await packagedTablesBy(first, vocabularyOf(parts));
    assert.equal(searchIndexFileText(tools, parts, tables), searchIndexFileText(tools, parts));
    assert.ok(Object.keys(tables.synonyms ?? {}).length > 100);
    assert.ok(first.stats.misses > 100);
    // Again, with one word more: that word alone is looked up.
    const again = createWork(cache);
    const misses = again.stats.misses;
    await packagedTablesBy(again, [...vocabularyOf(parts), 'zebra']);
    assert.equal(again.stats.misses - misses, 1);
  });

  it('the search index file reads back into exactly the index data the generator built', () => {
    const served = (JSON.parse(base.get('catalogue.json') as string) as { tools: Parameters<typeof searchIndexFileText>[0] }).tools;
    const text = searchIndexFileText(served);
    assert.equal(text, base.get('search-index.json'));
    assert.equal(JSON.stringify(parseSearchIndex(JSON.parse(text))), JSON.stringify(packagedSearchIndex(served)));
    // A header line, one line a tool in the served order, then the synonym table one query term a line.
    const lines = text.split('\n');
    const tablesAt = lines.indexOf('],"synonyms":{');
    assert.deepEqual(
      lines.slice(1, tablesAt).map((line) => (JSON.parse(line.replace(/,$/, '')) as { slug: string }).slug),
      served.map((tool) => tool.slug),
    );
    assert.ok(lines.length - tablesAt > 10, 'synonym lines');
    // The definition-word table comes last, empty unless the search bench asks for it.
    assert.equal(lines.at(-2), '},"related":{}}');
    // A damaged tool line is refused, not served.
    const broken = JSON.parse(text) as { tools: Array<{ spans: number[] }> };
    (broken.tools[0] as { spans: number[] }).spans[0] = 1000;
    assert.equal(parseSearchIndex(broken), null);
    // So is a (field, count) pair that is not one whole number.
    for (const damage of [(pair: number) => String(pair), (pair: number) => pair + 0.5, () => -1]) {
      const damaged = JSON.parse(text) as { tools: Array<{ pairs: unknown[] }> };
      const pairs = (damaged.tools[0] as { pairs: unknown[] }).pairs;
      pairs[0] = damage(pairs[0] as number);
      assert.equal(parseSearchIndex(damaged), null, JSON.stringify(pairs[0]));
    }
  });
});
