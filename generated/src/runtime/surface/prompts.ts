// MCP prompts assembled against the live catalogue, so every tool they name exists and every call they carry validates.
import { ErrorCode, type GetPromptResult, type ListPromptsResult } from '@modelcontextprotocol/sdk/types.js';
import { ERROR_RETRYABLE, ProtocolError, type ErrorCode as ToolErrorCode, type ServedTool } from '../shared/contracts.js';
import { callFor, inputFields, parameterCounts, validExampleArguments, type ExampleCall } from '../schema/call-shape.js';
import { ERROR_ADVICE, ERROR_CODES, errorCodeTable, MAX_BATCH_RUNS } from './guide.js';
import { safeStringify } from '../secrets/redact.js';
import { agentResolveOptions, closestSlugs, resolveSlug } from '../catalogue/resolve.js';
import type { SearchHit } from '../search/index.js';
import { runnerToolName, toolUri, type SurfaceContext } from './context.js';

/** Tools a find-tool or plan-batch prompt offers. */
const PROMPT_CANDIDATES = 5;
/** A candidate scoring below this share of the best one is noise (a lone synonym hit) and is left out. */
const MIN_SHARE_OF_BEST = 0.25;

/** Search hits worth putting in front of a model: close enough to the best, optionally without deprecated tools. */
function promptCandidates(ctx: SurfaceContext, text: string, skipDeprecated: boolean): SearchHit[] {
  const deprecated = new Set(
    ctx
      .getTools()
      .tools.filter((tool) => typeof tool.manifest.deprecated === 'string')
      .map((tool) => tool.slug),
  );
  const hits = ctx.search.search(text, PROMPT_CANDIDATES * 2).filter((hit) => !skipDeprecated || !deprecated.has(hit.slug));
  const best = hits[0]?.score ?? 0;
  return hits.filter((hit) => hit.score >= best * MIN_SHARE_OF_BEST).slice(0, PROMPT_CANDIDATES);
}

/** Which argument of which prompt takes a slug (for completion). */
export const PROMPT_SLUG_ARGUMENTS: Readonly<Record<string, string>> = { 'use-tool': 'slug', recover: 'slug' };

export function listPrompts(): ListPromptsResult {
  return {
    prompts: [
      {
        name: 'find-tool',
        title: 'Find a tool for a goal',
        description: "Tools matching a goal, ranked, with each one's parameter cost, manifest URI and the call that shows its schema.",
        arguments: [{ name: 'goal', description: 'What you want to get done, in plain words.', required: true }],
      },
      {
        name: 'use-tool',
        title: 'Use one tool',
        description: "One tool's exact parameters, its output schema and a valid call to copy. The slug must match exactly.",
        arguments: [{ name: 'slug', description: 'The exact tool slug.', required: true }],
      },
      {
        name: 'plan-batch',
        title: 'Plan a batch',
        description: `Likely tools for a task, the batch call shape, the ${MAX_BATCH_RUNS}-run cap and the whole-batch validation rule.`,
        arguments: [{ name: 'task', description: 'The task the batch should accomplish.', required: true }],
      },
      {
        name: 'recover',
        title: 'Recover from a failed call',
        description: "What each error code means, which are retryable, what to do, and the failed tool's required fields and call shape.",
        arguments: [
          { name: 'error', description: 'The error code or the whole error returned (e.g. VALIDATION_ERROR).', required: true },
          { name: 'slug', description: 'The slug of the tool that failed.', required: true },
        ],
      },
    ],
  };
}

function requireArgument(args: Record<string, string>, prompt: string, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ProtocolError(ErrorCode.InvalidParams, `Prompt "${prompt}" needs the argument "${name}".`);
  }
  return value;
}

function jsonBlock(call: ExampleCall): string {
  return ['```json', safeStringify(call, 2), '```'].join('\n');
}

function userMessage(description: string, text: string): GetPromptResult {
  return { description, messages: [{ role: 'user', content: { type: 'text', text } }] };
}

function schemaCall(ctx: SurfaceContext, slug: string): ExampleCall {
  return { name: ctx.names.metaToolName, arguments: { command: 'schema', slug } };
}

function fieldLines(tool: ServedTool): string[] {
  const fields = inputFields(tool);
  if (!fields.length) return ['- (no parameters)'];
  return fields.map(
    (field) =>
      `- ${field.name} (${field.type}${field.required ? ', required' : ', optional'})${field.description ? `: ${field.description}` : ''}`,
  );
}

