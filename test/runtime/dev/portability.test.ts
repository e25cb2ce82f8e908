// The generated package's developer scripts started the ways people and tools start them: through a symlinked
// folder (a package linked into node_modules, macOS's /tmp), without the `.js` extension, from another folder.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runProcess } from '../../helpers/cli.js';
import { builtExample, serverEnv } from '../../helpers/mcp.js';

const SCRIPTS = ['catalogue-check', 'agent-demo', 'shell', 'mock-api-cli'];

describe('developer scripts started by another path', () => {
  let packageDir: string;
  let scratch: string;

  before(async () => {
    packageDir = await builtExample();
    scratch = mkdtempSync(join(tmpdir(), 'nexusbloom-dev-paths-'));
    symlinkSync(packageDir, join(scratch, 'linked-package'), 'dir');
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  // An unknown flag is the cheapest proof a script ran: each answers it with its usage and exit 2, where a script
  // that did not recognise itself as the entry point did nothing and exited 0 (a CI gate that always passes).
  for (const script of SCRIPTS) {
    it(`${script} runs when started through a symlinked folder`, async () => {
      const entry = join(scratch, 'linked-package', 'dist', 'runtime', 'dev', `${script}.js`);
      const result = await runProcess(process.execPath, [entry, '--no-such-flag'], { cwd: scratch, env: serverEnv(), input: '' });
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.match(result.stderr, /usage: /);
    });

    it(`${script} runs when started without its .js extension`, async () => {
      const entry = join(packageDir, 'dist', 'runtime', 'dev', script);
      const result = await runProcess(process.execPath, [entry, '--no-such-flag'], { cwd: scratch, env: serverEnv(), input: '' });
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.match(result.stderr, /usage: /);
    });
  }
});
