import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { withBareSourceAsBlank } from '../../src/cli/base-command.js';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT, runCli, runProcess } from '../helpers/cli.js';

describe('--source without a value: NEXUSBLOOM_API_URL when set, else the bundled example', () => {
  it('reads a bare --source or -s, last or before a flag, as blank; leaves values and pass-through arguments alone', () => {
    assert.deepEqual(withBareSourceAsBlank(['--source']), ['--source=']);
    assert.deepEqual(withBareSourceAsBlank(['-s', '--json']), ['--source=', '--json']);
    assert.deepEqual(withBareSourceAsBlank(['--source', 'x.json', '--json']), ['--source', 'x.json', '--json']);
    assert.deepEqual(withBareSourceAsBlank(['--', '--source']), ['--', '--source']);
  });

  it('check: bare, blank and absent all mean the default source', async () => {
    for (const args of [['--source'], ['--source='], ['--source', '  '], []]) {
      const run = await runCli(['check', ...args, '--json'], { env: { NEXUSBLOOM_API_URL: '' } });
      assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
      assert.match(JSON.parse(run.stdout).source, /examples\/catalogue\.json$/);
    }
  });

  it('check and pull: a blank --source falls back to NEXUSBLOOM_API_URL', async () => {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ tools: [], next_cursor: null }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const env = { NEXUSBLOOM_API_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api` };
    try {
      const checked = await runCli(['check', '--source=', '--json'], { env });
      assert.equal(JSON.parse(checked.stdout).source, env.NEXUSBLOOM_API_URL);
      const pulled = await runCli(['pull', '--source', '', '--out', '/dev/null', '--json'], { env });
      assert.equal(JSON.parse(pulled.stdout).source, env.NEXUSBLOOM_API_URL, pulled.stderr);
      assert.deepEqual(seen, ['/api/tools', '/api/tools']);
    } finally {
      server.close();
    }
  });
});

describe('stdin is never read as an argument', () => {
  it('verify without a folder checks generated/, whatever a pipe on stdin holds', async () => {
    // oclif reads a missing argument from a non-TTY stdin unless told not to; a CI runner's stdin can hold anything.
    const run = await runProcess(process.execPath, [fileURLToPath(new URL('../../bin/run.js', import.meta.url)), 'verify', '--json'], {
      cwd: REPO_ROOT,
      env: { ...process.env, NEXUSBLOOM_API_URL: 'http://127.0.0.1:9/api' },
      input: '/nonexistent/from-stdin\n',
    });
    assert.doesNotMatch(run.stdout + run.stderr, /from-stdin/);
    assert.match(run.stdout, /"dir": ".*generated"/);
  });
});
