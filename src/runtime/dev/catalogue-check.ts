// `npm run catalogue-check [-- --mock] [--json]`: walks every tool of the package's catalogue through the real
// server over stdio (advertised or withheld, described, example validates and runs, runs in a batch, resolves as a
// resource) and exits non-zero on any failure, so it works as a CI gate.

import { parseArgs } from 'node:util';
import type { ServedTool } from '../shared/contracts.js';
import { TOOL_NAME_GRAMMAR } from '../catalogue/advertise.js';
import { isRunSelected, notRunText, runSelectionOf, selectionText, type RunSelection } from './run-selection.js';
import { runnerToolName } from '../surface/context.js';
import { decideTool, needsConfirmation, readPolicySettings, type PolicySettings } from '../policy/index.js';
import {
  apiUnreachableReason,
  callTool,
  errorText,
  isEntryPoint,
  listEveryTool,
  loadPackage,
  openClientSession,
  processLines,
  resultFailure,
  resultPayload,
  startDevApi,
  startMockHint,
  type ClientSession,
  type DevIo,
  type PackageContext,
} from './client-session.js';

/** The checks run on every tool, in order. */
export const CATALOGUE_CHECKS = ['listing', 'description', 'example', 'run', 'batch', 'resource'] as const;
export type CatalogueCheckName = (typeof CATALOGUE_CHECKS)[number];

export interface ToolCheckResult {
  slug: string;
  advertised: boolean;
  ok: boolean;
  /** The checks that passed. */
  passed: CatalogueCheckName[];
  /** One entry per failed check, saying what went wrong. */
  failures: Array<{ check: CatalogueCheckName; message: string }>;
  /** Checks not run because the tool is outside the run selection (--only-read-only, --allow): run and batch. */
  skipped: CatalogueCheckName[];
}

export interface CatalogueCheckReport {
  ok: boolean;
  apiUrl: string;
  mock: boolean;
  tools: number;
  advertised: number;
  withheld: number;
  /** Tools outside the server's tool policy: checked to be absent and refused, not run. */
  outsidePolicy: number;
  passed: number;
  failed: number;
  /** Tools that passed every check they were given but were not run against the API (outside the run selection). */
  notRun: number;
  /** Which tools run against the API; null: every tool. */
  runSelection: RunSelection | null;
  results: ToolCheckResult[];
  /** Problems not tied to one tool (server did not start, API unreachable, extra tools listed). */
  problems: string[];
}

export interface CatalogueCheckOptions {
  /** Root of the generated package; by default the package this file is compiled into. */
  packageRoot?: string;
  env?: NodeJS.ProcessEnv;
  /** Tools run against the API; by default every tool. */
  runSelection?: RunSelection | null;
}

/** How many runs one batch call holds (the meta-tool's cap). */
const BATCH_SIZE = 10;

const USAGE = 'usage: catalogue-check [--mock] [--json] [--only-read-only] [--allow slug,...]';

export async function runCatalogueCheck(argv: string[], io: DevIo, options: CatalogueCheckOptions = {}): Promise<number> {
  let flags: { mock: boolean; json: boolean; runSelection: RunSelection | null };
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        mock: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        'only-read-only': { type: 'boolean', default: false },
        allow: { type: 'string', multiple: true, default: [] },
      },
    });
    flags = {
      mock: values.mock === true,
      json: values.json === true,
      runSelection: runSelectionOf(values['only-read-only'] === true, values.allow ?? []),
    };
  } catch (error) {
    io.stderr(`catalogue-check: ${errorText(error)}\n${USAGE}`);
    return 2;
  }
  let report: CatalogueCheckReport;
  try {
    report = await checkCatalogue({ mock: flags.mock, runSelection: flags.runSelection, ...options });
  } catch (error) {
    io.stderr(`catalogue-check: ${errorText(error)}`);
    return 1;
  }
  if (flags.json) {
    io.stdout(JSON.stringify(report, null, 2));
  } else {
    for (const line of reportLines(report)) io.stdout(line);
  }
  return report.ok ? 0 : 1;
}

