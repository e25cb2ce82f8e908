// Tests of the mock API command: default catalogue, port reuse, a port held by something else, and the real binary.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { defaultCataloguePath, loadManifests, runMockApiCli, type MockApiCliIo } from '../../../src/runtime/dev/mock-api-cli.js';
import { startMockApi } from '../../../src/runtime/dev/mock-api.js';

function capture(): MockApiCliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (line) => out.push(line), stderr: (line) => err.push(line) };
}

describe('mock-api-cli', () => {
  it('defaults to the example catalogue in this repository', () => {
    assert.equal(defaultCataloguePath(), fileURLToPath(new URL('../../../examples/catalogue.json', import.meta.url)));
    assert.equal(loadManifests(defaultCataloguePath()).length, 31);
  });

  it('starts on a free port and prints its URL on stdout and stderr', async () => {
    const io = capture();
    const outcome = await runMockApiCli(['0', '--page-size', '5'], io);
    try {
      assert.equal(outcome.exitCode, 0);
      assert.ok(outcome.api);
      assert.deepEqual(io.out, [outcome.api.url]);
      assert.ok(io.err.some((line) => line.includes(outcome.api!.url)));
      const page = (await (await fetch(`${outcome.api.url}/tools`)).json()) as { tools: unknown[] };
      assert.equal(page.tools.length, 5);
    } finally {
      await outcome.api?.close();
    }
  });

  it('reuses a mock API already on the port and exits 0', async () => {
    const running = await startMockApi({ manifests: [] });
    try {
      const io = capture();
      const outcome = await runMockApiCli([String(running.port)], io);
      assert.equal(outcome.exitCode, 0);
      assert.equal(outcome.api, undefined);
      assert.ok(io.err.includes(`mock-api: reusing the mock API already on port ${running.port}`), io.err.join('\n'));
      assert.deepEqual(io.out, [running.url]);
    } finally {
      await running.close();
    }
  });

  it('explains a port held by something else and exits 1', async () => {
    const other = http.createServer((_req, res) => {
      res.writeHead(404, { server: 'other-dev-server' }).end('nope');
    });
    other.listen(0, '127.0.0.1');
    await once(other, 'listening');
    const port = (other.address() as AddressInfo).port;
    try {
      const io = capture();
      const outcome = await runMockApiCli([String(port)], io);
      assert.equal(outcome.exitCode, 1);
      assert.equal(outcome.api, undefined);
      const text = io.err.join('\n');
      assert.match(text, new RegExp(`port ${port} .*already in use by something that is not the NexusBloom mock API`));
      assert.match(text, /HTTP 404 from "other-dev-server"/);
      assert.match(text, /lsof -iTCP:\d+/);
      assert.match(text, /npm run mock-api -- \d+/);
      assert.deepEqual(io.out, []);
    } finally {
      other.close();
    }
  });

  it('rejects a bad port and a missing bundle', async () => {
    const badPort = capture();
    assert.equal((await runMockApiCli(['http'], badPort)).exitCode, 2);
    assert.match(badPort.err.join('\n'), /invalid port/);
    const missing = capture();
    assert.equal((await runMockApiCli(['0', '--bundle', '/nonexistent/catalogue.json'], missing)).exitCode, 1);
    assert.match(missing.err.join('\n'), /cannot load the catalogue/);
  });

  it('runs as a command and stops on SIGTERM', async () => {
    const cli = fileURLToPath(new URL('../../../src/runtime/dev/mock-api-cli.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', cli, '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let stdout = '';
      child.stdout.setEncoding('utf8');
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no URL within 15 s')), 15_000);
        child.stdout.on('data', (chunk: string) => {
          stdout += chunk;
          const line = stdout.split('\n')[0];
          if (stdout.includes('\n') && line) {
            clearTimeout(timer);
            resolve(line);
          }
        });
        child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
      });
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/api$/);
      const manifest = (await (await fetch(`${url}/tools/${encodeURIComponent('Text Stats')}`)).json()) as { slug: string };
      assert.equal(manifest.slug, 'Text Stats');
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      assert.equal(code, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
