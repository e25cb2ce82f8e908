// The meta-tool: search, list, schema, run, batch, history and diff, behind one flat strict-host-safe input schema (its
// tools/list entry, that schema and its text, is meta-tool-definition.ts).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolFailure, type JsonObject, type RunOutcome, type ServedTool, type ToolFailure } from '../shared/contracts.js';
import { searchAnswer } from '../search/index.js';
import { parameterCounts, validExampleArguments, callFor } from '../schema/call-shape.js';
import { diffRuns, formatRunDiff } from '../history/diff.js';
import { DEFAULT_SEARCH_LIMIT, MAX_BATCH_RUNS, MAX_SEARCH_LIMIT } from './guide.js';
import { META_COMMANDS, META_FIELDS, ROLE_COMMANDS, type MetaCommand, type MetaToolRole } from './meta-tool-definition.js';
import {
  formatHistoryIndex,
  historyIndex,
  historyScopeNote,
  runDetail,
  runIndexEntry,
  scopeName,
  type RunRecord,
} from '../history/history.js';
import { safeStringify } from '../secrets/redact.js';
import { agentResolveOptions, resolveSlug } from '../catalogue/resolve.js';
import type { ToolList } from '../catalogue/slug-index.js';
import { failureResult, outcomeResult } from '../history/results.js';
import { checkParams, executeRun } from '../history/runs.js';
import { runnerToolName, toolUri, type CallExtra, type SurfaceContext } from './context.js';
import { confirmRuns } from '../policy/index.js';
import { firstLine } from '../shared/text.js';
import { isJsonObject } from '../shared/json-values.js';

/** Field names agents commonly reach for, mapped to the one this tool takes. */
const FIELD_ALIASES: Readonly<Record<string, string>> = {
  arguments: 'params',
  args: 'params',
  input: 'params',
  parameters: 'params',
  tool: 'slug',
  name: 'slug',
  tool_name: 'slug',
  q: 'query',
  search: 'query',
  id: 'show',
  run: 'show',
  calls: 'runs',
};

/** Ends a command early with the failure to answer; thrown inside this module only, always caught below. */
class CommandFailure extends Error {
  constructor(readonly failure: ToolFailure) {
    super(failure.error);
  }
}

function invalid(field: string, message: string, extra: JsonObject = {}): CommandFailure {
  return new CommandFailure(toolFailure('INVALID_COMMAND', message, { field, ...extra }));
}

/** `blank`: whether a string of only white space counts (a slug is any non-empty string, `" "` included). */
function requireString(args: JsonObject, field: string, command: string, blank: 'allowed' | 'refused' = 'refused'): string {
  const value = args[field];
  if (value === undefined) throw invalid(field, `Field "${field}" is required for {"command":"${command}"}.`);
  if (typeof value !== 'string' || value === '' || (blank === 'refused' && value.trim() === '')) {
    throw invalid(field, `Field "${field}" must be a non-empty string.`);
  }
  return value;
}

/** Run references may come as strings ("r3", "-1") or, from loose clients, as numbers (-1). */
function optionalRunRef(args: JsonObject, field: string, fallback: string | undefined): string | undefined {
  const value = args[field];
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  if (typeof value !== 'string' || value.trim() === '')
    throw invalid(field, `Field "${field}" must be a run id like "r3" or a relative position like "-1".`);
  return value;
}

function parseArguments(raw: unknown): { command: MetaCommand; args: JsonObject } {
  if (!isJsonObject(raw))
    throw invalid('command', `Arguments must be an object with a "command" field (one of: ${META_COMMANDS.join(', ')}).`);
  for (const key of Object.keys(raw)) {
    if ((META_FIELDS as readonly string[]).includes(key)) continue;
    const alias = FIELD_ALIASES[key];
    throw invalid(key, `Unknown field "${key}".${alias ? ` Did you mean "${alias}"?` : ''} Fields: ${META_FIELDS.join(', ')}.`);
  }
  const command = raw.command;
  if (command === undefined) throw invalid('command', `Field "command" is required (one of: ${META_COMMANDS.join(', ')}).`);
  if (typeof command !== 'string' || !(META_COMMANDS as readonly string[]).includes(command)) {
    throw invalid('command', `Unknown command ${safeStringify(command)}. Field "command" must be one of: ${META_COMMANDS.join(', ')}.`);
  }
  return { command: command as MetaCommand, args: raw };
}

