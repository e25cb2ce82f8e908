import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { describe, it } from 'node:test';
import { resolveConfig } from '../../src/pipeline/config.js';
import { workerCount } from '../../src/pipeline/parallel/work.js';
import { cacheDir, entriesOfFrames, loadCache, memoryCache, saveCache } from '../../src/pipeline/cache/build-cache.js';
import { writePackage } from '../../src/pipeline/write/write-package.js';
import { buildPackage } from '../../src/pipeline/run-pipeline.js';
import { bundle, tool } from '../fixtures/catalogues.js';
import { searchIndexParts, vocabularyOf } from '../../src/pipeline/emit/search-index-file.js';
import type { ServedCatalogueFile } from '../../src/runtime/shared/contracts.js';

describe('build cache', () => {
  it('reuses per-tool work by content, redoes only the changed tool, and never changes the output', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nb-cache-'));
    try {
      const tools = ['alpha', 'beta', 'gamma'].map((slug) => tool(slug));
      const source = join(dir, 'catalogue.json');
      const build = async (out: string) => buildPackage({ source, outDir: join(dir, out), config: resolveConfig(), compile: false });
      await writeFile(source, JSON.stringify(bundle(tools)));
      // Per tool: its checks, its module, its prepared tools/list line, its search index line and its token counts;
      // then the meta-tool's counts, the list's head and the README; one schema outline, kept by the schemas' content
      // alone, which the three tools share; and one per word the synonym table is made for.
      const vocabulary = async (out: string): Promise<string[]> => {
        const served = (JSON.parse(await readFile(join(dir, out, 'data', 'catalogue.json'), 'utf8')) as ServedCatalogueFile).tools;
        return vocabularyOf(served.map(searchIndexParts));
      };
      const perBuild = 3 * 5 + 3 + 1;
      const first = await build('out');
      const words = await vocabulary('out');
      assert.ok(words.length > 3, words.join());
      assert.deepEqual(first.cache, { hits: 0, misses: perBuild + words.length });
      const second = await build('out');
      assert.deepEqual(second.cache, { hits: perBuild + words.length, misses: 0 });
      assert.deepEqual(second.written, []);

      const changed = tools.map((t) => (t.slug === 'beta' ? { ...t, description: 'Now does more.' } : t));
      await writeFile(source, JSON.stringify(bundle(changed)));
      const third = await build('out');
      // beta's schemas did not change (check reused); only its module, its list line, its search index line, its token
      // counts and the README (which names its first sentence) are made again, and the synonyms of its new words.
      const wordsNow = await vocabulary('out');
      const newWords = wordsNow.filter((word) => !words.includes(word));
      assert.ok(newWords.length > 0, wordsNow.join());
      assert.deepEqual(third.cache, { hits: perBuild - 5 + wordsNow.length - newWords.length, misses: 5 + newWords.length });
      assert.ok(third.written.includes('src/tools/beta.ts'));

      // A cold build of the same catalogue writes the same bytes as the cached one.
      const cold = await build('cold');
      assert.deepEqual(cold.cache, { hits: 0, misses: perBuild + wordsNow.length });
      assert.deepEqual(cold.budget, third.budget);
      for (const path of ['src/tools/beta.ts', 'data/catalogue.json', 'data/tools-list.json', 'data/search-index.json', 'README.md']) {
        assert.equal(await readFile(join(dir, 'out', path), 'utf8'), await readFile(join(dir, 'cold', path), 'utf8'), path);
      }

      // A change that only the prepared tools/list shows (annotations) reaches it through the cache.
      const annotated = changed.map((t) => (t.slug === 'gamma' ? { ...t, annotations: { readOnlyHint: true } } : t));
      await writeFile(source, JSON.stringify(bundle(annotated)));
      const fourth = await build('out');
      assert.ok(fourth.written.includes('data/tools-list.json'));
      const gammaLine = (await readFile(join(dir, 'out', 'data/tools-list.json'), 'utf8'))
        .split('\n')
        .find((line) => line.includes('"name":"gamma"'));
      assert.match(gammaLine ?? '', /"readOnlyHint":true/);
      const coldAgain = await build('cold-annotated');
      assert.equal(
        await readFile(join(dir, 'out', 'data/tools-list.json'), 'utf8'),
        await readFile(join(dir, 'cold-annotated', 'data/tools-list.json'), 'utf8'),
      );
      assert.deepEqual(coldAgain.cache, { hits: 0, misses: perBuild + wordsNow.length });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('cache and package files, written in pieces', () => {
  it('writes the cache as frames of its used entries, beyond one frame and one write piece, and reads them back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nb-cache-file-'));
    try {
      const cache = memoryCache();
      const big = `${'🙂'.repeat(300_000)}x${'日本'.repeat(400_000)}`;
      cache.set('module', 'b', big);
      cache.set('check', 'a', [{ slug: '"quoted"\u2028', pointer: '/x' }]);
      cache.set('budget', 'c', { tokens: 3, share: 2 });
      // More entries than one frame holds.
      for (let i = 0; i < 600; i++) cache.set('line', String(i).padStart(3, '0'), { i, text: `line ${i}` });
      cache.entries.set('module:unused', 'left out');
      await saveCache(dir, cache);
      const file = join(cacheDir(dir), 'entries.v8');
      const read = entriesOfFrames(await readFile(file));
      const expected = [...cache.entries].filter(([id]) => id !== 'module:unused').sort(([a], [b]) => (a < b ? -1 : 1));
      assert.deepEqual([...read!], expected);
      assert.equal(read!.get('module:b'), big);
      const loaded = await loadCache(dir);
      assert.deepEqual([...loaded.entries], expected);

      // A build that computed nothing and used every entry leaves the file as it is; a cut file loads as empty.
      for (const id of loaded.entries.keys()) loaded.get(id.slice(0, id.indexOf(':')), id.slice(id.indexOf(':') + 1));
      const before = (await stat(file)).mtimeMs;
      await new Promise((resolve) => setTimeout(resolve, 20));
      await saveCache(dir, loaded);
      assert.equal((await stat(file)).mtimeMs, before);
      const bytes = await readFile(file);
      await writeFile(file, bytes.subarray(0, bytes.length - 7));
      assert.equal((await loadCache(dir)).entries.size, 0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('copies the frames a rebuild reused whole as their bytes, serializes the rest, and still keeps only what was used', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nb-cache-frames-'));
    try {
      const file = join(cacheDir(dir), 'entries.v8');
      const first = memoryCache();
      for (let i = 0; i < 700; i++) first.set('line', String(i).padStart(3, '0'), { i, text: `line ${i}` });
      await saveCache(dir, first);
      // The first frame rewritten with its entries in reverse: a frame serialized again would be in order of id, so
      // finding it reversed in a later file shows it was copied.
      const saved = await readFile(file);
      const headerEnd = 4 + saved.readUInt32LE(0);
      const frameEnd = headerEnd + 4 + saved.readUInt32LE(headerEnd);
      const reversed = serialize((deserialize(saved.subarray(headerEnd + 4, frameEnd)) as unknown[]).reverse());
      const length = Buffer.alloc(4);
      length.writeUInt32LE(reversed.length);
      const firstFrame = Buffer.concat([length, reversed]);
      await writeFile(file, Buffer.concat([saved.subarray(0, headerEnd), firstFrame, saved.subarray(frameEnd)]));
      const useAll = (cache: Awaited<ReturnType<typeof loadCache>>, except = ''): void => {
        for (const id of cache.entries.keys()) if (id !== except) cache.get('line', id.slice('line:'.length));
      };
      // Frames of 256 entries: line:000–255, line:256–511, then the rest. A rebuild reuses them all and adds one.
      const second = await loadCache(dir);
      useAll(second);
      second.set('module', 'new', 'made now');
      // The frames are copied from the bytes loaded, not read again: the file may be gone meanwhile.
      await rm(file);
      await saveCache(dir, second);
      const after = await readFile(file);
      assert.ok(after.includes(firstFrame), 'the first frame is in the new file byte for byte');
      const reread = entriesOfFrames(after)!;
      assert.equal(reread.size, 701);
      assert.equal(reread.get('module:new'), 'made now');
      assert.deepEqual(reread.get('line:300'), { i: 300, text: 'line 300' });
      // One entry of the first frame unused: that frame is serialized again without it, the others copied.
      const third = await loadCache(dir);
      useAll(third, 'line:100');
      third.get('module', 'new');
      await saveCache(dir, third);
      const last = entriesOfFrames(await readFile(file))!;
      assert.equal(last.size, 700);
      assert.equal(last.has('line:100'), false);
      assert.equal(last.get('line:099') !== undefined && !(await readFile(file)).includes(firstFrame), true);
      assert.deepEqual(last.get('line:101'), { i: 101, text: 'line 101' });
      assert.deepEqual([...last.keys()].sort(), [...third.used].sort());
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes a file larger than one piece byte for byte, surrogate pairs whole', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nb-write-'));
    try {
      // A pair straddles the first piece boundary (2^20 characters) whichever way the text is aligned.
      for (const text of [`${'a'.repeat((1 << 20) - 1)}🙂${'b'.repeat(10)}`, `${'🙂'.repeat(1 << 20)}\n`, '']) {
        await writePackage(dir, new Map([['data/big.json', text]]), { force: true });
        assert.deepEqual(await readFile(join(dir, 'data', 'big.json')), Buffer.from(text, 'utf8'));
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('parallel build', () => {
  it('starts one worker per core but the main thread, and none for a small or capped build', () => {
    assert.equal(workerCount(260, {}, 2), 1);
    assert.equal(workerCount(260, {}, 4), 3);
    assert.equal(workerCount(260, {}, 1), 0, 'one core: the main thread alone');
    assert.equal(workerCount(260, { NEXUSBLOOM_GEN_WORKERS: '0' }, 4), 0);
    assert.equal(workerCount(260, { NEXUSBLOOM_GEN_WORKERS: '2' }, 8), 2);
    assert.equal(workerCount(100, {}, 8), 0, 'too few jobs to be worth a worker');
    assert.equal(workerCount(60 * 25, {}, 64), 8, 'never more than eight');
  });

  it('gives the same package with worker threads as in-process', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nb-parallel-'));
    const before = process.env.NEXUSBLOOM_GEN_WORKERS;
    try {
      const source = join(dir, 'catalogue.json');
      await writeFile(
        source,
        JSON.stringify(bundle(Array.from({ length: 130 }, (_, i) => tool(`tool-${i}`, { description: `Tool number ${i}.` })))),
      );
      process.env.NEXUSBLOOM_GEN_WORKERS = '0';
      assert.equal(workerCount(260), 0);
      const serial = await buildPackage({ source, outDir: join(dir, 'serial'), config: resolveConfig(), compile: false });
      delete process.env.NEXUSBLOOM_GEN_WORKERS;
      assert.ok(workerCount(260) >= 1);
      const parallel = await buildPackage({ source, outDir: join(dir, 'parallel'), config: resolveConfig(), compile: false });
      assert.deepEqual(parallel.cache, serial.cache);
      assert.equal(serial.parallelJobs, 0);
      // The worker gets its first batch as it starts, and the main thread takes the first batch before it.
      assert.ok(parallel.parallelJobs > 0, 'a worker did some of the tool modules');
      assert.ok(parallel.parallelJobs < 260, 'the main thread did its share');
      for (const path of ['src/tools/tool-7.ts', 'src/tools/tool-129.ts', 'data/catalogue.json', 'src/tools/index.ts']) {
        assert.equal(await readFile(join(dir, 'parallel', path), 'utf8'), await readFile(join(dir, 'serial', path), 'utf8'), path);
      }
    } finally {
      if (before === undefined) delete process.env.NEXUSBLOOM_GEN_WORKERS;
      else process.env.NEXUSBLOOM_GEN_WORKERS = before;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
