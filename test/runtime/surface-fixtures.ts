// Test fixtures for the agent surface: a realistic catalogue, an ajv validator and a runner over real functions.
import { createHash } from 'node:crypto';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import {
  toolFailure,
  type InputValidator,
  type JsonObject,
  type Manifest,
  type RunOutcome,
  type ServedTool,
  type ServerNames,
  type ToolRunner,
} from '../../src/runtime/shared/contracts.js';
import { createRunHistory } from '../../src/runtime/history/history.js';
import { createAgentSurface, type AgentSurface, type CallExtra, type SurfaceContext } from '../../src/runtime/surface/surface.js';
import { createToolSearch } from '../../src/runtime/search/index.js';
import { toolList } from '../../src/runtime/catalogue/slug-index.js';
import { testNames } from './core-fixtures.js';

/** The core tests' names, at the version the surface's expected texts carry. */
export const NAMES: ServerNames = { ...testNames, packageVersion: '1.0.0' };

type ManifestInput = Partial<Manifest> & Pick<Manifest, 'slug' | 'name' | 'description' | 'category' | 'tags'>;

function manifest(input: ManifestInput): Manifest {
  return { version: '1.0.0', input_schema: null, output_schema: null, ...input };
}

const str = (description: string, extra: JsonObject = {}): JsonObject => ({ type: 'string', description, ...extra });
const obj = (properties: JsonObject, required: string[] = []): JsonObject => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/** A catalogue shaped like a real one: prose descriptions, tags, nested and $ref schemas, withheld slugs. */
export const MANIFESTS: Manifest[] = [
  manifest({
    slug: 'env-validator',
    name: 'Env Validator',
    category: 'config',
    tags: ['dotenv', 'configuration', 'lint'],
    description: 'Validates a .env file against a list of required keys and reports missing, empty or duplicated variables.',
    input_schema: obj(
      {
        env_content: str('Contents of the .env file.'),
        required_keys: { type: 'array', items: { type: 'string' }, description: 'Keys that must be present.' },
        allow_empty: { type: 'boolean', default: false, description: 'Accept keys with empty values.' },
      },
      ['env_content'],
    ),
    output_schema: obj(
      {
        valid: { type: 'boolean' },
        missing: { type: 'array', items: { type: 'string' } },
        empty: { type: 'array', items: { type: 'string' } },
      },
      ['valid', 'missing'],
    ),
    examples: [{ title: 'Missing key', params: { env_content: 'DEBUG=true', required_keys: ['DEBUG', 'PORT'] } }],
  }),
  manifest({
    slug: 'data-generator',
    name: 'Data Generator',
    category: 'testing',
    tags: ['mock', 'fixtures', 'faker'],
    description: 'Generates realistic mock records (names, emails, addresses) for seeding databases and tests.',
    input_schema: obj(
      {
        count: { type: 'integer', minimum: 1, maximum: 1000, description: 'How many records.' },
        locale: { type: 'string', enum: ['en', 'de', 'fr'], description: 'Locale of names and addresses.' },
        seed: { type: 'integer', description: 'Seed for reproducible output.' },
      },
      ['count'],
    ),
  }),
  manifest({
    slug: 'jwt-decoder',
    name: 'JWT Decoder',
    category: 'security',
    tags: ['jwt', 'token', 'auth'],
    description: 'Decodes a JSON Web Token and shows its header, payload and expiry without verifying the signature.',
    input_schema: obj({ token: str('The encoded JWT.', { minLength: 5 }) }, ['token']),
  }),
  manifest({
    slug: 'json-formatter',
    name: 'JSON Formatter',
    category: 'formatting',
    tags: ['json', 'pretty-print'],
    description: 'Pretty-prints or minifies JSON with configurable indentation.',
    input_schema: obj(
      {
        json: str('The JSON text.'),
        indent: { type: 'integer', minimum: 0, maximum: 8, default: 2, description: 'Spaces per level.' },
        minify: { type: 'boolean', description: 'Remove all whitespace instead.' },
      },
      ['json'],
    ),
  }),
  manifest({
    slug: 'json-schema-validator',
    name: 'JSON Schema Validator',
    category: 'validation',
    tags: ['json', 'schema'],
    description: 'Validates a JSON document against a JSON Schema and reports each violation with its path.',
    input_schema: obj(
      { document: { description: 'The JSON value to check.' }, schema: { type: 'object', description: 'The JSON Schema.' } },
      ['document', 'schema'],
    ),
  }),
  manifest({
    slug: 'json/format',
    name: 'JSON Format (legacy path)',
    category: 'formatting',
    tags: ['legacy'],
    description: 'Old alias of the JSON formatter, kept for early clients.',
    deprecated: 'Use json-formatter.',
    input_schema: obj({ json: str('The JSON text.') }, ['json']),
  }),
  manifest({
    slug: 'Env Validator',
    name: 'Env Validator (legacy)',
    category: 'config',
    tags: ['legacy'],
    description: 'The first version of the env checker, published before slugs were normalized.',
    deprecated: 'Use env-validator.',
    input_schema: obj({ env_content: str('Contents of the .env file.') }, ['env_content']),
  }),
  manifest({
    slug: 'yaml-to-json',
    name: 'YAML to JSON',
    category: 'conversion',
    tags: ['yaml', 'json'],
    description: 'Converts YAML documents to JSON.',
    input_schema: obj({ yaml: str('The YAML text.') }, ['yaml']),
  }),
  manifest({
    slug: 'base64-codec',
    name: 'Base64 Encoder/Decoder',
    category: 'encoding',
    tags: ['base64'],
    description: 'Encodes text to Base64 or decodes Base64 back to text.',
    input_schema: obj({ text: str('Input text.'), mode: { type: 'string', enum: ['encode', 'decode'], description: 'Direction.' } }, [
      'text',
      'mode',
    ]),
  }),
  manifest({
    slug: 'hash-generator',
    name: 'Hash Generator',
    category: 'security',
    tags: ['sha256', 'md5', 'checksum'],
    description: 'Computes MD5, SHA-1 or SHA-256 digests of a string.',
    input_schema: obj(
      { input: str('Text to hash.'), algorithm: { type: 'string', enum: ['sha256', 'sha1', 'md5'], description: 'Digest algorithm.' } },
      ['input'],
    ),
    output_schema: obj({ digest: { type: 'string' }, algorithm: { type: 'string' } }, ['digest']),
  }),
  manifest({
    slug: 'uuid-generator',
    name: 'UUID Generator',
    category: 'generators',
    tags: ['uuid', 'id'],
    description: 'Creates random version 4 UUIDs.',
    input_schema: obj({ count: { type: 'integer', minimum: 1, maximum: 100, description: 'How many.' } }),
  }),
  manifest({
    slug: 'regex-tester',
    name: 'Regex Tester',
    category: 'text',
    tags: ['regex', 'pattern'],
    description: 'Tests a regular expression against sample text and lists every match with its groups.',
    input_schema: obj(
      {
        pattern: str('The expression, without slashes.'),
        text: str('Text to search.'),
        flags: str('Flags such as gi.', { pattern: '^[gimsuy]*$' }),
      },
      ['pattern', 'text'],
    ),
  }),
  manifest({
    slug: 'cron-parser',
    name: 'Cron Expression Explainer',
    category: 'scheduling',
    tags: ['cron'],
    description: 'Explains a cron expression in plain English and lists its next run times.',
    input_schema: obj(
      {
        expression: str('Five-field cron expression.'),
        count: { type: 'integer', minimum: 1, maximum: 20, description: 'Next run times to list.' },
      },
      ['expression'],
    ),
  }),
  manifest({
    slug: 'password-generator',
    name: 'Password Generator',
    category: 'security',
    tags: ['password'],
    description: 'Generates strong random passwords of a chosen length and character set.',
    input_schema: obj(
      {
        length: { type: 'integer', minimum: 8, maximum: 128, description: 'Length.' },
        symbols: { type: 'boolean', description: 'Include symbols.' },
      },
      ['length'],
    ),
  }),
  manifest({
    slug: 'url-parser',
    name: 'URL Parser',
    category: 'web',
    tags: ['url', 'query-string'],
    description: 'Splits a URL into protocol, host, path and query parameters.',
    input_schema: obj({ url: str('The URL.', { format: 'uri' }) }, ['url']),
  }),
  manifest({
    slug: 'timestamp-converter',
    name: 'Timestamp Converter',
    category: 'time',
    tags: ['unix', 'epoch', 'date'],
    description: 'Converts Unix timestamps to ISO 8601 dates and back, in any time zone.',
    input_schema: obj(
      {
        value: { type: ['string', 'number'], description: 'A Unix timestamp or an ISO date.' },
        timezone: { type: 'string', enum: ['UTC', 'Europe/Berlin', 'America/New_York'], description: 'Zone.' },
      },
      ['value'],
    ),
  }),
  manifest({
    slug: 'markdown-to-html',
    name: 'Markdown to HTML',
    category: 'conversion',
    tags: ['markdown', 'html'],
    description: 'Renders Markdown to sanitized HTML.',
    input_schema: obj({ markdown: str('Markdown source.') }, ['markdown']),
  }),
  manifest({
    slug: 'csv-to-json',
    name: 'CSV to JSON',
    category: 'conversion',
    tags: ['csv', 'json', 'spreadsheet'],
    description: 'Parses CSV text into an array of JSON objects using the header row.',
    input_schema: obj({ csv: str('CSV text.'), delimiter: str('Field delimiter.', { maxLength: 1, default: ',' }) }, ['csv']),
  }),
  manifest({
    slug: 'diff-checker',
    name: 'Text Diff',
    category: 'text',
    tags: ['diff', 'compare'],
    description: 'Shows the line-by-line differences between two texts.',
    input_schema: obj({ original: str('First text.'), modified: str('Second text.') }, ['original', 'modified']),
  }),
  manifest({
    slug: 'color-converter',
    name: 'Color Converter',
    category: 'design',
    tags: ['hex', 'rgb', 'hsl'],
    description: 'Converts colours between HEX, RGB and HSL.',
    input_schema: obj({ color: str('A colour such as #ff8800.', { pattern: '^#[0-9a-fA-F]{6}$' }) }, ['color']),
    examples: [
      { title: 'Not a colour (broken example)', params: { color: 'orange' } },
      { title: 'Orange', params: { color: '#ff8800' } },
    ],
  }),
  manifest({
    slug: 'sql-formatter',
    name: 'SQL Formatter',
    category: 'formatting',
    tags: ['sql', 'database'],
    description: 'Formats SQL queries with consistent indentation and keyword case.',
    input_schema: obj(
      { sql: str('The SQL.'), dialect: { type: 'string', enum: ['postgresql', 'mysql', 'sqlite'], description: 'Dialect.' } },
      ['sql'],
    ),
  }),
  manifest({
    slug: 'package-json-auditor',
    name: 'package.json Auditor',
    category: 'node',
    tags: ['npm', 'dependencies'],
    description: 'Checks a package.json for outdated, duplicated or missing dependencies.',
    input_schema: obj({ package_json: str('Contents of package.json.') }, ['package_json']),
  }),
  manifest({
    slug: 'dockerfile-linter',
    name: 'Dockerfile Linter',
    category: 'devops',
    tags: ['docker', 'container'],
    description: 'Lints a Dockerfile for common mistakes and security issues.',
    input_schema: obj({ dockerfile: str('Dockerfile text.') }, ['dockerfile']),
  }),
  manifest({
    slug: 'word-counter',
    name: 'Word Counter',
    category: 'text',
    tags: ['words', 'characters', 'reading-time'],
    description: 'Counts words, characters, sentences and estimated reading time of a text.',
    input_schema: obj({ text: str('The text.') }, ['text']),
    output_schema: obj({ words: { type: 'integer' }, characters: { type: 'integer' } }, ['words', 'characters']),
  }),
  manifest({
    slug: 'slugify',
    name: 'Slugify',
    category: 'text',
    tags: ['slug', 'url'],
    description: 'Turns a title into a URL-friendly slug.',
    input_schema: obj({ text: str('The title.'), separator: str('Separator.', { default: '-' }) }, ['text']),
  }),
  manifest({
    slug: 'html-minifier',
    name: 'HTML Minifier',
    category: 'web',
    tags: ['html', 'minify'],
    description: 'Minifies HTML by removing whitespace and comments.',
    input_schema: obj({ html: str('The HTML.') }, ['html']),
  }),
  manifest({
    slug: 'lorem-ipsum',
    name: 'Lorem Ipsum Generator',
    category: 'generators',
    tags: ['placeholder', 'text'],
    description: 'Generates placeholder paragraphs of lorem ipsum text.',
    input_schema: obj({ paragraphs: { type: 'integer', minimum: 1, maximum: 20, description: 'How many.' } }),
  }),
  manifest({
    slug: 'ts-type-generator',
    name: 'TypeScript Type Generator',
    category: 'codegen',
    tags: ['typescript', 'types', 'json'],
    description: 'Infers TypeScript interfaces from a sample JSON value.',
    input_schema: {
      type: 'object',
      properties: { json: str('A sample JSON value.'), options: { $ref: '#/$defs/options', description: 'Generation options.' } },
      required: ['json', 'options'],
      $defs: {
        options: {
          type: 'object',
          properties: { root_name: { $ref: '#/$defs/identifier' }, readonly: { type: 'boolean' }, nested: { $ref: '#/$defs/options' } },
          required: ['root_name'],
        },
        identifier: { type: 'string', minLength: 1, default: 'Root' },
      },
    },
  }),
  manifest({
    slug: 'secret-scanner',
    name: 'Secret Scanner',
    category: 'security',
    tags: ['credentials', 'leaks'],
    description: 'Scans text or a diff for leaked API keys, tokens and passwords.',
    input_schema: obj({ content: str('Text to scan.') }, ['content']),
  }),
  manifest({
    slug: 'gitignore-generator',
    name: 'gitignore Generator',
    category: 'devops',
    tags: ['git', 'repository'],
    description: 'Builds a .gitignore file for the languages and editors you use.',
    input_schema: obj(
      { templates: { type: 'array', minItems: 1, items: { type: 'string' }, description: 'Templates such as node, macos.' } },
      ['templates'],
    ),
  }),
  manifest({
    slug: 'ip-info',
    name: 'IP Address Info',
    category: 'network',
    tags: ['ip', 'geolocation'],
    description: 'Looks up the country, city and network owner of an IP address.',
    input_schema: obj({ ip: str('IPv4 address.', { format: 'ipv4' }), api_token: str('Token for the geolocation provider.') }, ['ip']),
  }),
  manifest({
    slug: 'http-status',
    name: 'HTTP Status Codes',
    category: 'web',
    tags: ['http'],
    description: 'Explains an HTTP status code and when to use it.',
    input_schema: obj({ code: { type: 'integer', minimum: 100, maximum: 599, description: 'The status code.' } }, ['code']),
    output_schema: obj({ code: { type: 'integer' }, meaning: { type: 'string' } }, ['code', 'meaning']),
  }),
  manifest({
    slug: 'k8s-manifest-validator',
    name: 'Kubernetes Manifest Validator',
    category: 'devops',
    tags: ['k8s', 'yaml'],
    description: 'Checks Kubernetes YAML manifests for schema errors and deprecated API versions.',
    input_schema: obj({ manifest: str('The YAML manifest.') }, ['manifest']),
  }),
  manifest({
    slug: 'server-time',
    name: 'Server Time',
    category: 'time',
    tags: ['clock'],
    description: 'Returns the current time of the API server.',
    input_schema: null,
  }),
];