/** A tool's description in a listing: its first line, at most 160 characters. */
const shortDescription = (text: string): string => firstLine(text, 160);

function textAndData(text: string, data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: data };
}

/** Resolves among the tools the policy serves; a name that only a tool outside it answers to is TOOL_NOT_ALLOWED. */
export function resolveForAgent(ctx: SurfaceContext, tools: ToolList, slug: string): ReturnType<typeof resolveSlug> {
  // Exactly a tool outside the policy: refused, never resolved as a prefix of another tool.
  const exactRefusal = ctx.refusal !== undefined && tools.bySlug(slug) === undefined ? ctx.refusal(slug, true) : null;
  if (exactRefusal !== null) return { ok: false, failure: exactRefusal };
  const resolution = resolveSlug(tools, slug, agentResolveOptions(ctx));
  if (resolution.ok || resolution.failure.code !== 'TOOL_NOT_FOUND') return resolution;
  const refusal = ctx.refusal?.(slug) ?? null;
  return refusal === null ? resolution : { ok: false, failure: refusal };
}

function resolveOrThrow(ctx: SurfaceContext, tools: ToolList, slug: string): ServedTool {
  const resolution = resolveForAgent(ctx, tools, slug);
  if (!resolution.ok) throw new CommandFailure(resolution.failure);
  return resolution.tool;
}

/** The confirmation rule for `runs` (see policy/confirmation.ts): null to go ahead, else the failure, nothing run. */
async function confirmed(
  ctx: SurfaceContext,
  runs: ReadonlyArray<{ tool: ServedTool; params: JsonObject }>,
  extra: CallExtra,
): Promise<ToolFailure | null> {
  if (ctx.confirmation === undefined) return null;
  return confirmRuns(
    { names: ctx.names, mode: ctx.confirmation.mode, confirmVar: ctx.confirmation.confirmVar, channel: extra.confirmationChannel },
    runs,
    extra.signal,
  );
}

function searchCommand(ctx: SurfaceContext, args: JsonObject): CallToolResult {
  const query = requireString(args, 'query', 'search');
  let limit = DEFAULT_SEARCH_LIMIT;
  if (args.limit !== undefined) {
    if (typeof args.limit !== 'number' || !Number.isInteger(args.limit) || args.limit < 1 || args.limit > MAX_SEARCH_LIMIT) {
      throw invalid('limit', `Field "limit" must be an integer from 1 to ${MAX_SEARCH_LIMIT}.`);
    }
    limit = args.limit;
  }
  const hits = ctx.search.search(query, limit);
  const answer = searchAnswer(query, hits, {
    metaToolName: ctx.names.metaToolName,
    tools: ctx.getTools().tools,
    uriOf: (slug) => toolUri(ctx, slug),
  });
  return textAndData(answer.text, answer.data);
}

function listCommand(ctx: SurfaceContext): CallToolResult {
  const entries = ctx.getTools().tools.map((tool) => {
    const counts = parameterCounts(tool);
    return {
      slug: tool.slug,
      name: String(tool.manifest.name ?? ''),
      category: String(tool.manifest.category ?? ''),
      description: shortDescription(String(tool.manifest.description ?? '')),
      parameters: counts,
      withheld: tool.withheldReason !== null,
      ...(tool.withheldReason !== null ? { withheld_reason: tool.withheldReason } : {}),
      ...(typeof tool.manifest.deprecated === 'string' ? { deprecated: tool.manifest.deprecated } : {}),
    };
  });
  const withheld = entries.filter((entry) => entry.withheld).length;
  const header = `${entries.length} tools${withheld ? ` (${withheld} not in the tool list: call those with {"command":"run","slug":...})` : ''}:`;
  const lines = entries.map(
    (entry) =>
      `- ${entry.slug}: ${entry.description} [${entry.parameters.required}/${entry.parameters.total} params]${entry.withheld ? ' [run via meta-tool]' : ''}${entry.deprecated ? ' [deprecated]' : ''}`,
  );
  return textAndData([header, ...lines].join('\n'), { count: entries.length, tools: entries });
}

