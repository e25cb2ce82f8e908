// The API the generated package's developer scripts talk to: the API URL variable read as the server reads it, what
// the scripts say to do when that API or the server is not there, and `mock-api` finding a mock already on its port.

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { ServerNames } from '../../../src/runtime/shared/contracts.js';
import { runAgentDemo } from '../../../src/runtime/dev/agent-demo.js';
import { runCatalogueCheck } from '../../../src/runtime/dev/catalogue-check.js';
import { startMockHint } from '../../../src/runtime/dev/client-session.js';
import { DEFAULT_MOCK_API_PORT, runMockApiCli } from '../../../src/runtime/dev/mock-api-cli.js';
import { manifestsFromBundle, startMockApi, type MockFaults } from '../../../src/runtime/dev/mock-api.js';
import { runShell } from '../../../src/runtime/dev/shell.js';
import { builtExample, EXAMPLE_CATALOGUE, serverEnv } from '../../helpers/mcp.js';

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
        [
          'shell',
          (io: ReturnType<typeof capture>['io']) => runShell([], { ...io, input: Readable.from([]) }, { packageRoot: packageDir, env }),
        ],
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
      const forwarded = http.request(
        { host: upstream.hostname, port: upstream.port, path: request.url, method: request.method, headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      request.pipe(forwarded);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (proxy.address() as AddressInfo).port;
      const { io, out, err } = capture();
      const code = await runAgentDemo([], io, {
        packageRoot: packageDir,
        env: serverEnv({ NEXUSBLOOM_API_URL: `http://me:s3cret@127.0.0.1:${port}/api` }),
      });
      assert.equal(code, 0, [...out, ...err].join('\n'));
      assert.equal(out[0], `API: http://127.0.0.1:${port}/api`, 'the credentials are not shown');
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
      await api.close();
    }
  });
});

describe('what the developer scripts say when their API is not there', () => {
  let packageDir: string;
  let names: ServerNames;

  before(async () => {
    packageDir = await builtExample();
    names = ((await import(pathToFileURL(join(packageDir, 'dist', 'names.js')).href)) as { names: ServerNames }).names;
  });

  // Only a mock the script will look at helps: for any other API, `npm run mock-api` alone changes nothing.
  const cases: Array<{ api: string; want: string }> = [
    { api: 'http://127.0.0.1:4010/api', want: 'start it with `npm run mock-api`' },
    { api: 'http://localhost:4321/api', want: 'start it with `npm run mock-api -- 4321`' },
    { api: 'http://[::1]:4321/api', want: 'start it with `npm run mock-api -- 4321`' },
    {
      api: 'https://nexusbloom.dev/api',
      want: 'to use the mock API instead, start it with `npm run mock-api` and set NEXUSBLOOM_API_URL=http://127.0.0.1:4010/api',
    },
    {
      api: 'http://127.0.0.1:4010/v2',
      want: 'to use the mock API instead, start it with `npm run mock-api` and set NEXUSBLOOM_API_URL=http://127.0.0.1:4010/api',
    },
  ];
  for (const { api, want } of cases) {
    it(`for ${api}: ${want}`, () => {
      assert.equal(startMockHint(api, names), want);
    });
  }

  it('the package README names every npm run entry and how to point the scripts at the mock', () => {
    const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
    const scripts = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    // `prepack` and `start` are npm's own hooks; every other entry is a developer script, so the README names it.
    for (const name of Object.keys(scripts).filter((name) => name !== 'prepack' && name !== 'start')) {
      assert.ok(readme.includes(`\`${name}\``) || readme.includes(`\`npm run ${name}`), `README names ${name}`);
    }
    assert.match(readme, /`npm run catalogue-check`[^\n]*`-- --mock`/);
    assert.ok(
      readme.includes(`NEXUSBLOOM_API_URL=http://127.0.0.1:${DEFAULT_MOCK_API_PORT}/api`),
      'README says how to point the scripts at the mock',
    );
  });

  it('agent-demo and catalogue-check say how to reach a mock when a remote API is down', async () => {
    const env = serverEnv({ NEXUSBLOOM_API_URL: 'http://nexusbloom.invalid/api' });
    const demo = { out: [] as string[], err: [] as string[] };
    const demoCode = await runAgentDemo(
      [],
      { stdout: (line) => void demo.out.push(line), stderr: (line) => void demo.err.push(line) },
      { packageRoot: packageDir, env },
    );
    assert.equal(demoCode, 1);
    assert.equal(demo.err.length, 1);
    assert.match(
      demo.err[0]!,
      /not reachable .*\. To use the mock API instead, start it with `npm run mock-api` and set NEXUSBLOOM_API_URL=http:\/\/127\.0\.0\.1:4010\/api, or run `npm run agent-demo:mock`/,
    );
    const check = { out: [] as string[], err: [] as string[] };
    const checkCode = await runCatalogueCheck(
      [],
      { stdout: (line) => void check.out.push(line), stderr: (line) => void check.err.push(line) },
      { packageRoot: packageDir, env },
    );
    assert.equal(checkCode, 1);
    assert.match(
      check.out.join('\n'),
      /not reachable .*; to use the mock API instead, start it with `npm run mock-api` and set NEXUSBLOOM_API_URL=http:\/\/127\.0\.0\.1:4010\/api, or pass --mock/,
    );
  });
});

