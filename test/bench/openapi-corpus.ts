// Runs real API descriptions through the whole product: convert, build (--no-compile), bundle the bin, type-check
// (for some), start the server, list (every schema valid, every name in the grammar) and call a few operations
// against a loopback API answering from the description. Shared by test/e2e/openapi-corpus.test.ts and
// `npm run corpus`, which runs a larger sample and prints a table and the failures grouped by cause.
//
//   npm run corpus -- [--from DIR] [--count 80] [--max-bytes 400000] [--compile 20] [--calls 3] [--no-peer]
//
// Next to ours, openapi-mcp-generator emits and type-checks the same documents (test/bench/corpus-compare.ts).

import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import type { JsonObject, ServedCatalogueFile } from '../../src/runtime/shared/contracts.js';
import { TOOL_NAME_GRAMMAR } from '../../src/runtime/catalogue/advertise.js';
import { bundleBin } from '../../src/runtime/dev/bundle-bin.js';
import { resolveConfig } from '../../src/pipeline/config.js';
import { buildPackage } from '../../src/pipeline/run-pipeline.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { connectServer } from '../helpers/mcp.js';
import { sampleOf, startSpecMock } from '../helpers/openapi-mock.js';

const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

export type Stage = 'build' | 'compile' | 'list' | 'call';

export interface SpecOutcome {
  spec: string;
  operations: number;
  advertised: number;
  build: 'ok' | 'failed';
  compile: 'ok' | 'failed' | 'skipped';
  list: 'ok' | 'failed' | 'skipped';
  /** Calls made and calls that answered as the mock did. */
  calls: { made: number; passed: number };
  /** Convert + build --no-compile + bundle, the type-check (with its bundle), and every stage. */
  buildMs: number;
  compileMs: number;
  ms: number;
  failures: Array<{ stage: Stage; cause: string; detail: string }>;
}

export interface CorpusOptions {
  /** Whether to type-check this spec's package (expensive: seconds per package). */
  compile: boolean;
  /** Operations to call at most. */
  calls: number;
  workDir: string;
}