/** Everything an agent needs to call one tool correctly; shared by the schema command, resources and prompts. */
export function describeTool(ctx: SurfaceContext, tool: ServedTool): Record<string, unknown> {
  const example = validExampleArguments(tool, ctx.validator);
  return {
    slug: tool.slug,
    name: tool.manifest.name,
    description: tool.manifest.description,
    ...(typeof tool.manifest.deprecated === 'string' ? { deprecated: tool.manifest.deprecated } : {}),
    withheld: tool.withheldReason !== null,
    ...(tool.withheldReason !== null ? { withheld_reason: tool.withheldReason } : {}),
    parameters: parameterCounts(tool),
    input_schema: tool.manifest.input_schema ?? { type: 'object', properties: {} },
    output_schema: tool.manifest.output_schema ?? null,
    example: callFor(tool, example.arguments, ctx.names.metaToolName),
    example_source: example.source,
    example_valid: example.valid,
    uri: toolUri(ctx, tool.slug),
  };
}

function schemaCommand(ctx: SurfaceContext, args: JsonObject): CallToolResult {
  const tool = resolveOrThrow(ctx, ctx.getTools(), requireString(args, 'slug', 'schema', 'allowed'));
  const description = describeTool(ctx, tool);
  const how =
    tool.withheldReason === null
      ? `Call it directly as the tool "${tool.slug}", or with {"command":"run"}.`
      : `It is not in the tool list (${tool.withheldReason}); call it through ${ctx.names.metaToolName} with {"command":"run"}.`;
  const caveat = description.example_valid ? '' : ' The example could not be made to validate: fill in the fields the schema requires.';
  return textAndData(`${how}${caveat}\n${safeStringify(description, 2)}`, description);
}

function withRunId(result: CallToolResult, record: RunRecord | undefined): CallToolResult {
  return record ? { ...result, _meta: { ...(result._meta ?? {}), run_id: record.id } } : result;
}

async function runCommand(ctx: SurfaceContext, args: JsonObject, extra: CallExtra): Promise<CallToolResult> {
  const tool = resolveOrThrow(ctx, ctx.getTools(), requireString(args, 'slug', 'run', 'allowed'));
  if (args.params !== undefined && !isJsonObject(args.params))
    throw invalid('params', 'Field "params" must be an object of the tool\'s arguments.');
  // Validated first: a call that cannot run asks no one to confirm it.
  const checked = checkParams(ctx.validator, tool, args.params);
  if (!checked.ok) return failureResult(checked.failure);
  const refused = await confirmed(ctx, [{ tool, params: checked.params }], extra);
  if (refused !== null) return failureResult(refused);
  const { outcome, record } = await executeRun(ctx, tool, checked.params, extra.signal);
  return withRunId(outcomeResult(outcome), record);
}

async function sendProgressSafely(ctx: SurfaceContext, extra: CallExtra, progress: number, total: number, message: string): Promise<void> {
  // Unsolicited progress is a protocol violation, so nothing is sent without a token.
  if (extra.progressToken === undefined) return;
  try {
    await extra.sendProgress(progress, total, message);
  } catch (error) {
    ctx.log(`progress notification failed (ignored): ${error instanceof Error ? error.message : String(error)}`);
  }
}

type BatchEntry = { index: number; slug: string; run_id?: string; duration_ms: number } & (
  { success: true; result: unknown } | ToolFailure
);