const MCP_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function servedTools(manifests: Manifest[] = MANIFESTS): ServedTool[] {
  return manifests
    .map((m) => ({
      slug: m.slug,
      manifest: m,
      identifier: m.slug.replace(/[^A-Za-z0-9]+(.)?/g, (_all, next: string | undefined) => (next ?? '').toUpperCase()),
      withheldReason: MCP_NAME.test(m.slug) ? null : 'slug does not match [A-Za-z0-9_-]{1,64}',
    }))
    .sort((a, b) => byCodeUnit(a.slug, b.slug));
}

const addFormats = addFormatsModule.default;

function describeError(error: ErrorObject): { pointer: string; message: string } {
  if (error.keyword === 'required') {
    const missing = String((error.params as { missingProperty: string }).missingProperty);
    return { pointer: `${error.instancePath}/${missing}`, message: `missing required field "${missing}"` };
  }
  if (error.keyword === 'additionalProperties') {
    const extra = String((error.params as { additionalProperty: string }).additionalProperty);
    return { pointer: `${error.instancePath}/${extra}`, message: `unknown field "${extra}"` };
  }
  return { pointer: error.instancePath, message: `field "${error.instancePath || '/'}" ${error.message ?? 'is invalid'}` };
}

/** An InputValidator on ajv (draft 2020-12), naming the failing field the way the core's validator does. */
export function ajvValidator(): InputValidator {
  const ajv = new Ajv2020({ allErrors: false, strict: false });
  addFormats(ajv);
  const cache = new Map<JsonObject, ValidateFunction>();
  const check = (tool: ServedTool, schema: JsonObject | null | undefined, value: unknown, label: string) => {
    if (!schema) return null;
    let validate = cache.get(schema);
    if (!validate) {
      validate = ajv.compile(schema);
      cache.set(schema, validate);
    }
    if (validate(value)) return null;
    const first = validate.errors?.[0];
    const { pointer, message } = first ? describeError(first) : { pointer: '', message: 'is invalid' };
    return toolFailure('VALIDATION_ERROR', `Invalid ${label} for "${tool.slug}": ${message}.`, { pointer });
  };
  return {
    validateInput: (tool, params) => check(tool, tool.manifest.input_schema, params, 'arguments'),
    validateOutput: (tool, result) => check(tool, tool.manifest.output_schema ?? null, result, 'result'),
  };
}

