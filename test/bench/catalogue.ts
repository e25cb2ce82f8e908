// Deterministic synthetic catalogues for the benchmark: realistic manifests (nested objects, arrays, enums, formats,
// oneOf, $ref to $defs, a recursive ref, prose descriptions) with an example and a runnable source per tool.
// Tool i depends only on i, so the 31-tool catalogue is a prefix of the 300-tool one, which is a prefix of 3,000.

import type { JsonObject, Manifest } from '../../src/runtime/shared/contracts.js';

export const BUNDLE_FORMAT = 'nexusbloom-catalogue/1';

export interface SyntheticBundle {
  format: typeof BUNDLE_FORMAT;
  tools: Manifest[];
}

/** A schema together with a value that satisfies it, so every example validates by construction. */
interface Sampled {
  schema: JsonObject;
  sample: unknown;
}

/** Small seeded PRNG (mulberry32): fast, good enough for picking shapes, identical on every machine. */
class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** `count` distinct items, in the order drawn. */
  distinct<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length > 0) out.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0] as T);
    return out;
  }
}

const CATEGORIES = ['text', 'data', 'network', 'security', 'devops', 'time', 'math', 'media', 'code', 'finance', 'commerce', 'support'];
const VERBS = [
  'validate',
  'convert',
  'format',
  'parse',
  'generate',
  'compare',
  'extract',
  'analyze',
  'encode',
  'decode',
  'summarize',
  'lookup',
  'normalize',
  'merge',
  'split',
  'score',
  'resolve',
  'export',
];
const OBJECTS = [
  'json',
  'yaml',
  'csv',
  'url',
  'email',
  'invoice',
  'address',
  'color',
  'cron',
  'semver',
  'regex',
  'token',
  'certificate',
  'timezone',
  'currency',
  'markdown',
  'image',
  'log',
  'dns-record',
  'ip',
  'uuid',
  'password',
  'schema',
  'config',
  'env',
  'order',
  'customer',
  'ticket',
  'metric',
  'report',
  'webhook',
  'changelog',
  'sitemap',
  'barcode',
];
const TAG_WORDS = [
  'fast',
  'batch',
  'strict',
  'offline',
  'pure',
  'lint',
  'audit',
  'i18n',
  'unicode',
  'ci',
  'api',
  'files',
  'crypto',
  'stats',
  'dates',
  'money',
  'web',
  'devtools',
  'docs',
  'privacy',
];
const FIELD_NAMES = [
  'text',
  'input',
  'url',
  'email',
  'format',
  'mode',
  'limit',
  'offset',
  'locale',
  'timezone',
  'currency',
  'amount',
  'tags',
  'items',
  'options',
  'filters',
  'target',
  'source',
  'threshold',
  'include_metadata',
  'strict',
  'encoding',
  'max_results',
  'created_after',
  'owner',
  'callback_url',
  'language',
  'title',
  'priority',
  'labels',
  'notes',
  'quantity',
  'precision',
  'separator',
  'pattern',
  'delimiter',
  'retries',
  'id',
  'reference',
  'region',
  'sort',
  'fields',
];
const NESTED_FIELD_NAMES = ['name', 'value', 'kind', 'enabled', 'weight', 'path', 'key', 'unit', 'min', 'max', 'label', 'note'];
const ENUMS: readonly (readonly string[])[] = [
  ['json', 'yaml', 'csv', 'text'],
  ['strict', 'lenient', 'auto'],
  ['asc', 'desc'],
  ['low', 'normal', 'high', 'urgent'],
  ['utf-8', 'latin1', 'ascii', 'base64'],
  ['summary', 'full', 'none'],
];
const FORMATS: ReadonlyArray<{ format: string; sample: string }> = [
  { format: 'email', sample: 'ada@example.com' },
  { format: 'uri', sample: 'https://example.com/a/b?c=d' },
  { format: 'date-time', sample: '2024-03-05T10:20:30Z' },
  { format: 'date', sample: '2024-03-05' },
  { format: 'uuid', sample: '123e4567-e89b-12d3-a456-426614174000' },
  { format: 'ipv4', sample: '192.0.2.10' },
  { format: 'hostname', sample: 'api.example.com' },
];
const PHRASES = [
  'It reports every problem it finds, with the JSON pointer of each one.',
  "Use it when you're reviewing a pull request or preparing a release.",
  'Results are deterministic: the same input always gives the same output.',
  'Large inputs are streamed, so memory stays flat even for multi-megabyte documents.',
  'Handles "smart quotes", emoji and right-to-left scripts.',
  'The `strict` option rejects anything the spec calls ambiguous.',
  "Doesn't call any external service; everything runs locally.",
  'Pair it with the matching export tool to round-trip data between formats.',
  'Returns a summary line suitable for a CI log, plus the detailed findings.',
  'Rate limits apply per API key; anonymous use gets the free tier.',
];

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function describeField(name: string, rng: Random): string {
  return rng.pick([
    `The ${name.replace(/_/g, ' ')} to use.`,
    `Optional ${name.replace(/_/g, ' ')}; defaults are sensible for most inputs.`,
    `Which ${name.replace(/_/g, ' ')} the tool should work on.`,
    `${capitalize(name.replace(/_/g, ' '))} (see the tool's guide for accepted values).`,
  ]);
}

