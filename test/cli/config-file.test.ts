// `build --config FILE` as files come from editors and scripts: a byte order mark, CRLF, a path with spaces; and what
// it says about a file it cannot use, naming the file.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { EXAMPLE_CATALOGUE } from '../helpers/mcp.js';

describe('build --config FILE', () => {
  let scratch: string;

  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'nexusbloom-config file-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('reads a file saved with a byte order mark and CRLF line ends (Notepad, PowerShell 5)', async () => {
    const config = join(scratch, 'names config.json');
    writeFileSync(config, '\ufeff{\r\n  "packageName": "@acme/tools-server"\r\n}\r\n');
    const out = join(scratch, 'bom');
    const result = await runCli(['build', '--source', EXAMPLE_CATALOGUE, '--out', out, '--no-compile', '--config', config]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal((JSON.parse(readFileSync(join(out, 'package.json'), 'utf8')) as { name: string }).name, '@acme/tools-server');
  });

  const unusable: Array<{ what: string; file: (dir: string) => string; message: (path: string) => string }> = [
    { what: 'a missing file', file: (dir) => join(dir, 'missing.json'), message: (path) => `cannot read config ${path}: no such file` },
    { what: 'a folder', file: (dir) => dir, message: (path) => `cannot read config ${path}: it is a folder` },
    {
      what: 'text that is not JSON',
      file: (dir) => {
        writeFileSync(join(dir, 'broken.json'), '{"packageName": ');
        return join(dir, 'broken.json');
      },
      message: (path) => `config ${path} is not valid JSON: `,
    },
  ];
  for (const { what, file, message } of unusable) {
    it(`names the file when it is ${what}`, async () => {
      const path = file(scratch);
      const result = await runCli(['build', '--source', EXAMPLE_CATALOGUE, '--out', join(scratch, 'unused'), '--no-compile', '--config', path, '--json']);
      assert.equal(result.code, 1, result.stderr);
      const { error } = JSON.parse(result.stdout) as { error: { message: string } };
      assert.ok(error.message.startsWith(message(path)), error.message);
    });
  }
});
