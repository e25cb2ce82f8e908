// `npm run agent-demo [-- --mock]`: walks the path an LLM takes through the real server over stdio (list, search,
// schema, run, batch, a typo and its recovery via the suggestion, the recover prompt) with no model needed.

import { runnerToolName } from '../surface/context.js';
import { parseArgs } from 'node:util';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  apiUnreachableReason,
  callTool,
  errorText,
  isEntryPoint,
  openClientSession,
  openPackageApi,
  processLines,
  resultFailure,
  resultPayload,
  resultText,
  startMockHint,
  type ClientSession,
  type DevIo,
} from './client-session.js';

export interface AgentDemoOptions {
  /** Root of the generated package; by default the package this file is compiled into. */
  packageRoot?: string;
  env?: NodeJS.ProcessEnv;
  /** What the demo searches for; by default the README's "validate env file". */
  goal?: string;
}

const USAGE = 'usage: agent-demo [--mock] [--goal "what you want to do"]';
const DEFAULT_GOAL = 'validate env file';

/** A failed step: the demo stops there and says which step and why. */
class DemoStepFailed extends Error {}

interface ExampleCall {
  name: string;
  arguments: Record<string, unknown>;
}

export async function runAgentDemo(argv: string[], io: DevIo, options: AgentDemoOptions = {}): Promise<number> {
  let flags: { mock: boolean; goal: string };
  try {
    const { values } = parseArgs({ args: argv, options: { mock: { type: 'boolean', default: false }, goal: { type: 'string' } } });
    flags = { mock: values.mock === true, goal: values.goal ?? options.goal ?? DEFAULT_GOAL };
  } catch (error) {
    io.stderr(`agent-demo: ${errorText(error)}\n${USAGE}`);
    return 2;
  }

  const env = options.env ?? process.env;
  const opened = await openPackageApi('agent-demo', io, { packageRoot: options.packageRoot, mock: flags.mock, env });
  if (opened === null) return 1;
  const { pkg, api } = opened;
  try {
    // Checked first: without an API every step would fail with its own ECONNREFUSED and read as a broken server.
    const unreachable = await apiUnreachableReason(api.url);
    if (unreachable !== null) {
      io.stderr(
        `agent-demo: the API at ${api.url} is not reachable (${unreachable}). ${capitalised(startMockHint(api.url, pkg.names))}, ` +
          `or run \`npm run agent-demo:mock\` to use a mock started for this demo.`,
      );
      return 1;
    }
    io.stdout(`API: ${api.url}${api.mock ? ' (mock started for this demo)' : ''}`);
    let session;
    try {
      session = await openClientSession(pkg, { apiUrl: api.serverUrl, env, clientName: 'agent-demo' });
    } catch (error) {
      io.stderr(`agent-demo: ${errorText(error)}`);
      return 1;
    }
    try {
      await walk(session, pkg.names.metaToolName, flags.goal, io);
      io.stdout('Done: every step of the agent path worked.');
      return 0;
    } catch (error) {
      io.stderr(`agent-demo: ${session.ended() ?? errorText(error)}`);
      return 1;
    } finally {
      await session.close();
    }
  } finally {
    await api.close();
  }
}