function findTool(ctx: SurfaceContext, goal: string): GetPromptResult {
  const hits = promptCandidates(ctx, goal, false);
  const deprecated = new Map(ctx.getTools().tools.map((tool) => [tool.slug, tool.manifest.deprecated]));
  const lines = [`Goal: ${goal}`, ''];
  if (!hits.length) {
    lines.push(
      'No published tool matches this goal by its words. List every tool and pick by description:',
      jsonBlock({ name: ctx.names.metaToolName, arguments: { command: 'list' } }),
    );
  } else {
    lines.push(`Tools that match, best first (parameter cost = required/total fields):`, '');
    hits.forEach((hit, index) => {
      lines.push(
        `${index + 1}. ${hit.slug}: ${hit.name}. ${hit.description.split('\n')[0] ?? ''}`,
        `   cost: ${hit.requiredParams}/${hit.totalParams} params; manifest: ${toolUri(ctx, hit.slug)}; ${hit.reason}${hit.withheld ? '; not in the tool list, run it through the meta-tool' : ''}${typeof deprecated.get(hit.slug) === 'string' ? `; deprecated: ${String(deprecated.get(hit.slug))}` : ''}`,
      );
    });
    const best = hits[0];
    if (best)
      lines.push('', 'Before calling, read the exact parameters of the tool you choose, e.g.:', jsonBlock(schemaCall(ctx, best.slug)));
  }
  lines.push('', 'Call a tool only with a slug listed here; slugs are never guessed.');
  return userMessage(`Tools for: ${goal}`, lines.join('\n'));
}

function useTool(ctx: SurfaceContext, slug: string): GetPromptResult {
  const resolution = resolveSlug(ctx.getTools(), slug, { ...agentResolveOptions(ctx), exactOnly: true });
  if (!resolution.ok) throw new ProtocolError(ErrorCode.InvalidParams, resolution.failure.error, resolution.failure.details);
  const tool = resolution.tool;
  const example = validExampleArguments(tool, ctx.validator);
  const call = callFor(tool, example.arguments, ctx.names.metaToolName);
  const lines = [
    `Use the tool "${tool.slug}" (${tool.manifest.name}).`,
    String(tool.manifest.description ?? ''),
    ...(typeof tool.manifest.deprecated === 'string' ? [`Deprecated: ${tool.manifest.deprecated}`] : []),
    ...(tool.withheldReason !== null
      ? [`It is not in the tool list (${tool.withheldReason}), so call it through ${ctx.names.metaToolName} with {"command":"run"}.`]
      : []),
    '',
    'Parameters:',
    ...fieldLines(tool),
    '',
    'Input schema:',
    '```json',
    safeStringify(tool.manifest.input_schema ?? { type: 'object', properties: {} }, 2),
    '```',
    'output_schema:',
    '```json',
    safeStringify(tool.manifest.output_schema ?? null, 2),
    '```',
    example.valid ? 'A valid call to copy and adapt:' : 'Call shape (fill in the required fields; this example does not validate as is):',
    jsonBlock(call),
  ];
  return userMessage(`How to call ${tool.slug}`, lines.join('\n'));
}

function planBatch(ctx: SurfaceContext, task: string): GetPromptResult {
  const hits = promptCandidates(ctx, task, true);
  const tools = ctx.getTools();
  const runs: { slug: string; params: Record<string, unknown> }[] = [];
  const lines = [`Task: ${task}`, ''];
  if (hits.length) {
    lines.push('Likely participants (required/total params):');
    for (const hit of hits) {
      lines.push(`- ${hit.slug}: ${hit.description.split('\n')[0] ?? ''} [${hit.requiredParams}/${hit.totalParams}]`);
      const tool = tools.bySlug(hit.slug);
      const example = tool ? validExampleArguments(tool, ctx.validator) : undefined;
      if (example?.valid && runs.length < MAX_BATCH_RUNS) runs.push({ slug: hit.slug, params: example.arguments });
    }
  } else {
    lines.push('No tool matches the task by its words; search with other words or list every tool first.');
  }
  lines.push(
    '',
    `Rules: a batch holds at most ${MAX_BATCH_RUNS} runs. Every slug and every input is validated before the first run;`,
    'one invalid item rejects the whole batch (the error names its index) and nothing runs. After that, runs are',
    'independent: a failing run does not discard the others, failures are listed first, every payload is kept in order.',
    ...(ctx.confirmation !== undefined && ctx.confirmation.mode !== 'off'
      ? [
          'A run of a tool that may change or delete data first asks the user to confirm (one question for the whole batch);',
          'when the client cannot be asked, the batch answers CONFIRMATION_REQUIRED, runs nothing, and names the tools to call directly.',
        ]
      : []),
    '',
    'Batch call shape (example params validate; replace them with the real values, keep only the tools you need):',
    jsonBlock({
      name: ctx.surfaceMode === 'split' ? runnerToolName(ctx.names.metaToolName) : ctx.names.metaToolName,
      arguments: { command: 'batch', runs },
    }),
  );
  if (!runs.length) lines.push('(No runs shown: check each tool\'s parameters with {"command":"schema"} first.)');
  return userMessage(`Batch plan for: ${task}`, lines.join('\n'));
}