type Implementation = (params: JsonObject) => unknown;

/** Real implementations for a few tools; the rest echo what they were given. */
export const IMPLEMENTATIONS: Record<string, Implementation> = {
  'env-validator': (params) => {
    const present = new Map<string, string>();
    for (const line of String(params.env_content).split('\n')) {
      const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line.trim());
      if (match?.[1] !== undefined) present.set(match[1], match[2] ?? '');
    }
    const required = (params.required_keys as string[] | undefined) ?? [];
    const missing = required.filter((key) => !present.has(key));
    const empty = [...present].filter(([, value]) => value === '').map(([key]) => key);
    return { valid: missing.length === 0 && (params.allow_empty === true || empty.length === 0), missing, empty };
  },
  'data-generator': (params) =>
    Array.from({ length: Number(params.count) }, (_unused, index) => ({
      id: index + 1,
      name: `Person ${index + 1}`,
      email: `person${index + 1}@example.com`,
    })),
  'hash-generator': (params) => {
    const algorithm = String(params.algorithm ?? 'sha256');
    return { algorithm, digest: createHash(algorithm).update(String(params.input)).digest('hex') };
  },
  'word-counter': (params) => {
    const text = String(params.text);
    return { words: text.split(/\s+/).filter(Boolean).length, characters: text.length };
  },
  'http-status': (params) => `status ${String(params.code)}`, // violates its output_schema on purpose
  'jwt-decoder': (params) => {
    const [header, payload] = String(params.token).split('.');
    if (payload === undefined) throw new Error('not a JWT: expected three dot-separated parts');
    const decode = (part: string | undefined): unknown => JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));
    return { header: decode(header), payload: decode(payload) };
  },
};

