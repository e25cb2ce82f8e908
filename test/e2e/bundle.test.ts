// The generated package's bin is one bundled file (dev/bundle-bin.ts): it imports nothing but Node's built-ins,
// names no folder of the machine it was built on, and still finds the sandbox child that local runs start.

import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startMockApi } from '../../src/runtime/dev/mock-api.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { builtExample, connectServer } from '../helpers/mcp.js';

describe('the bundled bin', () => {
  it('imports only Node built-ins and holds no path of the build machine', async () => {
    const dir = await builtExample();
    const text = await readFile(join(dir, 'dist', 'bin.js'), 'utf8');
    // Static imports (at statement starts) and dynamic ones. What CommonJS dependencies require is proven by the
    // last test, which runs the bin where nothing but built-ins can be found.
    const patterns = [/(?:^|[;}\n])\s*import\s*[^;"'()]*?from\s*["']([^"']+)["']/g, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g];
    const specifiers = patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1]!));
    assert.ok(specifiers.includes('node:module'), 'the banner imports createRequire');
    assert.deepEqual(
      specifiers.filter((specifier) => !isBuiltin(specifier)),
      [],
    );
    for (const local of [REPO_ROOT.replace(/\/$/, ''), dir, 'building-']) {
      assert.equal(text.includes(local), false, `the bundle mentions ${local}`);
    }
    assert.doesNotMatch(text, /"(?:\.\.\/)+[^"]*node_modules\//, 'module names are relative to the package');
    assert.match(text, /"node_modules\/zod\//, "dependencies are inside, named as in the package's own node_modules");
  });

  // test/e2e/faults.test.ts runs local tools through this child from the bundled bin.
  it('leaves the sandbox child as its own file under dist/runtime/execution/, where local runs look for it', async () => {
    const dir = await builtExample();
    const child = await readFile(join(dir, 'dist', 'runtime', 'execution', 'sandbox-child.js'), 'utf8');
    assert.match(child, /compileFunction/);
  });

  it('serves and validates from a folder with no node_modules anywhere above it: every module it needs is inside', async () => {
    const built = await builtExample();
    const dir = await mkdtemp(join(tmpdir(), 'nb-bundled-'));
    const api = await startMockApi({ manifests: JSON.parse(await readFile(join(REPO_ROOT, 'examples', 'catalogue.json'), 'utf8')).tools });
    try {
      for (const part of ['package.json', 'data', join('dist', 'bin.js')])
        await cp(join(built, part), join(dir, part), { recursive: true });
      const session = await connectServer(dir, { NEXUSBLOOM_API_URL: api.url });
      try {
        // env-validator's schema is draft 2020-12 (no $schema), cron-explainer's draft-07.
        for (const [name, args] of [
          ['env-validator', { env_content: 42 }],
          ['cron-explainer', { expression: 42 }],
        ] as const) {
          const before = api.requests.length;
          const bad = (await session.client.callTool({ name, arguments: args })) as CallToolResult;
          assert.equal(bad.isError, true, name);
          assert.equal((bad.structuredContent as { code: string }).code, 'VALIDATION_ERROR', name);
          assert.equal(api.requests.length, before, `${name}: a call that fails validation costs no API request`);
        }
        assert.doesNotMatch(session.stderr(), /does not compile|Cannot find module/);
      } finally {
        await session.close();
      }
    } finally {
      await api.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