/** A failure message reduced to its cause: names, numbers and quoted text replaced, so alike failures group together. */
export function causeOf(stage: Stage, message: string): string {
  const lines = message.split('\n').filter((line) => line.trim() !== '');
  // A catalogue's problems are listed under a count line: the first problem is the cause.
  const first = (/has problems: \d+ error/.test(lines[0] ?? '') ? lines[1] : lines[0]) ?? message;
  // The compile stage names the diagnostic by its text; the one the plan's type naming is to rule out is told apart.
  if (stage === 'compile' && /has already exported a member named/.test(message))
    return 'compile: TS2308 (one type name exported by two tool modules, re-exported by src/types.ts)';
  const ts = /\b(TS\d+)\b/.exec(message);
  if (stage === 'compile' && ts) return `compile: ${ts[1]}`;
  return `${stage}: ${first
    .replace(/"[^"]*"/g, '"…"')
    .replace(/'[^']*'/g, "'…'")
    .replace(/`[^`]*`/g, '`…`')
    .replace(/\d+/g, 'N')
    .replace(/\/[^\s:]+/g, '/…')
    .slice(0, 160)}`;
}

function schemaChecker() {
  // OpenAPI formats ajv-formats does not know (int32, google-duration, …) are ignored, as the server's validator does.
  const ajv = new Ajv2020({ strict: false, validateFormats: true, allErrors: false, logger: false });
  addFormats(ajv);
  return {
    /** Why `schema` is not a valid 2020-12 schema ajv can compile, or null. */
    problem(schema: unknown): string | null {
      try {
        ajv.compile(schema as JsonObject);
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    },
    valid(schema: unknown, value: unknown): boolean {
      try {
        return ajv.validate(schema as JsonObject, value) === true;
      } catch {
        return false;
      }
    },
  };
}

/** Runs one API description through every stage; never throws, every failure is recorded with its cause. */
export async function runSpec(specPath: string, spec: string, options: CorpusOptions): Promise<SpecOutcome> {
  const started = performance.now();
  const outcome: SpecOutcome = {
    spec,
    operations: 0,
    advertised: 0,
    build: 'failed',
    compile: 'skipped',
    list: 'skipped',
    calls: { made: 0, passed: 0 },
    buildMs: 0,
    compileMs: 0,
    ms: 0,
    failures: [],
  };
  const fail = (stage: Stage, error: unknown): void => {
    const detail = error instanceof Error ? error.message : String(error);
    outcome.failures.push({ stage, cause: causeOf(stage, detail), detail: detail.slice(0, 2000) });
  };
  const dir = join(options.workDir, spec.replace(/[^A-Za-z0-9._-]+/g, '_'));
  try {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const result = await buildPackage({ source: specPath, outDir: dir, config: resolveConfig({ toolNames: 'sanitize' }), compile: false });
    outcome.operations = result.tools;
    outcome.advertised = result.advertised;
    await bundleBin(dir, [join(REPO_ROOT, 'node_modules')]);
    outcome.build = 'ok';
    outcome.buildMs = performance.now() - started;
  } catch (error) {
    fail('build', error);
    outcome.ms = performance.now() - started;
    return outcome;
  }
  if (options.compile) {
    const compileStarted = performance.now();
    try {
      const { compilePackage } = await import('../../src/pipeline/compile/compile-package.js');
      await compilePackage(dir);
      await bundleBin(dir, [join(REPO_ROOT, 'node_modules')]);
      outcome.compile = 'ok';
    } catch (error) {
      outcome.compile = 'failed';
      fail('compile', error);
    }
    outcome.compileMs = performance.now() - compileStarted;
  }
  const served = JSON.parse(await readFile(join(dir, 'data', 'catalogue.json'), 'utf8')) as ServedCatalogueFile;
  const manifests = served.tools.map((tool) => tool.manifest);
  const mock = await startSpecMock(manifests);
  const checker = schemaChecker();
  try {
    const session = await connectServer(dir, {
      NEXUSBLOOM_API_URL: mock.url,
      NEXUSBLOOM_MCP_TOOLS: 'all',
      NEXUSBLOOM_MCP_TIMEOUT_MS: '20000',
    });
    try {
      const listed = (await session.client.listTools()).tools;
      const problems: string[] = [];
      for (const tool of listed) {
        if (!TOOL_NAME_GRAMMAR.test(tool.name)) problems.push(`name ${JSON.stringify(tool.name)} is outside the tool-name grammar`);
        const input = checker.problem(tool.inputSchema);
        if (input !== null) problems.push(`${tool.name}: inputSchema does not compile: ${input}`);
        if (tool.outputSchema !== undefined) {
          const output = checker.problem(tool.outputSchema);
          if (output !== null) problems.push(`${tool.name}: outputSchema does not compile: ${output}`);
        }
      }
      if (listed.length !== outcome.advertised + 1)
        problems.push(`tools/list has ${listed.length} tools, the build advertised ${outcome.advertised} (+ the meta-tool)`);
      if (problems.length > 0) {
        outcome.list = 'failed';
        for (const problem of problems.slice(0, 5)) fail('list', new Error(problem));
      } else outcome.list = 'ok';

      // Calls: operations whose sample arguments and sample answer are valid for their schemas (the mock can answer).
      const callable = served.tools
        .filter((tool) => {
          if (tool.withheldReason !== null) return false;
          const args = sampleOf(tool.manifest.input_schema) ?? {};
          const answer = tool.manifest.output_schema ? mock.answerOf(tool.slug) : null;
          return (
            checker.valid(tool.manifest.input_schema ?? {}, args) &&
            (!tool.manifest.output_schema || checker.valid(tool.manifest.output_schema, answer))
          );
        })
        .slice(0, options.calls);
      for (const tool of callable) {
        outcome.calls.made += 1;
        const args = sampleOf(tool.manifest.input_schema) as JsonObject;
        const name = tool.toolName ?? tool.slug;
        const before = mock.requests.length;
        try {
          const result = await session.client.callTool({ name, arguments: args });
          const reached = mock.requests.slice(before).some((request) => request.slug === tool.slug);
          if (result.isError === true)
            throw new Error(`${name}: ${JSON.stringify(result.structuredContent ?? result.content).slice(0, 400)}`);
          if (!reached) throw new Error(`${name}: the call did not reach its operation on the mock`);
          outcome.calls.passed += 1;
        } catch (error) {
          fail('call', error);
        }
      }
    } finally {
      await session.close();
    }
  } catch (error) {
    outcome.list = 'failed';
    fail('list', error);
  } finally {
    await mock.close();
  }
  outcome.ms = performance.now() - started;
  return outcome;
}

/** One row per spec; with `peer` outcomes (test/bench/corpus-compare.ts), the peer's build, compile and times after ours. */
export function corpusTable(
  outcomes: readonly SpecOutcome[],
  peer: ReadonlyArray<{ spec: string; build: string; compile: string; emitMs: number; compileMs: number }> = [],
): string {
  const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  const peerCells = (spec: string): string[] => {
    const p = peer.find((candidate) => candidate.spec === spec);
    return p ? [p.build, p.compile, p.build === 'ok' ? s(p.emitMs) : '', p.compile === 'skipped' ? '' : s(p.compileMs)] : ['', '', '', ''];
  };
  const rows = [
    [
      'spec',
      'ops',
      'listed',
      'build',
      'compile',
      'list',
      'calls',
      'build t',
      'compile t',
      'total t',
      ...(peer.length > 0 ? ['| peer build', 'peer compile', 'build t', 'compile t'] : []),
    ],
    ...outcomes.map((o) => [
      o.spec,
      String(o.operations),
      String(o.advertised),
      o.build,
      o.compile,
      o.list,
      `${o.calls.passed}/${o.calls.made}`,
      o.build === 'ok' ? s(o.buildMs) : '',
      o.compile === 'skipped' ? '' : s(o.compileMs),
      s(o.ms),
      ...(peer.length > 0 ? peerCells(o.spec).map((cell, i) => (i === 0 ? `| ${cell}` : cell)) : []),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Failures grouped by cause, most frequent first, each with the specs it hit. */
export function failuresByCause(
  outcomes: ReadonlyArray<Pick<SpecOutcome, 'spec' | 'failures'>>,
): Array<{ cause: string; specs: string[]; example: string }> {
  const groups = new Map<string, { specs: Set<string>; example: string }>();
  for (const outcome of outcomes)
    for (const failure of outcome.failures) {
      const group = groups.get(failure.cause) ?? { specs: new Set<string>(), example: failure.detail };
      group.specs.add(outcome.spec);
      groups.set(failure.cause, group);
    }
  return [...groups.entries()]
    .map(([cause, g]) => ({ cause, specs: [...g.specs].sort(), example: g.example }))
    .sort((a, b) => b.specs.length - a.specs.length || (a.cause < b.cause ? -1 : 1));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      from: { type: 'string' },
      count: { type: 'string', default: '80' },
      'max-bytes': { type: 'string', default: '400000' },
      compile: { type: 'string', default: '20' },
      calls: { type: 'string', default: '3' },
      'no-peer': { type: 'boolean', default: false },
    },
  });
  const { corpusCandidates, installCorpusPackage, pickSample } = await import('./corpus-sample.js');
  const { compareOnCorpus, comparisonReport } = await import('./corpus-compare.js');
  const installed = values.from === undefined ? installCorpusPackage() : { dir: values.from, cleanup: () => {} };
  try {
    const sample = pickSample(corpusCandidates(installed.dir, Number(values['max-bytes'])), Number(values.count));
    const compiled = (position: number): boolean => position < Number(values.compile);
    const result = await compareOnCorpus(
      sample,
      { compiled, calls: Number(values.calls), workDir: join(REPO_ROOT, '.tmp', 'corpus'), peer: !values['no-peer'] },
      (line) => process.stderr.write(`${line}\n`),
    );
    process.stdout.write(`${await comparisonReport(result)}\n`);
    const ok = result.ours.filter((o) => o.failures.length === 0).length;
    process.stdout.write(`\n${ok} passed, ${result.ours.length - ok} failed\n`);
  } finally {
    installed.cleanup();
  }
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