/** Human-readable report: one line per tool, then the summary. */
export function reportLines(report: CatalogueCheckReport): string[] {
  const width = Math.min(40, Math.max(0, ...report.results.map((result) => result.slug.length)));
  const lines = report.results.map((result) => {
    const name = JSON.stringify(result.slug).padEnd(width + 2);
    const status = result.advertised ? 'advertised' : 'withheld  ';
    const notRun = result.skipped.length > 0 ? ` (not run: outside ${selectionText(report.runSelection)})` : '';
    return result.ok
      ? `ok    ${name} ${status} ${result.passed.join(', ')}${notRun}`
      : `FAIL  ${name} ${status} ${result.failures.map((failure) => `${failure.check}: ${failure.message}`).join('; ')}`;
  });
  for (const problem of report.problems) lines.push(`FAIL  ${problem}`);
  lines.push(
    `${report.ok ? 'PASS' : 'FAIL'}: ${report.passed} of ${report.tools} tools passed, ${report.failed} failed ` +
      `(${report.advertised} advertised, ${report.withheld} withheld${report.outsidePolicy > 0 ? `, ${report.outsidePolicy} outside the tool policy and refused` : ''}; API ${report.apiUrl}${report.mock ? ', mock' : ''}${notRunText(report)}).`,
  );
  return lines;
}

export async function checkCatalogue(options: CatalogueCheckOptions & { mock: boolean }): Promise<CatalogueCheckReport> {
  const pkg = await loadPackage(options.packageRoot);
  const env = options.env ?? process.env;
  const api = await startDevApi(pkg, { mock: options.mock, env });
  try {
    const report: CatalogueCheckReport = {
      ok: false,
      apiUrl: api.url,
      mock: api.mock,
      tools: pkg.catalogue.tools.length,
      advertised: pkg.catalogue.tools.filter((tool) => tool.withheldReason === null).length,
      withheld: pkg.catalogue.tools.filter((tool) => tool.withheldReason !== null).length,
      outsidePolicy: 0,
      passed: 0,
      failed: 0,
      notRun: 0,
      runSelection: options.runSelection ?? null,
      results: [],
      problems: [],
    };
    const unreachable = await apiUnreachableReason(api.url);
    if (unreachable !== null) {
      // One clear line instead of a failed run per tool that would read as a broken server.
      report.problems.push(`the API at ${api.url} is not reachable (${unreachable}); ${startMockHint(api.url, pkg.names)}, or pass --mock`);
      return report;
    }
    const session = await openClientSession(pkg, { apiUrl: api.serverUrl, env, clientName: 'catalogue-check' });
    try {
      // The policy the server applies (the build's, overridden by the same environment), so the check expects it.
      const policy = readPolicySettings(pkg.names, env, () => {}, pkg.catalogue.policy);
      report.outsidePolicy = pkg.catalogue.tools.filter((tool) => !decideTool(policy.policy, tool).allowed).length;
      report.results = await checkTools(pkg, session, report.problems, report.runSelection, policy);
    } catch (error) {
      if (session.ended() === null) throw error;
    } finally {
      await session.close();
    }
    // A server that stopped part-way failed the tools after it one by one; this says why.
    const ended = session.ended();
    if (ended !== null) report.problems.push(ended);
    report.passed = report.results.filter((result) => result.ok).length;
    report.failed = report.results.length - report.passed;
    report.notRun = report.results.filter((result) => result.skipped.length > 0).length;
    report.ok = report.failed === 0 && report.problems.length === 0;
    return report;
  } finally {
    await api.close();
  }
}

interface ToolState {
  tool: ServedTool;
  result: ToolCheckResult;
  /** The call that should work, from the meta-tool's schema command; absent when it could not be had. */
  example?: { name: string; arguments: Record<string, unknown> };
  /** Whether the tool is run against the API (see RunSelection). */
  selected: boolean;
}

