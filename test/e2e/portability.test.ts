// The generator's CLI on odd output paths: what a build says when --out cannot be used, through the real binary.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { EXAMPLE_CATALOGUE } from '../helpers/mcp.js';

describe('build --out on odd paths', () => {
  let scratch: string;

  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'nexusbloom-out-paths-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('names a symlink whose folder does not exist, instead of failing in mkdir', async () => {
    const link = join(scratch, 'dangling');
    symlinkSync(join(scratch, 'not-yet', 'package'), link, 'dir');
    const result = await runCli(['build', '--source', EXAMPLE_CATALOGUE, '--out', link, '--no-compile', '--json']);
    assert.equal(result.code, 1, result.stderr);
    const { error } = JSON.parse(result.stdout) as { error: { message: string; exit: number } };
    assert.equal(error.exit, 1);
    assert.equal(error.message, `--out ${link} is a symlink to ${join(scratch, 'not-yet', 'package')}, which does not exist: create that folder first, or pass another --out`);
  });
});