export interface RecordingRunner extends ToolRunner {
  calls: { slug: string; params: JsonObject }[];
}

export function functionRunner(implementations: Record<string, Implementation> = IMPLEMENTATIONS): RecordingRunner {
  const calls: { slug: string; params: JsonObject }[] = [];
  return {
    calls,
    async run(tool, params, signal): Promise<RunOutcome> {
      calls.push({ slug: tool.slug, params });
      const started = Date.now();
      if (signal?.aborted) return { ok: false, failure: toolFailure('CANCELLED', 'aborted'), durationMs: 0 };
      try {
        const implementation = implementations[tool.slug] ?? ((p: JsonObject) => ({ echoed: p, slug: tool.slug }));
        const result = await implementation(params);
        return { ok: true, result, durationMs: Date.now() - started };
      } catch (error) {
        return {
          ok: false,
          failure: toolFailure('EXECUTION_ERROR', error instanceof Error ? error.message : String(error)),
          durationMs: Date.now() - started,
        };
      }
    },
  };
}

export interface Harness {
  ctx: SurfaceContext;
  surface: AgentSurface;
  runner: RecordingRunner;
  logs: string[];
  tools: ServedTool[];
}

export const STARTED_AT = new Date('2026-01-02T03:04:05.000Z');

export function harness(options: { tools?: ServedTool[]; runner?: RecordingRunner } = {}): Harness {
  const tools = options.tools ?? servedTools();
  const list = toolList(tools);
  const runner = options.runner ?? functionRunner();
  const logs: string[] = [];
  const ctx: SurfaceContext = {
    names: NAMES,
    getTools: () => list,
    search: createToolSearch(() => list.tools),
    runner,
    validator: ajvValidator(),
    history: createRunHistory(),
    startedAt: STARTED_AT,
    log: (line) => void logs.push(line),
  };
  return { ctx, surface: createAgentSurface(ctx), runner, logs, tools };
}

export interface ProgressTick {
  progress: number;
  total?: number;
  message?: string;
}

export function callExtra(options: { token?: string | number; failProgress?: boolean } = {}): CallExtra & { ticks: ProgressTick[] } {
  const ticks: ProgressTick[] = [];
  return {
    ticks,
    signal: new AbortController().signal,
    ...(options.token !== undefined ? { progressToken: options.token } : {}),
    async sendProgress(progress, total, message) {
      ticks.push({ progress, total, message });
      if (options.failProgress) throw new Error('transport closed');
    },
  };
}
