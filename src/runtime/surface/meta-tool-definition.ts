// The meta-tool's tools/list entry: its commands, its one flat input schema and its text. Apart from the commands'
// handlers (meta-tool.ts), whose imports (search, history, slug resolution) the generator's token budget, which counts
// this entry, does not load.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_SEARCH_LIMIT, MAX_BATCH_RUNS, MAX_SEARCH_LIMIT } from './guide.js';
import { runnerToolName, type SurfaceContext } from './context.js';
import { metaToolAnnotations } from '../policy/index.js';

export const META_COMMANDS = ['search', 'list', 'schema', 'run', 'batch', 'history', 'diff'] as const;
export type MetaCommand = (typeof META_COMMANDS)[number];

export const META_FIELDS = ['command', 'query', 'limit', 'slug', 'params', 'runs', 'show', 'from', 'to'] as const;
/** Which commands each meta-tool entry takes: the reference's single tool, or the split surface's two. */
export type MetaToolRole = 'single' | 'discovery' | 'runner';
export const ROLE_COMMANDS: Readonly<Record<MetaToolRole, readonly MetaCommand[]>> = {
  single: META_COMMANDS,
  discovery: ['search', 'list', 'schema', 'history', 'diff'],
  runner: ['run', 'batch'],
};
/** The commands each field is for; a role's schema has the fields of its commands only. */
const FIELD_COMMANDS: Readonly<Record<(typeof META_FIELDS)[number], readonly MetaCommand[]>> = {
  command: META_COMMANDS,
  query: ['search'],
  limit: ['search'],
  slug: ['schema', 'run'],
  params: ['run'],
  runs: ['batch'],
  show: ['history'],
  from: ['diff'],
  to: ['diff'],
};

function roleText(ctx: SurfaceContext, role: MetaToolRole): { name: string; title: string; description: string } {
  const { productName, uriScheme, metaToolName } = ctx.names;
  const guide = ` Guide: ${uriScheme}://guide.`;
  const run = `run (one tool, including tools not in the tool list), batch (up to ${MAX_BATCH_RUNS} runs, validated as a whole first)`;
  const discover =
    'search (rank tools by intent), list (every tool), schema (exact parameters and a ready-to-send call), ' +
    'history (runs this server process performed), diff (compare two runs)';
  if (role === 'discovery') {
    return {
      name: metaToolName,
      title: `${productName} tool finder`,
      description: `Find and inspect ${productName} tools when you do not know the exact tool yet; it runs nothing. Commands: ${discover}. Run tools with ${runnerToolName(metaToolName)}.${guide}`,
    };
  }
  if (role === 'runner') {
    return {
      name: runnerToolName(metaToolName),
      title: `${productName} tool runner`,
      description: `Run ${productName} tools by slug. Commands: ${run}. Find tools and their parameters with ${metaToolName} first.${guide}`,
    };
  }
  return {
    name: metaToolName,
    title: `${productName} tool finder and runner`,
    description:
      `Find, inspect and run ${productName} tools when you do not know the exact tool yet. Commands: ` +
      `search (rank tools by intent), list (every tool), schema (exact parameters and a ready-to-send call), ` +
      `${run}, history (runs this server process performed), diff (compare two runs).${guide}`,
  };
}

/** One meta-tool entry; its annotations say what it can reach under the policy (see policy/annotations.ts). */
export function metaToolDefinition(ctx: SurfaceContext, role: MetaToolRole = 'single'): Tool {
  const commands = ROLE_COMMANDS[role];
  const text = roleText(ctx, role);
  const properties: Record<string, object> = {
    command: {
      type: 'string',
      enum: [...commands],
      description: `What to do: ${commands.slice(0, -1).join(', ')} or ${commands[commands.length - 1]}.`,
    },
    query: { type: 'string', description: 'search: what you want to do, in plain words (e.g. "validate env file").' },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_SEARCH_LIMIT,
      description: `search: how many results (default ${DEFAULT_SEARCH_LIMIT}, max ${MAX_SEARCH_LIMIT}).`,
    },
    slug: {
      type: 'string',
      description: `${commands.includes('schema') ? 'schema' : ''}${commands.includes('schema') && commands.includes('run') ? ', ' : ''}${commands.includes('run') ? 'run' : ''}: the tool slug (exact, or an unambiguous prefix).`,
    },
    params: { type: 'object', description: "run: the tool's arguments, as its input schema describes them." },
    runs: {
      type: 'array',
      description: `batch: up to ${MAX_BATCH_RUNS} runs, each {"slug": "...", "params": {...}}. All are validated before any runs.`,
      items: {
        type: 'object',
        properties: {
          slug: { type: 'string', description: 'The tool slug.' },
          params: { type: 'object', description: "The tool's arguments." },
        },
        required: ['slug'],
      },
    },
    show: { type: 'string', description: 'history: a run id (e.g. "r3", or "-1" for the newest) to show in full.' },
    from: { type: 'string', description: 'diff: the earlier run, an id like "r3" or relative like "-2" (default "-2").' },
    to: { type: 'string', description: 'diff: the later run, an id like "r4" or relative like "-1" (default "-1").' },
  };
  for (const field of META_FIELDS) {
    if (!FIELD_COMMANDS[field].some((command) => commands.includes(command))) delete properties[field];
  }
  return {
    name: text.name,
    title: text.title,
    description: text.description,
    inputSchema: { type: 'object', properties, required: ['command'], additionalProperties: false },
    annotations: metaToolAnnotations(text.title, { runnable: role === 'discovery' ? [] : ctx.getTools().tools }),
  };
}
