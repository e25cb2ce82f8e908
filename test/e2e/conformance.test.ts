// The MCP conformance suite's server scenarios, run against the generated package's bin over HTTP on 127.0.0.1: the
// release pinned for Node 20 (0.1.13) and the current one (0.1.16, which needs Node 22) for revision 2025-11-25. The
// current suite has no 2026-07-28 scenarios yet; test/e2e/protocol-eras.test.ts covers that revision.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { manifestsFromBundle, startMockApi, type MockApi } from '../../src/runtime/dev/mock-api.js';
import { builtExample, EXAMPLE_CATALOGUE, serverEnv } from '../helpers/mcp.js';
import { nodeBinary } from '../helpers/node-binary.js';

/** Scenarios that apply to any server; they must run and pass, whatever the baseline says. */
const REQUIRED_PASSING = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'prompts-list',
  'logging-set-level',
  'dns-rebinding-protection',
];

interface Baseline {
  expectedFailures: Record<string, string>;
}
interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

let api: MockApi | undefined;
let bin: ChildProcessWithoutNullStreams | undefined;
let url: string;

before(async () => {
  const packageDir = await builtExample();
  const bundle: unknown = JSON.parse(await readFile(EXAMPLE_CATALOGUE, 'utf8'));
  api = await startMockApi({ manifests: manifestsFromBundle(bundle) });
  const child = spawn(process.execPath, [join(packageDir, 'dist', 'bin.js'), '--http', '0'], {
    cwd: packageDir,
    env: serverEnv({ NEXUSBLOOM_API_URL: api.url }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  bin = child;
  child.stdout.resume();
  let stderr = '';
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" line within 15 s:\n${stderr}`)), 15_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bin exited with ${code}:\n${stderr}`));
    });
  });
});

after(async () => {
  if (bin !== undefined && bin.exitCode === null) {
    const exited = once(bin, 'exit');
    bin.kill('SIGTERM');
    await exited;
  }
  await api?.close();
});

/** A conformance CLI, run from an installed package (never through npx, which could reach the registry). */
function conformanceCli(packageName: string): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve(`${packageName}/package.json`)), 'dist', 'index.js');
}

interface Suite {
  label: string;
  packageName: string;
  node: () => Promise<string>;
  args: string[];
}

const SUITES: Suite[] = [
  { label: '0.1.13 on this Node.js', packageName: '@modelcontextprotocol/conformance', node: async () => process.execPath, args: [] },
  {
    label: '0.1.16 on Node 22, revision 2025-11-25',
    packageName: 'conformance-current',
    node: () => nodeBinary(22),
    args: ['--spec-version', '2025-11-25'],
  },
];

function run(suite: Suite, node: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [conformanceCli(suite.packageName), ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** Scenario name → its checks, from the `server-<scenario>-<timestamp>/checks.json` folders the CLI writes. */
async function readResults(dir: string): Promise<Map<string, Check[]>> {
  const results = new Map<string, Check[]>();
  for (const entry of await readdir(dir)) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry)?.[1];
    if (scenario === undefined) continue;
    results.set(scenario, JSON.parse(await readFile(join(dir, entry, 'checks.json'), 'utf8')) as Check[]);
  }
  return results;
}

for (const suite of SUITES)
  test(`conformance ${suite.label}: every scenario passes except the fixture-only ones in the baseline`, { timeout: 300_000 }, async () => {
    const baseline = JSON.parse(await readFile(new URL('./conformance-baseline.json', import.meta.url), 'utf8')) as Baseline;
    const work = await mkdtemp(join(tmpdir(), 'nb-conformance-'));
    try {
      const { output } = await run(
        suite,
        await suite.node(),
        ['server', '--url', url, ...suite.args, '--output-dir', join(work, 'results')],
        work,
      );
      assert.match(output, /=== SUMMARY ===/, output);
      const results = await readResults(join(work, 'results'));
      for (const scenario of REQUIRED_PASSING) assert.ok(results.has(scenario), `scenario ${scenario} ran\n${output}`);

      const failed = new Map<string, string>();
      for (const [scenario, checks] of results) {
        const failures = checks.filter((check) => check.status === 'FAILURE');
        if (failures.length > 0) failed.set(scenario, failures.map((f) => `${f.id}: ${f.errorMessage ?? 'failed'}`).join('; '));
      }
      const unexpected = [...failed].filter(
        ([scenario]) => !(scenario in baseline.expectedFailures) || REQUIRED_PASSING.includes(scenario),
      );
      assert.deepEqual(unexpected, [], 'scenarios that fail but are not expected to');
      const stale = Object.keys(baseline.expectedFailures).filter((scenario) => !failed.has(scenario));
      assert.deepEqual(stale, [], 'baseline entries that no longer fail (or no longer run): remove them from conformance-baseline.json');
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
