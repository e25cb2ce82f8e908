import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LAYOUT } from '../../src/pipeline/plan/layout.js';
import { lazyJoinedText } from '../../src/pipeline/emit/package-text.js';
import { findDrift, writePackage } from '../../src/pipeline/write/write-package.js';

/** Every path under `dir`, folders included, sorted. */
async function tree(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

describe('write stage', () => {
  it('writes all or nothing: a file that cannot be written leaves the folder exactly as it was', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nb-write-all-'));
    try {
      // A folder where a file must go makes the write fail at that file, after others were staged.
      await mkdir(join(dir, 'data', 'a.json', 'inside'), { recursive: true });
      await writeFile(join(dir, 'README.md'), 'old\n');
      const before = await tree(dir);
      const lock = '{"format":"nexusbloom-names/1","tools":{}}\n';
      const files = new Map([
        ['data/a.json', '{}\n'],
        [LAYOUT.namesLock, lock],
        ['src/index.ts', 'export {};\n'],
        ['README.md', 'new\n'],
      ]);
      await assert.rejects(writePackage(dir, files, { force: true }), /cannot write data\/a\.json .*nothing was written/);
      assert.deepEqual(await tree(dir), before);
      assert.equal(await readFile(join(dir, 'README.md'), 'utf8'), 'old\n');

      await rm(join(dir, 'data', 'a.json'), { recursive: true });
      await writeFile(join(dir, 'data', 'stale.json'), '{}\n');
      await writePackage(dir, files, { force: true });
      const summary = await writePackage(dir, new Map([...files, ['data/b.json', '[]\n']]));
      assert.deepEqual(summary.written, ['data/b.json']);
      assert.equal(await readFile(join(dir, 'src', 'index.ts'), 'utf8'), 'export {};\n');
      assert.equal(existsSync(join(dir, 'data', 'stale.json')), false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a name the file system refuses (ENAMETOOLONG) writes nothing, new folders included', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nb-write-long-'));
    try {
      const files = new Map([
        [LAYOUT.namesLock, '{}\n'],
        ['src/tools/ok.ts', '\n'],
        [`src/tools/${'x'.repeat(300)}.ts`, '\n'],
      ]);
      await assert.rejects(writePackage(dir, files), /ENAMETOOLONG.*nothing was written/);
      assert.deepEqual(await tree(dir), []);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a new folder appears whole: written in one piece, or not at all with the folders made for it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nb-write-new-'));
    try {
      const files = new Map([
        [LAYOUT.namesLock, '{}\n'],
        ['src/tools/ok.ts', '\n'],
        [`src/tools/${'x'.repeat(300)}.ts`, '\n'],
      ]);
      await assert.rejects(writePackage(join(dir, 'a', 'out'), files), /ENAMETOOLONG.*nothing was written/);
      assert.deepEqual(await tree(dir), []);

      files.delete(`src/tools/${'x'.repeat(300)}.ts`);
      const summary = await writePackage(join(dir, 'a', 'out'), files);
      assert.deepEqual(summary, { written: [LAYOUT.namesLock, 'src/tools/ok.ts'].sort(), unchanged: 0, removed: [] });
      assert.deepEqual(
        await tree(dir),
        ['a', 'a/out', ...[LAYOUT.namesLock, 'src', 'src/tools', 'src/tools/ok.ts'].map((p) => `a/out/${p}`)].sort(),
      );
      assert.equal(await readFile(join(dir, 'a', 'out', 'src', 'tools', 'ok.ts'), 'utf8'), '\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes a text put out in parts byte for byte, into a new folder and over a changed file, and compares it for drift', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nb-write-lazy-'));
    try {
      const out = join(dir, 'out');
      const lines = Array.from({ length: 3000 }, (_, index) => `{"slug":"tool-${index}","note":"🙂 ${'x'.repeat(index % 500)}"}`);
      const textOf = (items: string[]) => lazyJoinedText('{"tools":[\n', items, (line) => line, ',\n', '\n]}\n');
      const expected = (items: string[]) => `{"tools":[\n${items.join(',\n')}\n]}\n`;
      const files = new Map([
        [LAYOUT.namesLock, '{"format":"nexusbloom-names/1","tools":{}}\n'],
        ['data/catalogue.json', textOf(lines)],
      ]);
      await writePackage(out, files);
      assert.equal(await readFile(join(out, 'data', 'catalogue.json'), 'utf8'), expected(lines));
      assert.deepEqual(await findDrift(out, files), { changed: [], missing: [], extra: [] });

      const changedLines = lines.map((line, index) => (index === 2999 ? line.replace('tool-', 'changed-') : line));
      const changed = new Map([...files, ['data/catalogue.json', textOf(changedLines)]]);
      assert.deepEqual(await findDrift(out, changed), { changed: ['data/catalogue.json'], missing: [], extra: [] });
      const summary = await writePackage(out, changed);
      assert.deepEqual(summary, { written: ['data/catalogue.json'], unchanged: 1, removed: [] });
      assert.equal(await readFile(join(out, 'data', 'catalogue.json'), 'utf8'), expected(changedLines));
      assert.deepEqual((await writePackage(out, changed)).written, []);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