/**
 * A tool outside the policy: absent from tools/list and its resource, refused with TOOL_NOT_ALLOWED by schema, run and
 * batch. Each check passes when the server refuses as the policy says.
 */
async function checkRefused(session: ClientSession, meta: string, uriScheme: string, state: ToolState, listed: boolean): Promise<void> {
  const { tool } = state;
  const record = (check: CatalogueCheckName, ok: boolean, message: string): void => {
    if (ok) state.result.passed.push(check);
    else state.result.failures.push({ check, message });
  };
  record('listing', !listed, 'in tools/list although outside the tool policy');
  record('description', true, '');
  const refused = async (args: Record<string, unknown>): Promise<string | null> => {
    try {
      const failure = resultFailure(await callTool(session, meta, args));
      return failure?.code === 'TOOL_NOT_ALLOWED'
        ? null
        : `answered ${failure === null ? 'with a result' : failure.code} instead of TOOL_NOT_ALLOWED`;
    } catch (error) {
      return errorText(error);
    }
  };
  const schema = await refused({ command: 'schema', slug: tool.slug });
  record('example', schema === null, `schema command ${schema}`);
  const run = await refused({ command: 'run', slug: tool.slug, params: {} });
  record('run', run === null, `run command ${run}`);
  const batch = await refused({ command: 'batch', runs: [{ slug: tool.slug, params: {} }] });
  record('batch', batch === null, `batch ${batch}`);
  let readable = false;
  try {
    await session.client.readResource({ uri: `${uriScheme}://tools/${encodeURIComponent(tool.slug)}` });
    readable = true;
  } catch {
    // Refused, as it should be.
  }
  record('resource', !readable, 'its resource is readable although the tool is outside the tool policy');
}

