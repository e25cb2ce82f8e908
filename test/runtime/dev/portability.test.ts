// The generated package's developer scripts started the ways people and tools start them: through a symlinked
// folder (a package linked into node_modules, macOS's /tmp), without the `.js` extension, from another folder; and
// the API URL variable read as the server reads it; the bin bundle written through a symlinked folder.

import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { runAgentDemo } from '../../../src/runtime/dev/agent-demo.js';
import { bundleBin } from '../../../src/runtime/dev/bundle-bin.js';
import { runCatalogueCheck } from '../../../src/runtime/dev/catalogue-check.js';
import { manifestsFromBundle, startMockApi } from '../../../src/runtime/dev/mock-api.js';
import { runShell } from '../../../src/runtime/dev/shell.js';
import { REPO_ROOT, runProcess } from '../../helpers/cli.js';
import { builtExample, EXAMPLE_CATALOGUE, serverEnv } from '../../helpers/mcp.js';

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

function capture(): { io: { stdout: (line: string) => void; stderr: (line: string) => void }; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (line) => void out.push(line), stderr: (line) => void err.push(line) }, out, err };
}

describe('developer scripts and the API URL variable', () => {
  let packageDir: string;

  before(async () => {
    packageDir = await builtExample();
  });

  // The server never replaces an unusable URL with the default (it would send the runs and the key to another
  // host); the scripts used to, so a typo walked the whole catalogue against the production API.
  for (const value of ['127.0.0.1:4010', 'htp://127.0.0.1:4010/api', '', '  ']) {
    it(`stops at ${JSON.stringify(value)}, naming the variable, instead of using the default API`, async () => {
      const env = serverEnv({ NEXUSBLOOM_API_URL: value });
      const runs = [
        ['agent-demo', (io: ReturnType<typeof capture>['io']) => runAgentDemo([], io, { packageRoot: packageDir, env })],
        ['catalogue-check', (io: ReturnType<typeof capture>['io']) => runCatalogueCheck([], io, { packageRoot: packageDir, env })],
        ['shell', (io: ReturnType<typeof capture>['io']) => runShell([], { ...io, input: Readable.from([]) }, { packageRoot: packageDir, env })],
      ] as const;
      for (const [script, run] of runs) {
        const { io, out, err } = capture();
        assert.equal(await run(io), 1, script);
        assert.deepEqual(out, [], script);
        assert.equal(err.length, 1, `${script}: ${err.join('\n')}`);
        assert.match(err[0]!, new RegExp(`^${script}: NEXUSBLOOM_API_URL is set but is not an http:// or https:// URL`));
      }
    });
  }

  it('give the server the URL as set, so credentials in it reach the API', async () => {
    const api = await startMockApi({ manifests: manifestsFromBundle(JSON.parse(readFileSync(EXAMPLE_CATALOGUE, 'utf8'))) });
    const upstream = new URL(api.url);
    const expected = `Basic ${Buffer.from('me:s3cret').toString('base64')}`;
    // An API behind basic auth: everything but the right credentials gets the API's 401.
    const proxy = http.createServer((request, response) => {
      if (request.headers.authorization !== expected) {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ success: false, error: 'basic auth required', code: 'AUTH_ERROR', retryable: false }));
        return;
      }
      const forwarded = http.request({ host: upstream.hostname, port: upstream.port, path: request.url, method: request.method, headers: request.headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      request.pipe(forwarded);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (proxy.address() as AddressInfo).port;
      const { io, out, err } = capture();
      const code = await runAgentDemo([], io, { packageRoot: packageDir, env: serverEnv({ NEXUSBLOOM_API_URL: `http://me:s3cret@127.0.0.1:${port}/api` }) });
      assert.equal(code, 0, [...out, ...err].join('\n'));
      assert.equal(out[0], `API: http://127.0.0.1:${port}/api`, 'the credentials are not shown');
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
      await api.close();
    }
  });
});

describe('the bin bundle written through a symlinked folder', () => {
  it('is the same file as one written to a real folder, naming no folder outside the package', async () => {
    const packageDir = await builtExample();
    const scratch = mkdtempSync(join(tmpdir(), 'nexusbloom-bundle-link-'));
    try {
      // The link is shallower than the folder it points to, so paths relative to one are not relative to the other.
      const real = join(scratch, 'a', 'b', 'c', 'package');
      mkdirSync(real, { recursive: true });
      for (const part of ['package.json', 'tsconfig.json', 'src', 'data']) cpSync(join(packageDir, part), join(real, part), { recursive: true });
      symlinkSync(real, join(scratch, 'linked'), 'dir');
      await bundleBin(join(scratch, 'linked'), [join(REPO_ROOT, 'node_modules')]);
      const text = readFileSync(join(real, 'dist', 'bin.js'), 'utf8');
      assert.doesNotMatch(text, /"(?:\.\.\/)+[^"]*node_modules\//, 'module names are relative to the package');
      assert.equal(text, readFileSync(join(packageDir, 'dist', 'bin.js'), 'utf8'));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
