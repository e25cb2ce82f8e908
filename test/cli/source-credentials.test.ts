// An API URL with credentials (`http://user:password@host/api`) as --source: no output shows the password.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { manifest, sendJson, startHttp } from '../runtime/core-fixtures.js';

test('check and pull mask the credentials of --source in --json output and messages', async () => {
  const api = await startHttp((req, res) => {
    if (req.url === '/api/tools') return sendJson(res, 200, { tools: [{ slug: 'alpha' }], next_cursor: null });
    if (req.url === '/api/tools/alpha') return sendJson(res, 200, manifest({ slug: 'alpha' }));
    sendJson(res, 404, { success: false, error: 'no such tool', code: 'TOOL_NOT_FOUND', retryable: false });
  });
  const dir = await mkdtemp(join(tmpdir(), 'nb-credentials-'));
  const source = api.url.replace('http://', 'http://user:s3cret@');
  const masked = api.url.replace('http://', 'http://***@');
  try {
    const check = await runCli(['check', '--source', source, '--json']);
    assert.equal(check.code, 0, check.stderr);
    assert.equal((JSON.parse(check.stdout) as { source: string }).source, masked);
    const pull = await runCli(['pull', '--source', source, '--out', join(dir, 'bundle.json'), '--json']);
    assert.equal(pull.code, 0, pull.stderr);
    assert.equal((JSON.parse(pull.stdout) as { source: string }).source, masked);
    const human = await runCli(['pull', '--source', source, '--out', join(dir, 'bundle.json')]);
    assert.match(human.stdout, new RegExp(`from ${masked.replace(/[.*]/g, '\\$&')} to`));
    const failed = await runCli(['check', '--source', `${source}/missing`, '--json']);
    assert.equal(failed.code, 1);
    assert.match(failed.stdout, /\*\*\*@127\.0\.0\.1.*failed with 404/);
    for (const result of [check, pull, human, failed]) assert.doesNotMatch(result.stdout + result.stderr, /s3cret/);
    // The credentials still reach the API, as a Basic authorization header.
    assert.equal(api.requests[0]?.headers.authorization, `Basic ${Buffer.from('user:s3cret').toString('base64')}`);
  } finally {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  }
});