async function checkTools(
  pkg: PackageContext,
  session: ClientSession,
  problems: string[],
  selection: RunSelection | null,
  policy: PolicySettings,
): Promise<ToolCheckResult[]> {
  const { names } = pkg;
  const meta = names.metaToolName;
  const listed = await listEveryTool(session);
  const listedByName = new Map(listed.map((tool) => [tool.name, tool]));
  if (!listedByName.has(meta)) problems.push(`tools/list does not include the meta-tool "${meta}"`);
  const catalogueSlugs = new Set(pkg.catalogue.tools.map((tool) => tool.toolName ?? tool.slug));
  for (const name of listedByName.keys()) {
    if (name !== meta && !(policy.surface === 'split' && name === runnerToolName(meta)) && !catalogueSlugs.has(name))
      problems.push(`tools/list advertises "${name}", which is not in the catalogue`);
  }

  const states: ToolState[] = pkg.catalogue.tools.map((tool) => ({
    tool,
    result: { slug: tool.slug, advertised: tool.withheldReason === null, ok: false, passed: [], failures: [], skipped: [] },
    selected: isRunSelected(tool, selection),
  }));
  for (const slug of selection?.allow ?? []) {
    if (!catalogueSlugs.has(slug)) problems.push(`--allow names "${slug}", which is not in the catalogue`);
  }
  const pass = (state: ToolState, check: CatalogueCheckName): void => void state.result.passed.push(check);
  const fail = (state: ToolState, check: CatalogueCheckName, message: string): void => void state.result.failures.push({ check, message });

  const refusedStates = new Set<ToolState>();
  for (const state of states) {
    const { tool } = state;
    if (!decideTool(policy.policy, tool).allowed) {
      refusedStates.add(state);
      await checkRefused(session, meta, names.uriScheme, state, listedByName.has(tool.toolName ?? tool.slug));
      continue;
    }
    // A foreign slug the generator mapped (toolNames: "sanitize") is listed under its mapped name.
    const name = tool.toolName ?? tool.slug;
    const advertised = tool.withheldReason === null && name !== meta;
    const grammarOk = TOOL_NAME_GRAMMAR.test(name);
    const listedTool = listedByName.get(name);
    if (advertised && !grammarOk)
      fail(state, 'listing', `marked advertised but the slug is outside the MCP tool-name grammar ${TOOL_NAME_GRAMMAR.source}`);
    else if (advertised && listedTool === undefined) fail(state, 'listing', 'not in tools/list although its slug is grammar-valid');
    else if (!advertised && name !== meta && listedTool !== undefined)
      fail(state, 'listing', `in tools/list although withheld (${tool.withheldReason})`);
    else if (tool.withheldReason !== null && !session.stderr().includes(JSON.stringify(tool.slug))) {
      fail(state, 'listing', 'withheld, but the server did not report it on stderr');
    } else pass(state, 'listing');

    const description = String(tool.manifest.description ?? '').trim();
    if (description === '') fail(state, 'description', 'the manifest has no description');
    else if (listedTool !== undefined && (listedTool.description ?? '').trim() === '')
      fail(state, 'description', 'listed without a description');
    else pass(state, 'description');

    try {
      const schema = await callTool(session, meta, { command: 'schema', slug: tool.slug });
      const failure = resultFailure(schema);
      const payload = resultPayload(schema) as {
        slug?: unknown;
        example?: { name?: unknown; arguments?: unknown };
        example_valid?: unknown;
        example_source?: unknown;
      };
      if (failure !== null) fail(state, 'example', `schema command failed: ${failure.code}: ${failure.error}`);
      else if (payload.slug !== tool.slug)
        fail(state, 'example', `schema command resolved ${JSON.stringify(tool.slug)} to ${JSON.stringify(payload.slug)}`);
      else if (payload.example_valid !== true)
        fail(state, 'example', 'no example validates against the input schema (neither the manifest examples nor a synthesized one)');
      else if (
        typeof payload.example?.name !== 'string' ||
        typeof payload.example.arguments !== 'object' ||
        payload.example.arguments === null
      ) {
        fail(state, 'example', 'the schema command returned no example call');
      } else {
        state.example = { name: payload.example.name, arguments: payload.example.arguments as Record<string, unknown> };
        pass(state, 'example');
      }
    } catch (error) {
      fail(state, 'example', `schema command failed: ${errorText(error)}`);
    }

    if (!state.selected) {
      state.result.skipped.push('run');
    } else if (state.example === undefined) {
      fail(state, 'run', 'skipped: no valid example to run');
    } else {
      try {
        const run = await callTool(session, state.example.name, state.example.arguments);
        const failure = resultFailure(run);
        // Through the meta-tool (a withheld tool), a run that needs confirmation is refused: this client cannot be asked.
        if (failure === null || (failure.code === 'CONFIRMATION_REQUIRED' && needsConfirmation(tool, policy.confirm))) pass(state, 'run');
        else fail(state, 'run', `${failure.code}: ${failure.error}`);
      } catch (error) {
        fail(state, 'run', errorText(error));
      }
    }

    try {
      const uri = `${names.uriScheme}://tools/${encodeURIComponent(tool.slug)}`;
      const read = await session.client.readResource({ uri });
      const first = read.contents[0];
      const document = first !== undefined && 'text' in first ? (JSON.parse(first.text) as { slug?: unknown }) : {};
      if (document.slug === tool.slug) pass(state, 'resource');
      else fail(state, 'resource', `${uri} resolved to ${JSON.stringify(document.slug)}`);
    } catch (error) {
      fail(state, 'resource', errorText(error));
    }
  }

  await checkBatches(
    session,
    meta,
    states.filter((state) => !refusedStates.has(state)),
    policy,
  );

  for (const state of states) {
    state.result.passed.sort((a, b) => CATALOGUE_CHECKS.indexOf(a) - CATALOGUE_CHECKS.indexOf(b));
    state.result.failures.sort((a, b) => CATALOGUE_CHECKS.indexOf(a.check) - CATALOGUE_CHECKS.indexOf(b.check));
    state.result.ok = state.result.failures.length === 0;
  }
  return states.map((state) => state.result);
}

