// `build --config FILE` as files come from editors and scripts: a byte order mark, CRLF, a path with spaces; and what
// it says about a file it cannot use, naming the file.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { EXAMPLE_CATALOGUE } from '../helpers/mcp.js';
import { BILLING_BUNDLE } from '../fixtures/billing-catalogue.js';

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

  it('a policy in the file is reported as what the server lists, and shipped in data/policy.json', async () => {
    const source = join(scratch, 'billing.json');
    writeFileSync(source, BILLING_BUNDLE);
    const config = join(scratch, 'policy config.json');
    writeFileSync(config, JSON.stringify({ policy: { deny: ['refund-*'], maxRisk: 'high' } }));
    const out = join(scratch, 'policy');
    const result = await runCli(['build', '--source', source, '--out', out, '--no-compile', '--config', config]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /Listed by default: 7 of 9 tools plus the meta-tool \(\d+ tokens\)\. Tool policy: deny refund-\*; risk at most high \(2 of 9 tools outside it, served nowhere\)\./,
    );
    assert.match(result.stdout, /Built 9 tools \(0 withheld from the tool list by name, 2 outside the tool policy\)/);
    assert.deepEqual(JSON.parse(readFileSync(join(out, 'data', 'policy.json'), 'utf8')), {
      format: 'nexusbloom-policy/1',
      deny: ['refund-*'],
      maxRisk: 'high',
    });
    writeFileSync(config, JSON.stringify({ policy: { maxRisk: 'severe' } }));
    const bad = await runCli(['build', '--source', source, '--out', join(scratch, 'bad-policy'), '--no-compile', '--config', config]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /policy\.maxRisk must be one of read, low, medium, high, critical/);
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
      const result = await runCli([
        'build',
        '--source',
        EXAMPLE_CATALOGUE,
        '--out',
        join(scratch, 'unused'),
        '--no-compile',
        '--config',
        path,
        '--json',
      ]);
      assert.equal(result.code, 1, result.stderr);
      const { error } = JSON.parse(result.stdout) as { error: { message: string } };
      assert.ok(error.message.startsWith(message(path)), error.message);
    });
  }
});