async function batchCommand(ctx: SurfaceContext, args: JsonObject, extra: CallExtra): Promise<CallToolResult> {
  const runs = args.runs;
  if (runs === undefined)
    throw invalid('runs', 'Field "runs" is required for {"command":"batch"}: an array of {"slug": "...", "params": {...}}.');
  if (!Array.isArray(runs)) throw invalid('runs', 'Field "runs" must be an array of {"slug": "...", "params": {...}}.');
  if (runs.length === 0) throw invalid('runs', 'Field "runs" must hold at least one run.');
  if (runs.length > MAX_BATCH_RUNS) {
    throw new CommandFailure(
      toolFailure(
        'BATCH_TOO_LARGE',
        `A batch holds at most ${MAX_BATCH_RUNS} runs; this one has ${runs.length}. Split it into batches of ${MAX_BATCH_RUNS} or fewer. Nothing was run.`,
        { max: MAX_BATCH_RUNS, given: runs.length },
      ),
    );
  }

  // Whole-batch validation: every slug resolved and every input checked before the first run.
  const tools = ctx.getTools();
  const planned: { tool: ServedTool; params: JsonObject }[] = [];
  const problems: { index: number; failure: ToolFailure }[] = [];
  runs.forEach((item: unknown, index) => {
    const problem = (failure: ToolFailure): void => void problems.push({ index, failure });
    if (!isJsonObject(item))
      return problem(
        toolFailure('INVALID_COMMAND', `runs[${index}] must be an object {"slug": "...", "params": {...}}.`, { field: `runs[${index}]` }),
      );
    const unknownKey = Object.keys(item).find((key) => key !== 'slug' && key !== 'params');
    if (unknownKey !== undefined) {
      const alias = FIELD_ALIASES[unknownKey];
      return problem(
        toolFailure('INVALID_COMMAND', `runs[${index}] has unknown field "${unknownKey}".${alias ? ` Did you mean "${alias}"?` : ''}`, {
          field: `runs[${index}].${unknownKey}`,
        }),
      );
    }
    if (typeof item.slug !== 'string' || item.slug === '')
      return problem(
        toolFailure('INVALID_COMMAND', `runs[${index}].slug is required and must be a non-empty string.`, { field: `runs[${index}].slug` }),
      );
    if (item.params !== undefined && !isJsonObject(item.params))
      return problem(toolFailure('INVALID_COMMAND', `runs[${index}].params must be an object.`, { field: `runs[${index}].params` }));
    const resolution = resolveForAgent(ctx, tools, item.slug);
    if (!resolution.ok) return problem(resolution.failure);
    const checked = checkParams(ctx.validator, resolution.tool, item.params);
    if (!checked.ok) return problem(checked.failure);
    planned.push({ tool: resolution.tool, params: checked.params });
  });
  const firstProblem = problems[0];
  if (firstProblem) {
    const summary = problems.map(({ index, failure }) => `runs[${index}]: ${failure.error}`).join('\n');
    return failureResult(
      toolFailure(
        firstProblem.failure.code,
        `Batch rejected, nothing was run: ${problems.length} of ${runs.length} items are invalid.\n${summary}`,
        {
          index: firstProblem.index,
          items: problems.map(({ index, failure }) => ({ index, ...failure })),
        },
      ),
    );
  }

  // One confirmation for the whole batch, after it validated and before anything runs.
  const refused = await confirmed(ctx, planned, extra);
  if (refused !== null) return failureResult({ ...refused, error: `Batch not run: ${refused.error}` });

  await sendProgressSafely(ctx, extra, 0, planned.length, `batch of ${planned.length} runs started`);
  const entries: BatchEntry[] = [];
  for (const [index, { tool, params }] of planned.entries()) {
    const { outcome, record } = await executeRun(ctx, tool, params, extra.signal);
    entries.push(batchEntry(index, tool.slug, outcome, record?.id));
    if (record !== undefined)
      await sendProgressSafely(ctx, extra, index + 1, planned.length, `${tool.slug}: ${outcome.ok ? 'succeeded' : 'failed'}`);
  }

  // Runs left unsent by a cancellation have no run id: they did not happen, so history does not hold them.
  const notSent = entries.filter((entry) => entry.run_id === undefined).length;
  const failed = entries.filter((entry) => !entry.success);
  const succeeded = entries.filter((entry) => entry.success);
  const tally =
    `${entries.length} runs: ${succeeded.length} succeeded, ${failed.length - notSent} failed` +
    (notSent ? `, ${notSent} not sent (the call was cancelled; runs never sent are not in history)` : '');
  const describe = (entry: BatchEntry): string =>
    entry.success
      ? `runs[${entry.index}] ${entry.slug} (${entry.run_id}) succeeded: ${safeStringify(entry.result)}`
      : `runs[${entry.index}] ${entry.slug}${entry.run_id ? ` (${entry.run_id})` : ''} failed [${entry.code}, retryable: ${entry.retryable}]: ${entry.error}`;
  const text = [tally, ...failed.map(describe), ...succeeded.map(describe)].join('\n');
  const result = textAndData(text, {
    total: entries.length,
    succeeded: succeeded.length,
    failed: failed.length - notSent,
    ...(notSent ? { not_sent: notSent } : {}),
    runs: entries,
  });
  // Nothing worked: a host that reads only isError must not take the batch for a success. Any success keeps it false.
  return succeeded.length === 0 ? { ...result, isError: true } : result;
}