async function walk(session: ClientSession, meta: string, goal: string, io: DevIo): Promise<void> {
  const step = (title: string): void => io.stdout(`\n== ${title}`);
  const show = (text: string, maxLines = 8): void => {
    const lines = text.split('\n');
    for (const line of lines.slice(0, maxLines)) io.stdout(`   ${line}`);
    if (lines.length > maxLines) io.stdout(`   … (${lines.length - maxLines} more lines)`);
  };
  const expectSuccess = (what: string, result: CallToolResult): unknown => {
    const failure = resultFailure(result);
    if (failure !== null) throw new DemoStepFailed(`${what} failed: ${failure.code}: ${failure.error}`);
    return resultPayload(result);
  };

  step('1. tools/list: what can this server do?');
  const tools = (await session.client.listTools()).tools;
  if (!tools.some((tool) => tool.name === meta)) throw new DemoStepFailed(`tools/list has no meta-tool "${meta}"`);
  // A split surface lists a separate runner (run, batch) beside the read-only finder.
  const runner = tools.some((tool) => tool.name === runnerToolName(meta)) ? runnerToolName(meta) : meta;
  const metaEntries = runner === meta ? 1 : 2;
  io.stdout(
    `   ${tools.length - metaEntries} tools listed, plus the meta-tool "${meta}"${runner === meta ? '' : ` and its runner "${runner}"`}.`,
  );

  step(`2. search: ${JSON.stringify(goal)}`);
  const searchResult = await callTool(session, meta, { command: 'search', query: goal, limit: 3 });
  const hits = (expectSuccess('search', searchResult) as { results?: Array<{ slug: string }> }).results ?? [];
  const best = hits[0];
  if (best === undefined) throw new DemoStepFailed(`search found no tool for ${JSON.stringify(goal)}`);
  show(resultText(searchResult), 5);

  step(`3. schema: exact parameters of "${best.slug}"`);
  const example = await exampleCall(session, meta, best.slug, expectSuccess);
  io.stdout(`   ready-to-send call: ${JSON.stringify(example)}`);

  step(`4. run: call "${example.name}" as the schema suggests`);
  const run = await callTool(session, example.name, example.arguments);
  expectSuccess(`run of ${best.slug}`, run);
  show(resultText(run), 6);

  step('5. batch: several tools for one task in a single call');
  const runs: Array<{ slug: string; params: Record<string, unknown> }> = [];
  for (const hit of hits.slice(0, 3)) {
    const call = await exampleCall(session, meta, hit.slug, expectSuccess);
    runs.push({ slug: hit.slug, params: call.name === meta ? ((call.arguments.params ?? {}) as Record<string, unknown>) : call.arguments });
  }
  const batch = await callTool(session, runner, { command: 'batch', runs });
  const tally = expectSuccess('batch', batch) as { succeeded?: number; failed?: number };
  io.stdout(`   ${runs.length} runs: ${tally.succeeded ?? 0} succeeded, ${tally.failed ?? 0} failed.`);

  const typo = typoOf(best.slug);
  step(`6. a typo: run "${typo}" instead of "${best.slug}"`);
  const typoResult = await callTool(session, runner, { command: 'run', slug: typo, params: runs[0]?.params ?? {} });
  const typoFailure = resultFailure(typoResult);
  if (typoFailure === null) throw new DemoStepFailed(`the misspelt slug ${JSON.stringify(typo)} ran instead of failing`);
  io.stdout(`   ${typoFailure.code} (retryable: ${typoFailure.retryable}): ${typoFailure.error}`);
  const suggestion = Array.isArray(typoFailure.details?.closest) ? String(typoFailure.details.closest[0]) : undefined;
  if (suggestion === undefined) throw new DemoStepFailed(`the ${typoFailure.code} error for ${JSON.stringify(typo)} suggested no slug`);
  io.stdout(`   recovering with the suggestion "${suggestion}"`);
  const recovered = await callTool(session, runner, { command: 'run', slug: suggestion, params: runs[0]?.params ?? {} });
  expectSuccess(`run of the suggested ${suggestion}`, recovered);
  io.stdout('   the suggested slug ran.');

  step(`7. the recover prompt for ${typoFailure.code} on "${suggestion}"`);
  const prompt = await session.client.getPrompt({ name: 'recover', arguments: { error: typoFailure.code, slug: suggestion } });
  const first = prompt.messages[0];
  show(first !== undefined && first.content.type === 'text' ? first.content.text : '(no text)', 8);
}

async function exampleCall(
  session: ClientSession,
  meta: string,
  slug: string,
  expectSuccess: (what: string, result: CallToolResult) => unknown,
): Promise<ExampleCall> {
  const schema = expectSuccess(`schema of ${slug}`, await callTool(session, meta, { command: 'schema', slug })) as {
    example?: ExampleCall;
    example_valid?: boolean;
  };
  if (schema.example === undefined || schema.example_valid !== true) throw new DemoStepFailed(`"${slug}" has no example that validates`);
  return schema.example;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The slug with its second-to-last character dropped ("env-validator" → "env-validatr"): not a prefix, still close. */
export function typoOf(slug: string): string {
  const chars = [...slug];
  if (chars.length < 3) return `${slug}x`;
  chars.splice(chars.length - 2, 1);
  return chars.join('');
}

if (isEntryPoint(import.meta.url)) {
  process.exitCode = await runAgentDemo(process.argv.slice(2), processLines());
}