/** Every tool with a valid example runs again inside a batch (in batches of the meta-tool's cap). */
async function checkBatches(session: ClientSession, meta: string, states: ToolState[], policy: PolicySettings): Promise<void> {
  // Runs that need the user's confirmation are refused as a batch (this client cannot be asked): they are batched
  // apart, and pass when the batch answers CONFIRMATION_REQUIRED, which runs nothing.
  const confirming = states.filter((state) => state.example !== undefined && needsConfirmation(state.tool, policy.confirm));
  for (let start = 0; start < confirming.length; start += BATCH_SIZE) {
    const chunk = confirming.slice(start, start + BATCH_SIZE);
    try {
      const failure = resultFailure(
        await callTool(session, meta, {
          command: 'batch',
          runs: chunk.map((state) => ({ slug: state.tool.slug, params: paramsOf(state.example!, meta) })),
        }),
      );
      for (const state of chunk) {
        if (failure?.code === 'CONFIRMATION_REQUIRED') state.result.passed.push('batch');
        else
          state.result.failures.push({
            check: 'batch',
            message: `a run needing confirmation was answered ${failure === null ? 'with results' : failure.code} instead of CONFIRMATION_REQUIRED`,
          });
      }
    } catch (error) {
      for (const state of chunk) state.result.failures.push({ check: 'batch', message: errorText(error) });
    }
  }
  const runnable = states.filter(
    (state) => state.selected && state.example !== undefined && !needsConfirmation(state.tool, policy.confirm),
  );
  for (const state of states) {
    if (needsConfirmation(state.tool, policy.confirm) && state.example !== undefined) continue;
    if (!state.selected) state.result.skipped.push('batch');
    else if (state.example === undefined) state.result.failures.push({ check: 'batch', message: 'skipped: no valid example to run' });
  }
  for (let start = 0; start < runnable.length; start += BATCH_SIZE) {
    const chunk = runnable.slice(start, start + BATCH_SIZE);
    const runs = chunk.map((state) => ({ slug: state.tool.slug, params: paramsOf(state.example!, meta) }));
    try {
      const result = await callTool(session, meta, { command: 'batch', runs });
      const failure = resultFailure(result);
      if (failure !== null) {
        for (const state of chunk)
          state.result.failures.push({ check: 'batch', message: `the batch was rejected: ${failure.code}: ${failure.error}` });
        continue;
      }
      const entries =
        (resultPayload(result) as { runs?: Array<{ index: number; slug: string; success: boolean; code?: string; error?: string }> })
          .runs ?? [];
      chunk.forEach((state, index) => {
        const entry = entries.find((candidate) => candidate.index === index);
        if (entry === undefined) state.result.failures.push({ check: 'batch', message: 'missing from the batch result' });
        else if (entry.slug !== state.tool.slug)
          state.result.failures.push({ check: 'batch', message: `batch entry ${index} ran ${JSON.stringify(entry.slug)}` });
        else if (!entry.success) state.result.failures.push({ check: 'batch', message: `${entry.code ?? 'failed'}: ${entry.error ?? ''}` });
        else state.result.passed.push('batch');
      });
    } catch (error) {
      for (const state of chunk) state.result.failures.push({ check: 'batch', message: errorText(error) });
    }
  }
}

/** A withheld tool's example goes through the meta-tool's run command; its params are what a batch takes. */
function paramsOf(example: { name: string; arguments: Record<string, unknown> }, meta: string): Record<string, unknown> {
  if (example.name === meta && typeof example.arguments.params === 'object' && example.arguments.params !== null) {
    return example.arguments.params as Record<string, unknown>;
  }
  return example.name === meta ? {} : example.arguments;
}

if (isEntryPoint(import.meta.url)) {
  process.exitCode = await runCatalogueCheck(process.argv.slice(2), processLines());
}
