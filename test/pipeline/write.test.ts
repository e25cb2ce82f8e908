import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { NAMES_LOCK_FILE } from '../../src/pipeline/plan/plan-package.js';
import { writePackage } from '../../src/pipeline/write/write-package.js';

describe('write stage', () => {
  it('writes the names lock before any other file, so a write cut short leaves a folder a rebuild may use', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nb-write-order-'));
    try {
      // A folder where a file must go makes the write fail at that file (data/ sorts before names.lock.json).
      await mkdir(join(dir, 'data', 'a.json', 'inside'), { recursive: true });
      const lock = '{"format":"nexusbloom-names/1","tools":{}}\n';
      const files = new Map([['data/a.json', '{}\n'], [NAMES_LOCK_FILE, lock], ['src/index.ts', 'export {};\n']]);
      await assert.rejects(writePackage(dir, files, { force: true }));
      assert.equal(await readFile(join(dir, NAMES_LOCK_FILE), 'utf8'), lock);

      // The lock makes the folder a build's: the next write needs no force, and repairs it.
      await rm(join(dir, 'data', 'a.json'), { recursive: true });
      await writeFile(join(dir, 'data', 'stale.json'), '{}\n');
      const summary = await writePackage(dir, files);
      assert.deepEqual(summary.removed, ['data/stale.json']);
      assert.equal(await readFile(join(dir, 'src', 'index.ts'), 'utf8'), 'export {};\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