function batchEntry(index: number, slug: string, outcome: RunOutcome, runId: string | undefined): BatchEntry {
  const id = runId === undefined ? {} : { run_id: runId };
  return outcome.ok
    ? { index, slug, ...id, success: true, result: outcome.result === undefined ? null : outcome.result, duration_ms: outcome.durationMs }
    : { index, slug, ...id, duration_ms: outcome.durationMs, ...outcome.failure };
}

function runNotFound(ctx: SurfaceContext, field: string, ref: string): CommandFailure {
  const runs = ctx.history.list();
  const newest = runs[0];
  const oldest = runs[runs.length - 1];
  const holds = newest && oldest ? `it holds ${oldest.id} to ${newest.id}` : 'it holds no runs yet';
  return new CommandFailure(
    toolFailure(
      'RUN_NOT_FOUND',
      `No run ${JSON.stringify(ref)} (field "${field}") in this process's history: ${holds}. ${historyScopeNote(ctx.startedAt, ctx.history.scope())} Use {"command":"history"} to see the ids.`,
      { field, ref },
    ),
  );
}

function historyCommand(ctx: SurfaceContext, args: JsonObject): CallToolResult {
  const show = optionalRunRef(args, 'show', undefined);
  const index = historyIndex(ctx.history, ctx.startedAt);
  if (show === undefined) return textAndData(formatHistoryIndex(ctx.history, ctx.startedAt), index);
  const record = ctx.history.find(show);
  if (!record) throw runNotFound(ctx, 'show', show);
  const detail = runDetail(record);
  const text = `${historyScopeNote(ctx.startedAt, ctx.history.scope())}\n${safeStringify(detail, 2)}`;
  return textAndData(text, { ...index, runs: [detail] });
}

function diffCommand(ctx: SurfaceContext, args: JsonObject): CallToolResult {
  const fromRef = optionalRunRef(args, 'from', '-2') ?? '-2';
  const toRef = optionalRunRef(args, 'to', '-1') ?? '-1';
  const from = ctx.history.find(fromRef);
  if (!from) throw runNotFound(ctx, 'from', fromRef);
  const to = ctx.history.find(toRef);
  if (!to) throw runNotFound(ctx, 'to', toRef);
  const diff = diffRuns(from, to);
  const data = {
    verdict: diff.verdict,
    from: runIndexEntry(from),
    to: runIndexEntry(to),
    same_tool: diff.sameTool,
    status_changed: diff.statusChanged,
    inputs_differ: diff.inputsDiffer,
    results_differ: diff.resultsDiffer,
    input: diff.input,
    result: diff.result,
    truncated: diff.truncated,
    masked_input_fields: diff.maskedInputFields,
    masked_result_fields: diff.maskedResultFields,
    scope: scopeName(ctx.history.scope()),
    process_started_at: ctx.startedAt.toISOString(),
    note: historyScopeNote(ctx.startedAt, ctx.history.scope()),
  };
  return textAndData(`${formatRunDiff(diff)}\n${historyScopeNote(ctx.startedAt, ctx.history.scope())}`, data);
}

/** Executes one meta-tool call. Every failure, including a malformed call, is an isError result, never a throw. */
export async function callMetaTool(
  ctx: SurfaceContext,
  rawArgs: unknown,
  extra: CallExtra,
  role: MetaToolRole = 'single',
): Promise<CallToolResult> {
  try {
    const { command, args } = parseArguments(rawArgs);
    if (!ROLE_COMMANDS[role].includes(command)) {
      const other = role === 'discovery' ? runnerToolName(ctx.names.metaToolName) : ctx.names.metaToolName;
      throw invalid(
        'command',
        `${JSON.stringify(command)} is a command of the ${other} tool; this one takes ${ROLE_COMMANDS[role].join(', ')}.`,
        { use_tool: other },
      );
    }
    switch (command) {
      case 'search':
        return searchCommand(ctx, args);
      case 'list':
        return listCommand(ctx);
      case 'schema':
        return schemaCommand(ctx, args);
      case 'run':
        return await runCommand(ctx, args, extra);
      case 'batch':
        return await batchCommand(ctx, args, extra);
      case 'history':
        return historyCommand(ctx, args);
      case 'diff':
        return diffCommand(ctx, args);
    }
  } catch (error) {
    if (error instanceof CommandFailure) return failureResult(error.failure);
    throw error;
  }
}