/** The error code named in free text: a code itself, a JSON envelope, or a message that mentions one. */
export function errorCodeIn(text: string): ToolErrorCode | null {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && 'code' in parsed) {
      const code = (parsed as { code: unknown }).code;
      if (typeof code === 'string' && code in ERROR_ADVICE) return code as ToolErrorCode;
    }
  } catch {
    // Not JSON: look for a code in the prose.
  }
  const upper = text.toUpperCase();
  return ERROR_CODES.find((code) => upper.includes(code)) ?? null;
}

function recover(ctx: SurfaceContext, error: string, slug: string): GetPromptResult {
  const code = errorCodeIn(error);
  const lines = [`A call failed. Error: ${error}`, ''];
  if (code) {
    lines.push(
      `Code ${code} (${ERROR_RETRYABLE[code] ? 'retryable' : 'not retryable'}): ${ERROR_ADVICE[code].meaning}`,
      `What to do: ${ERROR_ADVICE[code].action}`,
      ERROR_RETRYABLE[code] ? 'A retry may succeed unchanged.' : 'Do not retry the same call unchanged: it will fail the same way.',
      '',
    );
  }
  lines.push('All error codes:', errorCodeTable(), '');
  const tools = ctx.getTools();
  const resolution = resolveSlug(tools, slug, { exactOnly: true });
  if (resolution.ok) {
    const tool = resolution.tool;
    const counts = parameterCounts(tool);
    const example = validExampleArguments(tool, ctx.validator);
    const required = inputFields(tool)
      .filter((field) => field.required)
      .map((field) => field.name);
    lines.push(
      `The tool "${tool.slug}" takes ${counts.total} parameters; required: ${required.length ? required.join(', ') : 'none'}.`,
      ...fieldLines(tool),
      '',
      example.valid ? 'Its real call shape (a call that validates):' : 'Its call shape (fill in the required fields):',
      jsonBlock(callFor(tool, example.arguments, ctx.names.metaToolName)),
    );
  } else {
    const closest = closestSlugs(tools.tools, slug);
    lines.push(
      `No tool has the exact slug ${JSON.stringify(slug)}.${closest.length ? ` Closest: ${closest.join(', ')}.` : ''} Do not guess: search by what you want to do.`,
      jsonBlock({ name: ctx.names.metaToolName, arguments: { command: 'search', query: slug } }),
    );
    const best = closest[0];
    if (best !== undefined) lines.push('Or read the exact parameters of the closest match:', jsonBlock(schemaCall(ctx, best)));
  }
  return userMessage(`Recovering from ${code ?? 'an error'}${slug ? ` in ${slug}` : ''}`, lines.join('\n'));
}

export function getPrompt(ctx: SurfaceContext, name: string, args: Record<string, string>): GetPromptResult {
  switch (name) {
    case 'find-tool':
      return findTool(ctx, requireArgument(args, name, 'goal'));
    case 'use-tool':
      return useTool(ctx, requireArgument(args, name, 'slug'));
    case 'plan-batch':
      return planBatch(ctx, requireArgument(args, name, 'task'));
    case 'recover':
      return recover(ctx, requireArgument(args, name, 'error'), requireArgument(args, name, 'slug'));
    default:
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Unknown prompt ${JSON.stringify(name)}. Prompts: find-tool, use-tool, plan-batch, recover.`,
      );
  }
}