describe('mock-api on a port where a mock already runs', () => {
  // "Reuses a running one": also one that asks for a key or has a fault injected into its tool list, which answer
  // GET /tools with an error status but are still the mock.
  const setups: Array<{ what: string; options: { apiKey?: string }; fault?: MockFaults; note: RegExp }> = [
    {
      what: 'started with --api-key',
      options: { apiKey: 'k' },
      note: /reusing the mock API already on port \d+ \(it was started with --api-key: requests need that key\)$/,
    },
    {
      what: 'with a fault on its tool list',
      options: {},
      fault: { list: { kind: 'status', status: 500 } },
      note: /reusing the mock API already on port \d+$/,
    },
  ];
  for (const { what, options, fault, note } of setups) {
    it(`reuses one ${what}`, async () => {
      const running = await startMockApi({ manifests: [], ...options });
      try {
        if (fault !== undefined) running.setFaults(fault);
        const out: string[] = [];
        const err: string[] = [];
        const outcome = await runMockApiCli([String(running.port)], {
          stdout: (line) => void out.push(line),
          stderr: (line) => void err.push(line),
        });
        assert.equal(outcome.exitCode, 0, err.join('\n'));
        assert.equal(outcome.api, undefined);
        assert.deepEqual(out, [running.url]);
        assert.match(err.join('\n'), note);
      } finally {
        await running.close();
      }
    });
  }
});

describe('developer scripts when the server does not start, or stops', () => {
  let scratch: string;
  /** Package folders whose dist/bin.js is replaced by `servers`' scripts. */
  const packages = new Map<string, string>();
  const servers = {
    // Stops at start-up, saying why on stderr (as a bad setting or a stale dist/ would).
    'does not start': 'process.stderr.write("boom: the catalogue is unreadable\\n");\nprocess.exit(3);\n',
    // Answers initialize, then dies on the first request, saying why.
    stops: [
      "import { createInterface } from 'node:readline';",
      'for await (const line of createInterface({ input: process.stdin })) {',
      '  const message = JSON.parse(line);',
      "  if (message.method === 'initialize') {",
      "    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'dying', version: '0' } } }) + '\\n');",
      '  } else if (message.id !== undefined) {',
      "    process.stderr.write('fatal: out of memory\\n');",
      '    process.exit(5);',
      '  }',
      '}',
      '',
    ].join('\n'),
  };

  before(async () => {
    const built = await builtExample();
    scratch = mkdtempSync(join(tmpdir(), 'nexusbloom-broken-server-'));
    for (const [what, script] of Object.entries(servers)) {
      const packageDir = join(scratch, what.replace(/ /g, '-'));
      for (const part of ['package.json', 'data', 'dist']) cpSync(join(built, part), join(packageDir, part), { recursive: true });
      writeFileSync(join(packageDir, 'dist', 'bin.js'), script);
      packages.set(what, packageDir);
    }
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  const scripts = [
    [
      'agent-demo',
      (io: ReturnType<typeof capture>['io'], root: string) => runAgentDemo(['--mock'], io, { packageRoot: root, env: serverEnv() }),
    ],
    [
      'catalogue-check',
      (io: ReturnType<typeof capture>['io'], root: string) => runCatalogueCheck(['--mock'], io, { packageRoot: root, env: serverEnv() }),
    ],
    [
      'shell',
      (io: ReturnType<typeof capture>['io'], root: string) =>
        runShell(['--mock'], { ...io, input: Readable.from(['list\nlist\nlist\n']) }, { packageRoot: root, env: serverEnv() }),
    ],
  ] as const;
  for (const [script, run] of scripts) {
    it(`${script} says once that the server did not start, and what the server wrote`, async () => {
      const { io, out, err } = capture();
      assert.equal(await run(io, packages.get('does not start')!), 1);
      const said = err.join('\n');
      assert.match(
        said,
        new RegExp(`^${script}: the server \\(node .*dist/bin\\.js\\) did not start: .*\\. It wrote:\\nboom: the catalogue is unreadable$`),
      );
      assert.equal(out.filter((line) => line.includes('boom')).length, 0);
    });

    it(`${script} says once that the server stopped, and the end of what it wrote`, async () => {
      const { io, out, err } = capture();
      assert.equal(await run(io, packages.get('stops')!), 1);
      const stopped = /the server \(node .*dist\/bin\.js\) stopped\. The end of what it wrote:\nfatal: out of memory$/;
      // catalogue-check reports it as a failure line; the others on stderr, where the shell also greets.
      const lines =
        script === 'catalogue-check'
          ? out.filter((line) => line.startsWith('FAIL  '))
          : err.filter((line) => !line.startsWith('shell: connected'));
      assert.equal(lines.length, 1, [...out, ...err].join('\n'));
      assert.match(lines[0]!, stopped);
      assert.ok(!out.some((line) => line.includes('Not connected')), out.join('\n'));
    });
  }
});