/** Root-level definitions a schema collects while its properties are made. */
type Defs = Map<string, JsonObject>;

function leaf(rng: Random, name: string): Sampled {
  const description = describeField(name, rng);
  switch (rng.int(0, 6)) {
    case 0: {
      const f = rng.pick(FORMATS);
      return { schema: { type: 'string', format: f.format, description }, sample: f.sample };
    }
    case 1: {
      const values = rng.pick(ENUMS);
      return { schema: { type: 'string', enum: [...values], default: values[0], description }, sample: values[values.length - 1] };
    }
    case 2: {
      const min = rng.int(0, 5);
      const max = min + rng.int(10, 1000);
      return { schema: { type: 'integer', minimum: min, maximum: max, description }, sample: min + 1 };
    }
    case 3:
      return { schema: { type: 'number', exclusiveMinimum: 0, description }, sample: 2.5 };
    case 4:
      return { schema: { type: 'boolean', default: false, description }, sample: true };
    default:
      return { schema: { type: 'string', minLength: 1, maxLength: rng.int(64, 10_000), description }, sample: `sample ${name}` };
  }
}

function objectOf(rng: Random, names: readonly string[], depth: number, defs: Defs): Sampled {
  const fields = rng.distinct(names, rng.int(2, 4));
  const properties: JsonObject = {};
  const sample: JsonObject = {};
  for (const field of fields) {
    const made = depth > 0 && rng.chance(0.25) ? objectOf(rng, NESTED_FIELD_NAMES, depth - 1, defs) : leaf(rng, field);
    properties[field] = made.schema;
    sample[field] = made.sample;
  }
  const required = fields.filter((_, i) => i === 0 || rng.chance(0.3));
  return { schema: { type: 'object', properties, required, additionalProperties: false }, sample };
}

