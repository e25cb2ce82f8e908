// Warnings a build adds to the check stage's: those that depend on the names in the config.

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resolveConfig } from '../../src/pipeline/config.js';
import { buildPackage } from '../../src/pipeline/run-pipeline.js';
import { bundle, tool } from '../fixtures/catalogues.js';

describe('build warnings', () => {
  let dir: string;
  let source: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nexusbloom-warnings-'));
    source = join(dir, 'catalogue.json');
    await writeFile(source, JSON.stringify(bundle([tool('nexusbloom'), tool('other')])));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names a slug spelled like the meta-tool, which cannot be advertised under it', async () => {
    const built = await buildPackage({ source, outDir: join(dir, 'default'), config: resolveConfig(), compile: false });
    assert.deepEqual(
      built.warnings.map((w) => [w.slug, w.pointer]),
      [['nexusbloom', '/slug']],
    );
    assert.match(built.warnings[0]!.message, /meta-tool has this name/);
    assert.match(built.warnings[0]!.hint ?? '', /metaToolName/);
    assert.equal(built.advertised, 1);
  });

  it('says nothing once the meta-tool has another name', async () => {
    const built = await buildPackage({
      source,
      outDir: join(dir, 'renamed'),
      config: resolveConfig({ metaToolName: 'catalogue' }),
      compile: false,
    });
    assert.deepEqual(built.warnings, []);
    assert.equal(built.advertised, 2);
  });

  it('says which schema was typed loosely, on a rebuild from the cache as on the first build', async () => {
    const loose = join(dir, 'loose.json');
    const input_schema = {
      type: 'object',
      properties: { a: { type: 'array', prefixItems: [{ type: 'string' }] }, b: { $ref: '#/properties/a/prefixItems/0' } },
    };
    await writeFile(loose, JSON.stringify(bundle([tool('prefix-items-ref', { input_schema, examples: [] }), tool('plain')])));
    const build = () => buildPackage({ source: loose, outDir: join(dir, 'loose'), config: resolveConfig(), compile: false });
    const first = await build();
    const again = await build();
    assert.equal(again.cache.misses, 0, 'the rebuild reused every module');
    for (const built of [first, again]) {
      assert.deepEqual(
        built.warnings.map((w) => [w.slug, w.pointer]),
        [['prefix-items-ref', '/input_schema']],
      );
      assert.match(built.warnings[0]!.message, /cannot type this schema .*its TypeScript type is an open object/);
    }
  });
});