function shaped(rng: Random, name: string, defs: Defs): Sampled {
  switch (rng.int(0, 9)) {
    case 0: {
      const item = leaf(rng, name);
      return {
        schema: { type: 'array', items: item.schema, minItems: 1, maxItems: 100, description: describeField(name, rng) },
        sample: [item.sample],
      };
    }
    case 1: {
      const item = objectOf(rng, NESTED_FIELD_NAMES, 1, defs);
      return { schema: { type: 'array', items: item.schema, description: describeField(name, rng) }, sample: [item.sample, item.sample] };
    }
    case 2: {
      const made = objectOf(rng, NESTED_FIELD_NAMES, 2, defs);
      return { schema: { ...made.schema, description: describeField(name, rng) }, sample: made.sample };
    }
    case 3: {
      // A tagged union, as APIs spell "either a URL or inline content".
      const variants = [
        {
          type: 'object',
          properties: { kind: { const: 'url' }, url: { type: 'string', format: 'uri' } },
          required: ['kind', 'url'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { kind: { const: 'inline' }, content: { type: 'string' }, encoding: { type: 'string', enum: ['utf-8', 'base64'] } },
          required: ['kind', 'content'],
          additionalProperties: false,
        },
      ];
      return { schema: { oneOf: variants, description: describeField(name, rng) }, sample: { kind: 'inline', content: 'hello' } };
    }
    case 4: {
      defs.set('money', {
        type: 'object',
        description: 'An amount of money in minor units.',
        properties: { amount_minor: { type: 'integer' }, currency: { type: 'string', pattern: '^[A-Z]{3}$' } },
        required: ['amount_minor', 'currency'],
        additionalProperties: false,
      });
      return { schema: { $ref: '#/$defs/money' }, sample: { amount_minor: 1999, currency: 'EUR' } };
    }
    case 5: {
      defs.set('address', {
        type: 'object',
        properties: {
          line1: { type: 'string' },
          city: { type: 'string' },
          postcode: { type: 'string' },
          country: { type: 'string', minLength: 2, maxLength: 2, description: 'ISO 3166-1 alpha-2 code.' },
        },
        required: ['line1', 'country'],
      });
      return { schema: { type: 'array', items: { $ref: '#/$defs/address' } }, sample: [{ line1: '1 Main St', country: 'GB' }] };
    }
    default:
      return leaf(rng, name);
  }
}

/** A tree of named nodes: the recursive `$ref` that type generators and validators must handle. */
function recursiveNode(defs: Defs): Sampled {
  defs.set('node', {
    type: 'object',
    description: 'A node of the tree; children are nodes too.',
    properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
    required: ['name'],
  });
  return { schema: { $ref: '#/$defs/node' }, sample: { name: 'root', children: [{ name: 'leaf', children: [] }] } };
}

function inputSchema(rng: Random, index: number): Sampled {
  const defs: Defs = new Map();
  const fields = rng.distinct(FIELD_NAMES, rng.int(3, 9));
  const properties: JsonObject = {};
  const sample: JsonObject = {};
  for (const field of fields) {
    const made = shaped(rng, field, defs);
    properties[field] = made.schema;
    sample[field] = made.sample;
  }
  // Tool 0 always has one, so even the smallest catalogue carries a recursive ref; about one tool in ten elsewhere.
  if (index === 0 || rng.chance(0.1)) {
    const made = recursiveNode(defs);
    properties.tree = made.schema;
    sample.tree = made.sample;
  }
  const required = fields.filter((_, i) => i === 0 || rng.chance(0.25));
  const schema: JsonObject = { type: 'object', properties, required };
  if (defs.size > 0) schema.$defs = Object.fromEntries([...defs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { schema, sample };
}

function outputSchema(rng: Random): Sampled {
  const item = objectOf(rng, NESTED_FIELD_NAMES, 0, new Map());
  return {
    schema: {
      type: 'object',
      properties: {
        ok: { type: 'boolean' },
        summary: { type: 'string', description: 'One line for a log.' },
        count: { type: 'integer', minimum: 0 },
        items: { type: 'array', items: item.schema },
        meta: { type: 'object', properties: { took_ms: { type: 'number' }, warnings: { type: 'array', items: { type: 'string' } } } },
      },
      required: ['ok', 'summary', 'count', 'items'],
    },
    sample: { ok: true, summary: 'done', count: 1, items: [item.sample], meta: { took_ms: 1.5, warnings: [] } },
  };
}

/** Tool `index` of every synthetic catalogue; `slugCounts` de-duplicates verb-object pairs in index order. */
function syntheticTool(index: number, slugCounts: Map<string, number>): Manifest {
  const rng = new Random(0x9e3779b9 ^ Math.imul(index + 1, 0x85ebca6b));
  const verb = rng.pick(VERBS);
  const object = rng.pick(OBJECTS);
  const base = `${verb}-${object}`;
  const seen = slugCounts.get(base) ?? 0;
  slugCounts.set(base, seen + 1);
  const slug = seen === 0 ? base : `${base}-${seen + 1}`;
  const input = inputSchema(rng, index);
  const output = outputSchema(rng);
  const phrases = rng.distinct(PHRASES, rng.int(1, 3)).join(' ');
  const manifest: Manifest = {
    slug,
    name: `${capitalize(verb)} ${object.replace(/-/g, ' ').toUpperCase()}${seen === 0 ? '' : ` (${seen + 1})`}`,
    description: `${capitalize(verb)}s ${object.replace(/-/g, ' ')} data. ${phrases}`,
    category: rng.pick(CATEGORIES),
    tags: [object, verb, ...rng.distinct(TAG_WORDS, rng.int(1, 3))],
    version: `${rng.int(0, 3)}.${rng.int(0, 20)}.${rng.int(0, 9)}`,
    input_schema: input.schema,
    output_schema: output.schema,
    annotations: { readOnlyHint: rng.chance(0.7), destructiveHint: false, idempotentHint: true, openWorldHint: rng.chance(0.2) },
    examples: [{ title: `Typical ${verb}`, params: input.sample as JsonObject, result: output.sample }],
    source: {
      runtime: 'node',
      // The result is the example's, as JSON text parsed at run time: no catalogue text is spliced into code.
      code: `'use strict';\nconst RESULT = ${JSON.stringify(JSON.stringify(output.sample))};\nexports.run = function run() {\n  return JSON.parse(RESULT);\n};\n`,
    },
  };
  if (index % 97 === 50) manifest.deprecated = `Use ${verb}-${object} instead.`;
  return manifest;
}

/** The first `size` synthetic tools as a bundle. Same size, same bytes. */
export function syntheticCatalogue(size: number): SyntheticBundle {
  if (!Number.isInteger(size) || size < 1) throw new Error(`catalogue size must be a positive integer, got ${size}`);
  const slugCounts = new Map<string, number>();
  const tools: Manifest[] = [];
  for (let i = 0; i < size; i += 1) tools.push(syntheticTool(i, slugCounts));
  return { format: BUNDLE_FORMAT, tools };
}

/** The bundle as file text: two-space JSON, LF, final newline. */
export function bundleText(bundle: SyntheticBundle): string {
  return `${JSON.stringify(bundle, null, 2)}\n`;
}

/** The same bundle with one tool's description changed (its docs alone): input for the one-tool-changed regeneration. */
export function withOneToolChanged(bundle: SyntheticBundle, round: number): SyntheticBundle {
  const index = Math.floor(bundle.tools.length / 2);
  const tools = bundle.tools.map((tool, i) => (i === index ? { ...tool, description: `${tool.description} Revision ${round}.` } : tool));
  return { format: bundle.format, tools };
}

/**
 * The same bundle with one tool's input schema changed (a new optional property, so its types change and the package
 * is type-checked again): input for the one-tool schema change with compile.
 */
export function withOneToolsSchemaChanged(bundle: SyntheticBundle, round: number): SyntheticBundle {
  const index = Math.floor(bundle.tools.length / 2);
  const tools = bundle.tools.map((tool, i) => {
    if (i !== index) return tool;
    const schema = tool.input_schema as { properties?: Record<string, unknown> };
    const properties = { ...schema.properties, [`revision_${round}`]: { type: 'string', description: `Revision ${round}.` } };
    return { ...tool, input_schema: { ...tool.input_schema, properties } };
  });
  return { format: bundle.format, tools };
}
