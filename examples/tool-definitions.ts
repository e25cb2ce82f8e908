// The example catalogue's tools, minus their source code (which lives in examples/tools/<sourceFile>).

import type { Manifest } from '../src/runtime/shared/contracts.js';

/** A manifest as written here: `source` is read from `examples/tools/<sourceFile>` by make-catalogue.ts. */
// A key-remapped mapped type, because Omit<> on a type with an index signature drops every named member.
export type ToolDefinition = { [K in keyof Manifest as K extends 'source' ? never : K]: Manifest[K] } & { sourceFile: string };

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const readOnlyRandom = { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false };

const findingSchema = {
  type: 'object',
  required: ['line', 'key', 'message'],
  properties: {
    line: { type: ['integer', 'null'], description: '1-based line, or null when the problem is not on one line.' },
    key: { type: ['string', 'null'] },
    message: { type: 'string' },
  },
};

export const toolDefinitions: ToolDefinition[] = [
  {
    slug: 'base64-codec',
    name: 'Base64 Encoder/Decoder',
    description:
      'Encodes UTF-8 text to Base64 or decodes Base64 back to text. Use it for HTTP basic-auth headers, data URIs or ' +
      'inspecting an opaque token; pick the `url` variant for base64url (JWTs, URL parameters). Returns the output ' +
      'text and the number of raw bytes. Decoding rejects characters outside the chosen alphabet.',
    category: 'encoding',
    tags: ['base64', 'base64url', 'encode', 'decode'],
    version: '1.2.0',
    input_schema: {
      type: 'object',
      required: ['input'],
      additionalProperties: false,
      properties: {
        input: { type: 'string', description: 'Text to encode, or Base64 to decode.' },
        mode: { type: 'string', enum: ['encode', 'decode'], default: 'encode' },
        variant: {
          type: 'string',
          enum: ['standard', 'url'],
          default: 'standard',
          description: '`url` uses - and _ and no padding (RFC 4648 §5).',
        },
      },
    },
    output_schema: {
      type: 'object',
      required: ['output', 'byte_length'],
      properties: { output: { type: 'string' }, byte_length: { type: 'integer', minimum: 0 } },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'Encode a basic-auth pair',
        params: { input: 'admin:s3cr3t', mode: 'encode' },
        result: { output: 'YWRtaW46czNjcjN0', byte_length: 12 },
      },
      {
        title: 'Decode base64url',
        params: { input: 'eyJhbGciOiJIUzI1NiJ9', mode: 'decode', variant: 'url' },
        result: { output: '{"alg":"HS256"}', byte_length: 15 },
      },
    ],
    sourceFile: 'base64-codec.cjs',
  },
  {
    slug: 'case-converter',
    name: 'Case Converter',
    description:
      'Converts an identifier or phrase between naming conventions: camelCase, PascalCase, snake_case, kebab-case, ' +
      'CONSTANT_CASE and Title Case. It splits on separators and on lower-to-upper transitions, so "XMLHttpRequest" ' +
      'becomes xml/http/request. Use it when renaming fields across languages. Returns the detected words and one ' +
      'conversion per requested target (all targets when none are given).',
    category: 'text',
    tags: ['case', 'camelcase', 'snake_case', 'naming', 'identifier'],
    version: '2.0.1',
    input_schema: {
      type: 'object',
      required: ['text'],
      properties: {
        text: { type: 'string', minLength: 1, description: 'Identifier or phrase, e.g. `userId`, `user-id` or "User ID".' },
        targets: {
          type: 'array',
          uniqueItems: true,
          items: { type: 'string', enum: ['camel', 'pascal', 'snake', 'kebab', 'constant', 'title'] },
          description: 'Conventions to produce; all of them when omitted or empty.',
        },
      },
    },
    output_schema: {
      type: 'object',
      required: ['words', 'conversions'],
      properties: {
        words: { type: 'array', items: { type: 'string' } },
        conversions: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'One identifier, two conventions',
        params: { text: 'XMLHttpRequest handler', targets: ['snake', 'camel'] },
        result: {
          words: ['xml', 'http', 'request', 'handler'],
          conversions: { snake: 'xml_http_request_handler', camel: 'xmlHttpRequestHandler' },
        },
      },
    ],
    sourceFile: 'case-converter.cjs',
  },
  {
    slug: 'color-converter',
    name: 'Color Converter',
    description:
      'Converts a colour between hex, RGB and HSL, and computes its WCAG relative luminance plus the text colour ' +
      '(black or white) that reads best on it. Accepts either a hex string ("#1e90ff" or the short "#fff") or an ' +
      '{r, g, b} object. Use it when moving colours between CSS, design tokens and code.',
    category: 'design',
    tags: ['color', 'colour', 'hex', 'rgb', 'hsl', 'css', 'contrast'],
    version: '1.4.2',
    input_schema: {
      type: 'object',
      required: ['color'],
      properties: {
        color: {
          description: 'The colour to convert.',
          oneOf: [
            { type: 'string', pattern: '^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$', description: 'Hex, with or without #.' },
            {
              type: 'object',
              required: ['r', 'g', 'b'],
              additionalProperties: false,
              properties: {
                r: { type: 'integer', minimum: 0, maximum: 255 },
                g: { type: 'integer', minimum: 0, maximum: 255 },
                b: { type: 'integer', minimum: 0, maximum: 255 },
              },
            },
          ],
        },
      },
    },
    output_schema: {
      type: 'object',
      required: ['hex', 'rgb', 'hsl', 'css', 'luminance', 'best_text_color'],
      properties: {
        hex: { type: 'string', pattern: '^#[0-9a-f]{6}$' },
        rgb: {
          type: 'object',
          required: ['r', 'g', 'b'],
          properties: { r: { type: 'integer' }, g: { type: 'integer' }, b: { type: 'integer' } },
        },
        hsl: {
          type: 'object',
          required: ['h', 's', 'l'],
          properties: { h: { type: 'number' }, s: { type: 'number' }, l: { type: 'number' } },
        },
        css: { type: 'object', properties: { rgb: { type: 'string' }, hsl: { type: 'string' } } },
        luminance: { type: 'number', minimum: 0, maximum: 1 },
        best_text_color: { type: 'string', enum: ['#000000', '#ffffff'] },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'From hex',
        params: { color: '#1e90ff' },
        result: {
          hex: '#1e90ff',
          rgb: { r: 30, g: 144, b: 255 },
          hsl: { h: 210, s: 100, l: 56 },
          css: { rgb: 'rgb(30, 144, 255)', hsl: 'hsl(210, 100%, 56%)' },
          luminance: 0.2744,
          best_text_color: '#000000',
        },
      },
      {
        title: 'From RGB',
        params: { color: { r: 255, g: 255, b: 255 } },
        result: {
          hex: '#ffffff',
          rgb: { r: 255, g: 255, b: 255 },
          hsl: { h: 0, s: 0, l: 100 },
          css: { rgb: 'rgb(255, 255, 255)', hsl: 'hsl(0, 0%, 100%)' },
          luminance: 1,
          best_text_color: '#000000',
        },
      },
    ],
    sourceFile: 'color-converter.cjs',
  },
  {
    slug: 'cron-explainer',
    name: 'Cron Expression Explainer',
    description:
      'Explains a standard five-field cron expression (minute, hour, day of month, month, day of week) in plain ' +
      'English and lists the exact values each field matches. Understands ranges, lists, steps such as */15, month and weekday ' +
      'names and macros like `@daily`. Use it to check a schedule before it goes into a crontab or a CI config; it ' +
      "doesn't run anything.",
    category: 'devops',
    tags: ['cron', 'crontab', 'schedule', 'explain'],
    version: '1.1.0',
    input_schema: {
      $schema: DRAFT_07,
      type: 'object',
      required: ['expression'],
      properties: {
        expression: { $ref: '#/definitions/cronExpression' },
      },
      definitions: {
        cronExpression: {
          type: 'string',
          minLength: 1,
          description: 'Five space-separated fields, or a macro such as @hourly, @daily, @weekly.',
          examples: ['*/15 9-17 * * MON-FRI', '@daily'],
        },
      },
    },
    output_schema: {
      type: 'object',
      required: ['expression', 'description', 'fields'],
      properties: {
        expression: { type: 'string' },
        description: { type: 'string' },
        fields: {
          type: 'object',
          required: ['minute', 'hour', 'day_of_month', 'month', 'day_of_week'],
          additionalProperties: false,
          properties: {
            minute: { $ref: '#/$defs/values' },
            hour: { $ref: '#/$defs/values' },
            day_of_month: { $ref: '#/$defs/values' },
            month: { $ref: '#/$defs/values' },
            day_of_week: { $ref: '#/$defs/values' },
          },
        },
      },
      $defs: { values: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 59 }, minItems: 1 } },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'Weekday mornings',
        params: { expression: '30 9 * * MON-FRI' },
        result: {
          expression: '30 9 * * MON-FRI',
          description: 'At 09:30, on Monday, Tuesday, Wednesday, Thursday, Friday',
          fields: {
            minute: [30],
            hour: [9],
            day_of_month: [
              1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
            ],
            month: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
            day_of_week: [1, 2, 3, 4, 5],
          },
        },
      },
      {
        title: 'A macro',
        params: { expression: '@weekly' },
        result: {
          expression: '0 0 * * 0',
          description: 'At 00:00, on Sunday',
          fields: {
            minute: [0],
            hour: [0],
            day_of_month: [
              1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
            ],
            month: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
            day_of_week: [0],
          },
        },
      },
    ],
    sourceFile: 'cron-explainer.cjs',
  },
  {
    slug: 'csv-to-json',
    name: 'CSV to JSON',
    description:
      'Parses CSV text into JSON. With a header row (the default) each row becomes an object keyed by column name; ' +
      'without one, rows stay arrays. Handles quoted fields, escaped "" quotes, embedded newlines and CRLF line ends, ' +
      'and can infer numbers, booleans and empty-as-null. Returns the columns, the rows and the row count.',
    category: 'data',
    tags: ['csv', 'json', 'convert', 'spreadsheet', 'parse'],
    version: '1.3.0',
    input_schema: {
      type: 'object',
      required: ['csv'],
      properties: {
        csv: { type: 'string', description: 'The CSV document.' },
        delimiter: {
          type: 'string',
          minLength: 1,
          maxLength: 1,
          default: ',',
          description: 'Field separator, e.g. `;` or a tab.',
        },
        header: { type: 'boolean', default: true, description: 'Whether the first row names the columns.' },
        infer_types: {
          type: 'boolean',
          default: true,
          description: 'Turn "42" into 42, "true" into true and empty fields into null.',
        },
      },
    },
    output_schema: {
      type: 'object',
      required: ['columns', 'rows', 'row_count'],
      properties: {
        columns: { type: 'array', items: { type: 'string' } },
        rows: { type: 'array', items: { type: ['object', 'array'] } },
        row_count: { type: 'integer', minimum: 0 },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'Quoted fields and types',
        params: { csv: 'name,age,city\n"Hopper, Grace",85,"New York"\nAda,36,' },
        result: {
          columns: ['name', 'age', 'city'],
          rows: [
            { name: 'Hopper, Grace', age: 85, city: 'New York' },
            { name: 'Ada', age: 36, city: null },
          ],
          row_count: 2,
        },
      },
      {
        title: 'Semicolons, no header',
        params: { csv: 'a;b\nc;d', delimiter: ';', header: false },
        result: {
          columns: [],
          rows: [
            ['a', 'b'],
            ['c', 'd'],
          ],
          row_count: 2,
        },
      },
    ],
    sourceFile: 'csv-to-json.cjs',
  },
  {
    slug: 'current-time',
    name: 'Current Time',
    description:
      "Returns the current time where the tool runs: ISO 8601 in UTC, Unix seconds and milliseconds, the machine's " +
      'IANA time zone and its UTC offset. Takes no parameters. Use it when an agent needs "now" to compute deadlines ' +
      'or token expiry; the answer differs on every call.',
    category: 'time',
    tags: ['time', 'now', 'clock', 'timestamp'],
    version: '1.0.0',
    input_schema: null,
    output_schema: {
      type: 'object',
      required: ['iso', 'unix_seconds', 'unix_millis', 'timezone', 'utc_offset_minutes'],
      properties: {
        iso: { type: 'string', format: 'date-time' },
        unix_seconds: { type: 'integer' },
        unix_millis: { type: 'integer' },
        timezone: { type: 'string' },
        utc_offset_minutes: { type: 'integer' },
      },
    },
    annotations: readOnlyRandom,
    examples: [{ title: 'What time is it?', params: {} }],
    sourceFile: 'current-time.cjs',
  },
  {
    slug: 'data-generator',
    name: 'Fake Data Generator',
    description:
      'Generates fake user records (id, name, email, age, city, active) for fixtures, demos and load tests. Output is ' +
      'deterministic for a given `seed`: the same seed always yields the same records, so tests stay stable. Emails ' +
      'use reserved example.* domains, so nothing can reach a real inbox. Returns the seed used and the records.',
    category: 'testing',
    tags: ['fake', 'mock', 'fixtures', 'test data', 'seed'],
    version: '3.0.0',
    input_schema: {
      type: 'object',
      required: ['count'],
      additionalProperties: false,
      properties: {
        count: { type: 'integer', minimum: 1, maximum: 100, description: 'How many records to generate.' },
        seed: {
          type: 'integer',
          minimum: 0,
          maximum: 4294967295,
          default: 42,
          description: 'PRNG seed; same seed, same records.',
        },
        fields: {
          type: 'array',
          uniqueItems: true,
          items: { type: 'string', enum: ['id', 'name', 'email', 'age', 'city', 'active'] },
          default: ['id', 'name', 'email'],
          description: 'Which fields each record carries.',
        },
      },
    },
    output_schema: {
      type: 'object',
      required: ['seed', 'count', 'records'],
      properties: {
        seed: { type: 'integer' },
        count: { type: 'integer' },
        records: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              id: { type: 'integer' },
              name: { type: 'string' },
              email: { type: 'string', format: 'email' },
              age: { type: 'integer' },
              city: { type: 'string' },
              active: { type: 'boolean' },
            },
          },
        },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'Two default records',
        params: { count: 2 },
        result: {
          seed: 42,
          count: 2,
          records: [
            { id: 1, name: 'Radia Liskov', email: 'radia.liskov85@example.net' },
            { id: 2, name: 'Radia Dijkstra', email: 'radia.dijkstra47@example.com' },
          ],
        },
      },
      {
        title: 'Chosen fields and seed',
        params: { count: 3, seed: 7, fields: ['name', 'city', 'active'] },
        result: {
          seed: 7,
          count: 3,
          records: [
            { name: 'Ada Lovelace', city: 'Montréal', active: true },
            { name: 'Linus Ritchie', city: 'Auckland', active: true },
            { name: 'Linus Turing', city: 'Kraków', active: true },
          ],
        },
      },
    ],
    sourceFile: 'data-generator.cjs',
  },
  {
    slug: 'déaccentuer',
    name: 'Déaccentuer (accent remover)',
    description:
      'Removes diacritics from text — "crème brûlée" becomes "creme brulee", "Straße" becomes "Strasse" — so it can go ' +
      'where only ASCII is accepted: file names, legacy systems, search keys. Optionally drops every remaining ' +
      'non-ASCII character. Returns the folded text, how many characters changed, and whether the result is pure ASCII.',
    category: 'text',
    tags: ['unicode', 'ascii', 'diacritics', 'accents', 'normalize'],
    version: '0.9.0',
    input_schema: {
      type: 'object',
      required: ['text'],
      properties: {
        text: { type: 'string' },
        strip_non_ascii: {
          type: 'boolean',
          default: false,
          description: 'Also delete characters that have no ASCII form (emoji, CJK, …).',
        },
      },
    },
    output_schema: {
      type: 'object',
      required: ['text', 'changed_characters', 'is_ascii'],
      properties: { text: { type: 'string' }, changed_characters: { type: 'integer' }, is_ascii: { type: 'boolean' } },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'French and German',
        params: { text: 'Crème brûlée à la Straße' },
        result: { text: 'Creme brulee a la Strasse', changed_characters: 5, is_ascii: true },
      },
    ],
    sourceFile: 'deaccentuer.cjs',
  },
  {
    slug: 'diff-text',
    name: 'Text Diff',
    description:
      'Compares two texts line by line using a longest-common-subsequence diff and reports which lines were added, ' +
      'removed or kept, plus a unified-style rendering (+/- prefixes). Can ignore whitespace-only changes. Use it to ' +
      'explain what changed between two versions of a config or a snippet; for JSON structure, format both first.',
    category: 'text',
    tags: ['diff', 'compare', 'text', 'lines', 'changes'],
    version: '1.0.3',
    input_schema: {
      type: 'object',
      required: ['before', 'after'],
      properties: {
        before: { type: 'string', description: 'The old text.' },
        after: { type: 'string', description: 'The new text.' },
        ignore_whitespace: { type: 'boolean', default: false },
      },
    },
    output_schema: {
      type: 'object',
      required: ['identical', 'added', 'removed', 'unchanged', 'lines', 'unified'],
      properties: {
        identical: { type: 'boolean' },
        added: { type: 'integer' },
        removed: { type: 'integer' },
        unchanged: { type: 'integer' },
        lines: {
          type: 'array',
          items: {
            type: 'object',
            required: ['op', 'text'],
            properties: { op: { type: 'string', enum: ['equal', 'add', 'remove'] }, text: { type: 'string' } },
          },
        },
        unified: { type: 'string' },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'One changed line',
        params: { before: 'host=localhost\nport=8080\ndebug=false', after: 'host=localhost\nport=9090\ndebug=false' },
        result: {
          identical: false,
          added: 1,
          removed: 1,
          unchanged: 2,
          lines: [
            { op: 'equal', text: 'host=localhost' },
            { op: 'remove', text: 'port=8080' },
            { op: 'add', text: 'port=9090' },
            { op: 'equal', text: 'debug=false' },
          ],
          unified: ' host=localhost\n-port=8080\n+port=9090\n debug=false',
        },
      },
    ],
    sourceFile: 'diff-text.cjs',
  },
  {
    slug: 'dockerfile-lint',
    name: 'Dockerfile Linter',
    description:
      'Checks a Dockerfile against widely used best-practice rules (hadolint-style ids): unpinned or `:latest` base ' +
      'images, ADD where COPY would do, apt-get without -y or without cleaning its lists, shell-form CMD, sudo, and a ' +
      'missing USER. Line continuations are joined, comments skipped. Returns pass/fail (errors only), counts, and ' +
      'each finding with its line, rule id, severity and advice.',
    category: 'devops',
    tags: ['docker', 'dockerfile', 'lint', 'container', 'best practices'],
    version: '0.4.1',
    input_schema: {
      type: 'object',
      required: ['dockerfile'],
      properties: {
        dockerfile: { type: 'string', description: 'The Dockerfile text.' },
        ignore: {
          type: 'array',
          items: { type: 'string', pattern: '^DL\\d{4}$' },
          description: 'Rule ids to skip, e.g. ["DL3009"].',
        },
      },
    },
    output_schema: {
      type: 'object',
      required: ['passed', 'errors', 'warnings', 'findings'],
      properties: {
        passed: { type: 'boolean' },
        errors: { type: 'integer' },
        warnings: { type: 'integer' },
        findings: {
          type: 'array',
          items: {
            type: 'object',
            required: ['line', 'rule', 'severity', 'message'],
            properties: {
              line: { type: 'integer', minimum: 1 },
              rule: { type: 'string' },
              severity: { type: 'string', enum: ['error', 'warning', 'info'] },
              message: { type: 'string' },
            },
          },
        },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'A typical first draft',
        params: {
          dockerfile:
            'FROM node:latest\nADD . /app\nRUN apt-get update && \\\n    apt-get install curl\nCMD node /app/index.js\n',
        },
        result: {
          passed: false,
          errors: 1,
          warnings: 4,
          findings: [
            { line: 1, rule: 'DL3007', severity: 'warning', message: 'Using the "latest" tag makes builds unreproducible' },
            { line: 2, rule: 'DL3020', severity: 'error', message: 'Use COPY instead of ADD for files and folders' },
            {
              line: 3,
              rule: 'DL3009',
              severity: 'info',
              message: 'Delete the apt lists after installing to keep the image small',
            },
            {
              line: 3,
              rule: 'DL3014',
              severity: 'warning',
              message: 'Use "apt-get install -y" so the build does not wait for input',
            },
            { line: 5, rule: 'DL3002', severity: 'warning', message: 'No USER instruction: the container will run as root' },
            { line: 5, rule: 'DL3025', severity: 'warning', message: 'Use the JSON (exec) form so signals reach the process' },
          ],
        },
      },
    ],
    sourceFile: 'dockerfile-lint.cjs',
  },
  {
    slug: 'env-validator',
    name: 'Env File Validator',
    description:
      'Validates the content of a .env file: KEY=value syntax, legal key names, quoting, duplicate keys (the later ' +
      'one wins, as in dotenv), empty values and required keys you name. It also flags keys that look like secrets so ' +
      "you know what must not be committed. Values are never echoed back.\n\nReturns `valid`, the keys found, what's " +
      'missing or empty, and line-numbered errors and warnings.',
    category: 'devops',
    tags: ['env', 'dotenv', 'environment', 'config', 'validate', 'secrets'],
    version: '2.1.0',
    input_schema: {
      type: 'object',
      required: ['env_content'],
      properties: {
        env_content: { type: 'string', description: 'The full text of the .env file.' },
        required_keys: {
          type: 'array',
          items: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
          uniqueItems: true,
          description: 'Keys that must be present, e.g. ["DATABASE_URL", "PORT"].',
        },
        allow_empty: { type: 'boolean', default: false, description: 'Accept KEY= with no value without a warning.' },
      },
    },
    output_schema: {
      type: 'object',
      required: ['valid', 'keys', 'missing', 'empty', 'secret_like', 'errors', 'warnings'],
      properties: {
        valid: { type: 'boolean' },
        keys: { type: 'array', items: { type: 'string' } },
        missing: { type: 'array', items: { type: 'string' } },
        empty: { type: 'array', items: { type: 'string' } },
        secret_like: { type: 'array', items: { type: 'string' } },
        errors: { type: 'array', items: findingSchema },
        warnings: { type: 'array', items: findingSchema },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'One line',
        params: { env_content: 'DEBUG=true' },
        result: { valid: true, keys: ['DEBUG'], missing: [], empty: [], secret_like: [], errors: [], warnings: [] },
      },
      {
        title: 'Missing and duplicate keys',
        params: {
          env_content: '# app\nPORT=3000\nAPI_KEY="abc 123"\nPORT=3001\nLOG_LEVEL=\n',
          required_keys: ['PORT', 'DATABASE_URL'],
        },
        result: {
          valid: false,
          keys: ['PORT', 'API_KEY', 'LOG_LEVEL'],
          missing: ['DATABASE_URL'],
          empty: ['LOG_LEVEL'],
          secret_like: ['API_KEY'],
          errors: [{ line: null, key: 'DATABASE_URL', message: 'Required key "DATABASE_URL" is missing' }],
          warnings: [
            { line: 4, key: 'PORT', message: 'Duplicate key "PORT" overrides line 2' },
            { line: 5, key: 'LOG_LEVEL', message: '"LOG_LEVEL" is empty' },
          ],
        },
      },
    ],
    sourceFile: 'env-validator.cjs',
  },
  {
    slug: 'git/commit-lint',
    name: 'Commit Message Linter',
    description:
      'Checks a git commit message against Conventional Commits: `type(scope)!: subject`, an allowed type, a header ' +
      'within the length limit, no trailing period, and a blank line before the body. Detects breaking changes from ' +
      '"!" or a BREAKING CHANGE footer. Returns validity, the parsed type/scope/subject and every problem found.',
    category: 'git',
    tags: ['git', 'commit', 'conventional commits', 'lint', 'changelog'],
    version: '1.0.0',
    input_schema: {
      type: 'object',
      required: ['message'],
      properties: {
        message: { type: 'string', minLength: 1, description: 'The full commit message, header first.' },
        types: {
          type: 'array',
          items: { type: 'string', pattern: '^[a-z]+$' },
          description: 'Allowed types; the Angular set when omitted.',
        },
        max_header_length: { type: 'integer', minimum: 20, maximum: 200, default: 72 },
      },
    },
    output_schema: {
      type: 'object',
      required: ['valid', 'type', 'scope', 'subject', 'breaking', 'problems'],
      properties: {
        valid: { type: 'boolean' },
        type: { type: ['string', 'null'] },
        scope: { type: ['string', 'null'] },
        subject: { type: ['string', 'null'] },
        breaking: { type: 'boolean' },
        problems: { type: 'array', items: { type: 'string' } },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'A good one',
        params: { message: 'feat(api)!: drop the v1 endpoints\n\nBREAKING CHANGE: clients must use /v2.' },
        result: { valid: true, type: 'feat', scope: 'api', subject: 'drop the v1 endpoints', breaking: true, problems: [] },
      },
      {
        title: 'A bad one',
        params: { message: 'Fixed stuff.' },
        result: {
          valid: false,
          type: null,
          scope: null,
          subject: null,
          breaking: false,
          problems: ['Header must look like "type(scope): subject"'],
        },
      },
    ],
    sourceFile: 'commit-lint.cjs',
  },
  {
    slug: 'hash-calculator',
    name: 'Hash Calculator',
    description:
      'Computes a cryptographic digest of UTF-8 text — MD5, SHA-1, SHA-256, SHA-384 or SHA-512 — in hex or Base64, ' +
      'or an HMAC when you give a key (e.g. to check a webhook signature). MD5 and SHA-1 are for checksums only, not ' +
      'security. Returns the digest, the algorithm and the input size in bytes.',
    category: 'security',
    tags: ['hash', 'sha256', 'md5', 'hmac', 'checksum', 'digest'],
    version: '1.5.0',
    input_schema: {
      type: 'object',
      required: ['text'],
      properties: {
        text: { type: 'string' },
        algorithm: { type: 'string', enum: ['md5', 'sha1', 'sha256', 'sha384', 'sha512'], default: 'sha256' },
        encoding: { type: 'string', enum: ['hex', 'base64'], default: 'hex' },
        hmac_key: { type: 'string', description: 'When present, compute HMAC(algorithm, key) instead of a plain digest.' },
      },
    },
    output_schema: {
      type: 'object',
      required: ['algorithm', 'hmac', 'encoding', 'digest', 'input_bytes'],
      properties: {
        algorithm: { type: 'string' },
        hmac: { type: 'boolean' },
        encoding: { type: 'string' },
        digest: { type: 'string' },
        input_bytes: { type: 'integer' },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'SHA-256',
        params: { text: 'hello world' },
        result: {
          algorithm: 'sha256',
          hmac: false,
          encoding: 'hex',
          digest: 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9',
          input_bytes: 11,
        },
      },
      {
        title: 'Webhook HMAC',
        params: { text: '{"event":"ping"}', algorithm: 'sha256', hmac_key: 'whsec_test', encoding: 'base64' },
        result: {
          algorithm: 'sha256',
          hmac: true,
          encoding: 'base64',
          digest: 'ZF6Go27x7UWL41nH08V3N/iiAqiCdKgJpQfyCLpU2ZE=',
          input_bytes: 16,
        },
      },
    ],
    sourceFile: 'hash-calculator.cjs',
  },
  {
    slug: 'http-status-lookup',
    name: 'HTTP Status Lookup',
    description:
      'Looks up an HTTP status code and returns its standard reason phrase, its class (success, client_error, ' +
      'server_error, …) and whether a client should retry the request (408, 425, 429 and the transient 5xx codes). ' +
      'Use it when reading logs or deciding how to handle an API error.',
    category: 'web',
    tags: ['http', 'status', 'error', 'retry', 'api'],
    version: '1.0.2',
    input_schema: {
      type: 'object',
      required: ['code'],
      properties: { code: { type: 'integer', minimum: 100, maximum: 599, description: 'The status code, e.g. 418.' } },
    },
    output_schema: {
      type: 'object',
      required: ['code', 'phrase', 'known', 'class', 'retryable'],
      properties: {
        code: { type: 'integer' },
        phrase: { type: ['string', 'null'] },
        known: { type: 'boolean' },
        class: { type: 'string', enum: ['informational', 'success', 'redirection', 'client_error', 'server_error'] },
        retryable: { type: 'boolean' },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'Rate limited',
        params: { code: 429 },
        result: { code: 429, phrase: 'Too Many Requests', known: true, class: 'client_error', retryable: true },
      },
      {
        title: 'A teapot',
        params: { code: 418 },
        result: { code: 418, phrase: "I'm a Teapot", known: true, class: 'client_error', retryable: false },
      },
    ],
    sourceFile: 'http-status-lookup.cjs',
  },
  {
    slug: 'ip-cidr-calc',
    name: 'IPv4 CIDR Calculator',
    description:
      'Calculates an IPv4 CIDR block: network and broadcast addresses, netmask and wildcard mask, first and last ' +
      'usable host, total and usable address counts, and whether it is a private (RFC 1918) range. Optionally tells ' +
      'whether a given address falls inside the block. Useful for firewall rules, VPC subnets and security groups.',
    category: 'network',
    tags: ['ip', 'cidr', 'subnet', 'netmask', 'network', 'ipv4'],
    version: '1.2.0',
    input_schema: {
      type: 'object',
      required: ['cidr'],
      properties: {
        cidr: {
          type: 'string',
          pattern: '^\\d{1,3}(\\.\\d{1,3}){3}/(3[0-2]|[12]?\\d)$',
          description: 'Address and prefix, e.g. 10.0.0.0/16.',
        },
        contains: { type: 'string', format: 'ipv4', description: 'An address to test for membership.' },
      },
    },
    output_schema: {
      type: 'object',
      required: [
        'cidr',
        'network',
        'broadcast',
        'netmask',
        'wildcard',
        'first_host',
        'last_host',
        'total_addresses',
        'usable_hosts',
        'is_private',
      ],
      properties: {
        cidr: { type: 'string' },
        network: { type: 'string', format: 'ipv4' },
        broadcast: { type: 'string', format: 'ipv4' },
        netmask: { type: 'string', format: 'ipv4' },
        wildcard: { type: 'string', format: 'ipv4' },
        first_host: { type: 'string', format: 'ipv4' },
        last_host: { type: 'string', format: 'ipv4' },
        total_addresses: { type: 'integer' },
        usable_hosts: { type: 'integer' },
        is_private: { type: 'boolean' },
        contains: { type: 'boolean' },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'A /26',
        params: { cidr: '192.168.1.77/26', contains: '192.168.1.100' },
        result: {
          cidr: '192.168.1.64/26',
          network: '192.168.1.64',
          broadcast: '192.168.1.127',
          netmask: '255.255.255.192',
          wildcard: '0.0.0.63',
          first_host: '192.168.1.65',
          last_host: '192.168.1.126',
          total_addresses: 64,
          usable_hosts: 62,
          is_private: true,
          contains: true,
        },
      },
    ],
    sourceFile: 'ip-cidr-calc.cjs',
  },
  {
    slug: 'json-formatter',
    name: 'JSON Formatter',
    description:
      'Parses JSON text and prints it back pretty (2 spaces by default) or minified (indent 0), optionally with object ' +
      "keys sorted for stable diffs. Invalid JSON isn't an error: you get `valid: false` with the parser's message " +
      'and the line and offset where it failed, so you can point at the problem.',
    category: 'data',
    tags: ['json', 'format', 'pretty print', 'minify', 'validate'],
    version: '2.3.0',
    input_schema: {
      type: 'object',
      required: ['json'],
      properties: {
        json: { type: 'string', description: 'JSON text.' },
        indent: { type: 'integer', minimum: 0, maximum: 8, default: 2, description: '0 minifies.' },
        sort_keys: { type: 'boolean', default: false },
      },
    },
    output_schema: {
      type: 'object',
      required: ['valid', 'formatted', 'error'],
      properties: {
        valid: { type: 'boolean' },
        formatted: { type: ['string', 'null'] },
        error: {
          oneOf: [
            { type: 'null' },
            {
              type: 'object',
              required: ['message', 'offset', 'line'],
              properties: {
                message: { type: 'string' },
                offset: { type: ['integer', 'null'] },
                line: { type: ['integer', 'null'] },
              },
            },
          ],
        },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'Sort and pretty-print',
        params: { json: '{"b":1,"a":[true,null]}', sort_keys: true },
        result: { valid: true, formatted: '{\n  "a": [\n    true,\n    null\n  ],\n  "b": 1\n}', error: null },
      },
      { title: 'Broken JSON', params: { json: '{"a": 1,}' } },
    ],
    sourceFile: 'json-formatter.cjs',
  },
  {
    slug: 'json-schema-validator-lite',
    name: 'JSON Schema Validator (lite)',
    description:
      'Validates a JSON value against a JSON Schema written with the commonly used keywords: type, enum, properties, ' +
      'required, additionalProperties: false, items, minimum/maximum, minLength/maxLength and pattern. Lists every ' +
      "violation with its JSON Pointer path. It's deliberately small: no $ref, allOf/oneOf or formats in the schema " +
      'you pass — use a full validator for those.',
    category: 'data',
    tags: ['json', 'schema', 'validate', 'json schema'],
    version: '0.3.0',
    input_schema: {
      type: 'object',
      required: ['schema', 'data'],
      properties: {
        schema: { $ref: '#/$defs/schemaNode' },
        data: { description: 'Any JSON value to validate.' },
      },
      $defs: {
        schemaNode: {
          type: 'object',
          description: 'A schema using only the supported keywords.',
          properties: {
            type: {
              oneOf: [{ $ref: '#/$defs/typeName' }, { type: 'array', items: { $ref: '#/$defs/typeName' }, minItems: 1 }],
            },
            enum: { type: 'array' },
            properties: { type: 'object', additionalProperties: { $ref: '#/$defs/schemaNode' } },
            required: { type: 'array', items: { type: 'string' } },
            additionalProperties: { type: 'boolean' },
            items: { $ref: '#/$defs/schemaNode' },
            minimum: { type: 'number' },
            maximum: { type: 'number' },
            minLength: { type: 'integer', minimum: 0 },
            maxLength: { type: 'integer', minimum: 0 },
            pattern: { type: 'string', format: 'regex' },
          },
        },
        typeName: { type: 'string', enum: ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] },
      },
    },
    output_schema: {
      type: 'object',
      required: ['valid', 'error_count', 'errors'],
      properties: {
        valid: { type: 'boolean' },
        error_count: { type: 'integer' },
        errors: {
          type: 'array',
          items: {
            type: 'object',
            required: ['path', 'message'],
            properties: { path: { type: 'string' }, message: { type: 'string' } },
          },
        },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'Nested object with two violations',
        params: {
          schema: {
            type: 'object',
            required: ['name', 'tags'],
            properties: {
              name: { type: 'string', minLength: 1 },
              tags: { type: 'array', items: { type: 'string' } },
              owner: { type: 'object', properties: { age: { type: 'integer', minimum: 0 } } },
            },
          },
          data: { name: '', tags: ['a', 2], owner: { age: 3 } },
        },
        result: {
          valid: false,
          error_count: 2,
          errors: [
            { path: '/name', message: 'must have at least 1 characters' },
            { path: '/tags/1', message: 'must be string, got integer' },
          ],
        },
      },
    ],
    sourceFile: 'json-schema-validator-lite.cjs',
  },
  {
    slug: 'jwt-decoder',
    name: 'JWT Decoder',
    description:
      "Decodes a JSON Web Token's header and payload and turns its iat/exp/nbf claims into ISO dates, telling you " +
      'whether it has expired. It does NOT verify the signature — never use it to decide whether to trust a token. ' +
      'A leading "Bearer " is stripped. Warns about unsigned (alg "none") tokens.',
    category: 'security',
    tags: ['jwt', 'token', 'decode', 'auth', 'oauth'],
    version: '1.1.1',
    input_schema: {
      type: 'object',
      required: ['token'],
      properties: {
        token: {
          type: 'string',
          pattern: '^(Bearer\\s+)?[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*$',
          description: 'The compact JWT.',
        },
        now: { type: 'integer', minimum: 0, description: 'Unix seconds to judge expiry against; the current time when omitted.' },
      },
    },
    output_schema: {
      type: 'object',
      required: [
        'header',
        'payload',
        'signature_present',
        'algorithm',
        'issued_at',
        'expires_at',
        'not_before',
        'expired',
        'warnings',
      ],
      properties: {
        header: { type: 'object' },
        payload: { type: 'object' },
        signature_present: { type: 'boolean' },
        algorithm: { type: ['string', 'null'] },
        issued_at: { type: ['string', 'null'], format: 'date-time' },
        expires_at: { type: ['string', 'null'], format: 'date-time' },
        not_before: { type: ['string', 'null'], format: 'date-time' },
        expired: { type: 'boolean' },
        warnings: { type: 'array', items: { type: 'string' } },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'An expired token',
        params: {
          token:
            'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyLCJleHAiOjE1MTYyNDI2MjJ9.' +
            'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
          now: 1700000000,
        },
        result: {
          header: { alg: 'HS256', typ: 'JWT' },
          payload: { sub: '1234567890', name: 'John Doe', iat: 1516239022, exp: 1516242622 },
          signature_present: true,
          algorithm: 'HS256',
          issued_at: '2018-01-18T01:30:22.000Z',
          expires_at: '2018-01-18T02:30:22.000Z',
          not_before: null,
          expired: true,
          warnings: [],
        },
      },
    ],
    sourceFile: 'jwt-decoder.cjs',
  },
  {
    slug: 'markdown-toc',
    name: 'Markdown TOC Generator',
    description:
      'Builds a table of contents from the `#` headings of a Markdown document, with GitHub-style anchors (lower-case, ' +
      'punctuation dropped, duplicates numbered -1, -2). Headings inside fenced code blocks are ignored. Returns the ' +
      'TOC as a Markdown list ready to paste, and the headings with level, text and anchor.',
    category: 'docs',
    tags: ['markdown', 'toc', 'table of contents', 'docs', 'readme'],
    version: '1.0.0',
    input_schema: {
      type: 'object',
      required: ['markdown'],
      properties: {
        markdown: { type: 'string' },
        min_level: { type: 'integer', minimum: 1, maximum: 6, default: 1 },
        max_level: { type: 'integer', minimum: 1, maximum: 6, default: 3 },
      },
    },
    output_schema: {
      type: 'object',
      required: ['toc', 'headings'],
      properties: {
        toc: { type: 'string' },
        headings: {
          type: 'array',
          items: {
            type: 'object',
            required: ['level', 'text', 'anchor'],
            properties: {
              level: { type: 'integer', minimum: 1, maximum: 6 },
              text: { type: 'string' },
              anchor: { type: 'string' },
            },
          },
        },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'A README',
        params: {
          markdown: '# My Tool\n\n## Install\n\n```sh\n# not a heading\n```\n\n## Usage & `flags`\n\n### Options\n\n## Install\n',
          min_level: 2,
        },
        result: {
          toc: '- [Install](#install)\n- [Usage & flags](#usage--flags)\n  - [Options](#options)\n- [Install](#install-1)',
          headings: [
            { level: 2, text: 'Install', anchor: 'install' },
            { level: 2, text: 'Usage & flags', anchor: 'usage--flags' },
            { level: 3, text: 'Options', anchor: 'options' },
            { level: 2, text: 'Install', anchor: 'install-1' },
          ],
        },
      },
    ],
    sourceFile: 'markdown-toc.cjs',
  },
  {
    slug: 'password-strength',
    name: 'Password Strength Checker',
    description:
      'Estimates how hard a password is to guess from its length, character variety, common-password fragments, ' +
      'repeats and sequences, and says how to improve it. Returns a 0–4 score with a label, the estimated entropy in ' +
      'bits, whether it meets a length-plus-strength policy, and feedback. The password is neither stored nor logged.',
    category: 'security',
    tags: ['password', 'strength', 'entropy', 'security', 'policy'],
    version: '1.3.0',
    input_schema: {
      type: 'object',
      required: ['password'],
      properties: {
        password: { type: 'string', minLength: 1, writeOnly: true },
        min_length: { type: 'integer', minimum: 4, maximum: 128, default: 12 },
      },
    },
    output_schema: {
      type: 'object',
      required: ['score', 'label', 'entropy_bits', 'length', 'meets_policy', 'feedback'],
      properties: {
        score: { type: 'integer', minimum: 0, maximum: 4 },
        label: { type: 'string', enum: ['very weak', 'weak', 'fair', 'strong', 'very strong'] },
        entropy_bits: { type: 'number' },
        length: { type: 'integer' },
        meets_policy: { type: 'boolean' },
        feedback: { type: 'array', items: { type: 'string' } },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'A weak one',
        params: { password: 'password123' },
        result: {
          score: 0,
          label: 'very weak',
          entropy_bits: 9,
          length: 11,
          meets_policy: false,
          feedback: [
            'Contains a very common password',
            'Avoid sequences like "abc" or "123"',
            'Use at least 12 characters',
            'Mix upper and lower case letters, digits and symbols',
          ],
        },
      },
      {
        title: 'A passphrase',
        params: { password: 'Correct-Horse-Battery-Staple-9' },
        result: { score: 4, label: 'very strong', entropy_bits: 197.1, length: 30, meets_policy: true, feedback: [] },
      },
    ],
    sourceFile: 'password-strength.cjs',
  },
  {
    slug: 'query-string-builder',
    name: 'Query String Builder',
    description:
      'Builds a correctly percent-encoded query string from a map of parameters, and appends it to a base URL when ' +
      'one is given. Values may be strings, numbers, booleans, null (skipped) or arrays, which are repeated ' +
      '(`a=1&a=2`), bracketed (`a[]=1`) or comma-joined. Returns the query string and the full URL.',
    category: 'web',
    tags: ['url', 'query string', 'encode', 'http', 'params'],
    version: '1.1.0',
    input_schema: {
      type: 'object',
      required: ['params'],
      properties: {
        base_url: { type: 'string', format: 'uri', description: 'Absolute URL to append the parameters to.' },
        params: {
          type: 'object',
          additionalProperties: {
            oneOf: [{ $ref: '#/$defs/scalar' }, { type: 'array', items: { $ref: '#/$defs/scalar' } }, { type: 'null' }],
          },
        },
        array_format: { type: 'string', enum: ['repeat', 'brackets', 'comma'], default: 'repeat' },
        sort: { type: 'boolean', default: false, description: 'Sort keys for a canonical query (e.g. cache keys, signatures).' },
      },
      $defs: { scalar: { type: ['string', 'number', 'boolean'] } },
    },
    output_schema: {
      type: 'object',
      required: ['query', 'url'],
      properties: { query: { type: 'string' }, url: { type: ['string', 'null'] } },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'Search with filters',
        params: {
          base_url: 'https://api.example.com/v1/search?lang=en',
          params: { q: 'café & co', tag: ['a', 'b'], page: 2, draft: null },
          array_format: 'brackets',
        },
        result: {
          query: 'q=caf%C3%A9+%26+co&tag%5B%5D=a&tag%5B%5D=b&page=2',
          url: 'https://api.example.com/v1/search?lang=en&q=caf%C3%A9+%26+co&tag%5B%5D=a&tag%5B%5D=b&page=2',
        },
      },
    ],
    sourceFile: 'query-string-builder.cjs',
  },
  {
    slug: 'regex-tester',
    name: 'Regex Tester',
    description:
      'Runs a JavaScript regular expression against a text and returns every match with its index, numbered groups ' +
      "and named groups. An invalid pattern is reported as `valid: false` with the engine's message rather than an " +
      "error. Use it to debug a pattern before putting it in code; the flags are JavaScript's (g, i, m, s, u, y, d).",
    category: 'text',
    tags: ['regex', 'regexp', 'pattern', 'match', 'test'],
    version: '2.0.0',
    input_schema: {
      type: 'object',
      required: ['pattern', 'text'],
      properties: {
        pattern: { type: 'string', description: 'The pattern without slashes, e.g. `(?<year>\\d{4})-(\\d{2})`.' },
        flags: { type: 'string', pattern: '^[dgimsuy]*$', default: 'g' },
        text: { type: 'string' },
        max_matches: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
      },
    },
    output_schema: {
      type: 'object',
      required: ['valid', 'error', 'match_count', 'matches'],
      properties: {
        valid: { type: 'boolean' },
        error: { type: ['string', 'null'] },
        match_count: { type: 'integer' },
        matches: {
          type: 'array',
          items: {
            type: 'object',
            required: ['match', 'index', 'groups', 'named_groups'],
            properties: {
              match: { type: 'string' },
              index: { type: 'integer' },
              groups: { type: 'array', items: { type: ['string', 'null'] } },
              named_groups: { type: 'object', additionalProperties: { type: ['string', 'null'] } },
            },
          },
        },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'Dates with a named group',
        params: { pattern: '(?<year>\\d{4})-(\\d{2})', text: 'Released 2023-07, patched 2024-01.' },
        result: {
          valid: true,
          error: null,
          match_count: 2,
          matches: [
            { match: '2023-07', index: 9, groups: ['2023', '07'], named_groups: { year: '2023' } },
            { match: '2024-01', index: 26, groups: ['2024', '01'], named_groups: { year: '2024' } },
          ],
        },
      },
      {
        title: 'Invalid pattern',
        params: { pattern: '([a-z]+', text: 'abc' },
        result: {
          valid: false,
          error: 'Invalid regular expression: /([a-z]+/g: Unterminated group',
          match_count: 0,
          matches: [],
        },
      },
    ],
    sourceFile: 'regex-tester.cjs',
  },
  {
    slug: 'semver-compare',
    name: 'SemVer Compare',
    description:
      'Parses two semantic versions and compares them by SemVer 2.0.0 precedence: pre-releases sort before the ' +
      'release, numeric identifiers numerically, and build metadata is ignored. Returns -1/0/1, whether `a` is ' +
      'older, newer or equal, which part differs (major/minor/patch/prerelease) and both parsed versions. A leading ' +
      '"v" is accepted.',
    category: 'devops',
    tags: ['semver', 'version', 'compare', 'release', 'npm'],
    version: '1.0.4',
    input_schema: {
      $schema: DRAFT_07,
      type: 'object',
      required: ['a', 'b'],
      properties: {
        a: { $ref: '#/definitions/version' },
        b: { $ref: '#/definitions/version' },
      },
      definitions: {
        version: { type: 'string', minLength: 5, maxLength: 256, description: 'A semantic version such as 1.2.3-rc.1+build.5.' },
      },
    },
    output_schema: {
      type: 'object',
      required: ['comparison', 'relation', 'difference', 'a', 'b'],
      properties: {
        comparison: { type: 'integer', enum: [-1, 0, 1] },
        relation: { type: 'string', enum: ['older', 'newer', 'equal'] },
        difference: { type: ['string', 'null'], enum: ['major', 'minor', 'patch', 'prerelease', null] },
        a: { $ref: '#/$defs/parsed' },
        b: { $ref: '#/$defs/parsed' },
      },
      $defs: {
        parsed: {
          type: 'object',
          required: ['major', 'minor', 'patch', 'prerelease', 'build'],
          properties: {
            major: { type: 'integer' },
            minor: { type: 'integer' },
            patch: { type: 'integer' },
            prerelease: { type: 'array', items: { type: 'string' } },
            build: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'Release candidate vs release',
        params: { a: '2.0.0-rc.1', b: '2.0.0' },
        result: {
          comparison: -1,
          relation: 'older',
          difference: 'prerelease',
          a: { major: 2, minor: 0, patch: 0, prerelease: ['rc', '1'], build: [] },
          b: { major: 2, minor: 0, patch: 0, prerelease: [], build: [] },
        },
      },
      {
        title: 'Numeric, not lexical',
        params: { a: 'v1.10.0', b: '1.9.3+build.7' },
        result: {
          comparison: 1,
          relation: 'newer',
          difference: 'minor',
          a: { major: 1, minor: 10, patch: 0, prerelease: [], build: [] },
          b: { major: 1, minor: 9, patch: 3, prerelease: [], build: ['build', '7'] },
        },
      },
    ],
    sourceFile: 'semver-compare.cjs',
  },
  {
    slug: 'slugify',
    name: 'Slugify',
    description:
      'Turns a title into a URL-safe slug: accents folded, "&" spelled "and", apostrophes dropped (so "Don\'t" ' +
      'becomes "dont"), everything else non-alphanumeric collapsed into the separator. Optionally keeps case and ' +
      'trims to a maximum length on a word boundary. Returns the slug and its length.',
    category: 'text',
    tags: ['slug', 'url', 'permalink', 'seo', 'text'],
    version: '1.2.3',
    input_schema: {
      type: 'object',
      required: ['text'],
      properties: {
        text: { type: 'string', minLength: 1 },
        separator: { type: 'string', enum: ['-', '_', '.', ''], default: '-' },
        lowercase: { type: 'boolean', default: true },
        max_length: { type: 'integer', minimum: 1, maximum: 200 },
      },
    },
    output_schema: {
      type: 'object',
      required: ['slug', 'length'],
      properties: { slug: { type: 'string' }, length: { type: 'integer' } },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'A blog title',
        params: { text: "Don't Panic: Crème Brûlée & Other *Recipes*" },
        result: { slug: 'dont-panic-creme-brulee-and-other-recipes', length: 41 },
      },
      {
        title: 'Trimmed',
        params: { text: 'The quick brown fox jumps over the lazy dog', max_length: 20, separator: '_' },
        result: { slug: 'the_quick_brown_fox', length: 19 },
      },
    ],
    sourceFile: 'slugify.cjs',
  },
  {
    slug: 'Text Stats',
    name: 'Text Statistics',
    description:
      'Counts characters (with and without spaces), words, sentences and paragraphs of a text, estimates reading ' +
      'time, and lists the most frequent words (common English stop words excluded). Works with any script, since ' +
      'words are runs of Unicode letters and digits. Use it for copy limits, README reviews or summaries.',
    category: 'text',
    tags: ['text', 'words', 'count', 'reading time', 'statistics'],
    version: '1.0.0',
    input_schema: {
      type: 'object',
      required: ['text'],
      properties: {
        text: { type: 'string' },
        words_per_minute: { type: 'integer', minimum: 50, maximum: 1000, default: 230 },
        top_words: { type: 'integer', minimum: 0, maximum: 50, default: 5 },
      },
    },
    output_schema: {
      type: 'object',
      required: ['characters', 'characters_no_spaces', 'words', 'sentences', 'paragraphs', 'reading_time_seconds', 'top_words'],
      properties: {
        characters: { type: 'integer' },
        characters_no_spaces: { type: 'integer' },
        words: { type: 'integer' },
        sentences: { type: 'integer' },
        paragraphs: { type: 'integer' },
        reading_time_seconds: { type: 'integer' },
        top_words: {
          type: 'array',
          items: {
            type: 'object',
            required: ['word', 'count'],
            properties: { word: { type: 'string' }, count: { type: 'integer' } },
          },
        },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'Two paragraphs',
        params: { text: "It's a test. The test is short!\n\nA second paragraph: test it.", top_words: 2 },
        result: {
          characters: 61,
          characters_no_spaces: 49,
          words: 12,
          sentences: 3,
          paragraphs: 2,
          reading_time_seconds: 4,
          top_words: [
            { word: 'test', count: 3 },
            { word: "it's", count: 1 },
          ],
        },
      },
    ],
    sourceFile: 'text-stats.cjs',
  },
  {
    slug: 'timestamp-converter',
    name: 'Timestamp Converter',
    description:
      'Converts a Unix timestamp (seconds or milliseconds, guessed from magnitude unless you say) or a date string ' +
      'into ISO 8601 UTC, Unix seconds and milliseconds, and a local time with weekday in any IANA time zone. Use it ' +
      'to read timestamps from logs, JWTs or databases. Unparseable dates and unknown zones are errors.',
    category: 'time',
    tags: ['timestamp', 'unix', 'epoch', 'date', 'timezone', 'iso8601'],
    version: '2.2.0',
    input_schema: {
      type: 'object',
      required: ['timestamp'],
      properties: {
        timestamp: {
          oneOf: [
            { type: 'number', description: 'Unix time in seconds or milliseconds.' },
            { type: 'string', minLength: 1, description: 'A date string, ideally ISO 8601 like 2024-03-01T12:00:00Z.' },
          ],
        },
        unit: { type: 'string', enum: ['seconds', 'milliseconds'], description: 'Force the unit of a numeric timestamp.' },
        timezone: { type: 'string', default: 'UTC', description: 'IANA zone such as Europe/Paris.' },
      },
    },
    output_schema: {
      type: 'object',
      required: ['iso', 'unix_seconds', 'unix_millis', 'timezone', 'local', 'day_of_week'],
      properties: {
        iso: { type: 'string', format: 'date-time' },
        unix_seconds: { type: 'integer' },
        unix_millis: { type: 'number' },
        timezone: { type: 'string' },
        local: { type: 'string' },
        day_of_week: { type: 'string' },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'Seconds to Tokyo time',
        params: { timestamp: 1700000000, timezone: 'Asia/Tokyo' },
        result: {
          iso: '2023-11-14T22:13:20.000Z',
          unix_seconds: 1700000000,
          unix_millis: 1700000000000,
          timezone: 'Asia/Tokyo',
          local: '2023-11-15, 07:13:20 GMT+9',
          day_of_week: 'Wednesday',
        },
      },
      {
        title: 'ISO string',
        params: { timestamp: '2024-02-29T23:30:00Z' },
        result: {
          iso: '2024-02-29T23:30:00.000Z',
          unix_seconds: 1709249400,
          unix_millis: 1709249400000,
          timezone: 'UTC',
          local: '2024-02-29, 23:30:00 UTC',
          day_of_week: 'Thursday',
        },
      },
    ],
    sourceFile: 'timestamp-converter.cjs',
  },
  {
    slug: 'unit-converter',
    name: 'Unit Converter',
    description:
      'Converts a value between units of the same kind: length (mm … mi), mass (mg … lb), temperature (C, F, K), ' +
      'data size (decimal KB/MB/GB and binary KiB/MiB/GiB) and duration (ms … d). Converting between kinds (say kg to ' +
      'm) is an error. Returns the converted value rounded to `precision` decimals and a readable sentence.',
    category: 'math',
    tags: ['units', 'convert', 'length', 'temperature', 'bytes', 'duration'],
    version: '1.6.0',
    input_schema: {
      type: 'object',
      required: ['value', 'from', 'to'],
      properties: {
        value: { type: 'number' },
        from: { $ref: '#/$defs/unit', description: 'Unit of `value`.' },
        to: { $ref: '#/$defs/unit', description: 'Unit to convert into.' },
        precision: { type: 'integer', minimum: 0, maximum: 12, default: 6 },
      },
      $defs: {
        unit: {
          type: 'string',
          enum: [
            'mm',
            'cm',
            'm',
            'km',
            'in',
            'ft',
            'yd',
            'mi',
            'mg',
            'g',
            'kg',
            'lb',
            'oz',
            'B',
            'KB',
            'MB',
            'GB',
            'KiB',
            'MiB',
            'GiB',
            'ms',
            's',
            'min',
            'h',
            'd',
            'C',
            'F',
            'K',
          ],
        },
      },
    },
    output_schema: {
      type: 'object',
      required: ['value', 'from', 'to', 'kind', 'formatted'],
      properties: {
        value: { type: 'number' },
        from: { type: 'string' },
        to: { type: 'string' },
        kind: { type: 'string', enum: ['length', 'mass', 'temperature', 'data', 'time'] },
        formatted: { type: 'string' },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'Fahrenheit to Celsius',
        params: { value: 98.6, from: 'F', to: 'C', precision: 1 },
        result: { value: 37, from: 'F', to: 'C', kind: 'temperature', formatted: '98.6 F = 37 C' },
      },
      {
        title: 'Binary sizes',
        params: { value: 1.5, from: 'GiB', to: 'MB' },
        result: { value: 1610.612736, from: 'GiB', to: 'MB', kind: 'data', formatted: '1.5 GiB = 1610.612736 MB' },
      },
    ],
    sourceFile: 'unit-converter.cjs',
  },
  {
    slug: 'url-parser',
    name: 'URL Parser',
    description:
      'Splits a URL into protocol, credentials (only whether a password is present, never the password), host, ' +
      'port (the default one filled in), path and decoded path segments, query parameters (repeated keys become ' +
      'arrays) and fragment, following the WHATWG URL rules browsers use. Use it to inspect links, redirects and ' +
      'webhook targets.',
    category: 'web',
    tags: ['url', 'parse', 'query', 'http', 'link'],
    version: '1.3.1',
    input_schema: {
      type: 'object',
      required: ['url'],
      properties: { url: { type: 'string', format: 'uri', description: 'An absolute URL.' } },
    },
    output_schema: {
      type: 'object',
      required: ['href', 'protocol', 'hostname', 'port', 'pathname', 'path_segments', 'query', 'fragment', 'origin'],
      properties: {
        href: { type: 'string' },
        protocol: { type: 'string' },
        username: { type: ['string', 'null'] },
        password_present: { type: 'boolean' },
        hostname: { type: 'string' },
        port: { type: ['integer', 'null'] },
        pathname: { type: 'string' },
        path_segments: { type: 'array', items: { type: 'string' } },
        query: {
          type: 'object',
          additionalProperties: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
        },
        fragment: { type: ['string', 'null'] },
        origin: { type: ['string', 'null'] },
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'Everything at once',
        params: { url: 'https://user:pw@example.com/a/b%20c?x=1&y=2&x=3#top' },
        result: {
          href: 'https://user:pw@example.com/a/b%20c?x=1&y=2&x=3#top',
          protocol: 'https',
          username: 'user',
          password_present: true,
          hostname: 'example.com',
          port: 443,
          pathname: '/a/b%20c',
          path_segments: ['a', 'b c'],
          query: { x: ['1', '3'], y: '2' },
          fragment: 'top',
          origin: 'https://example.com',
        },
      },
    ],
    sourceFile: 'url-parser.cjs',
  },
  {
    slug: 'uuid-generator',
    name: 'UUID Generator',
    description:
      'Generates UUIDs: random version 4 (up to 50 at a time), or name-based version 5, which is always the same for ' +
      'the same namespace (dns, url, oid, x500 or your own UUID) and name — handy for stable ids derived from emails ' +
      'or URLs. Returns the version and the list of UUIDs, lower-case unless asked otherwise.',
    category: 'identifiers',
    tags: ['uuid', 'guid', 'id', 'random', 'v4', 'v5'],
    version: '2.0.0',
    input_schema: {
      type: 'object',
      properties: {
        version: { type: 'string', enum: ['v4', 'v5'], default: 'v4' },
        count: { type: 'integer', minimum: 1, maximum: 50, default: 1, description: 'v4 only.' },
        namespace: {
          description: 'v5 only: a well-known namespace or a UUID.',
          default: 'dns',
          oneOf: [
            { type: 'string', enum: ['dns', 'url', 'oid', 'x500'] },
            { type: 'string', format: 'uuid' },
          ],
        },
        name: { type: 'string', description: 'v5 only: the name to hash.' },
        uppercase: { type: 'boolean', default: false },
      },
      if: { properties: { version: { const: 'v5' } }, required: ['version'] },
      then: { required: ['name'] },
    },
    output_schema: {
      type: 'object',
      required: ['version', 'uuids'],
      properties: {
        version: { type: 'string', enum: ['v4', 'v5'] },
        uuids: { type: 'array', minItems: 1, items: { type: 'string', format: 'uuid' } },
      },
    },
    annotations: readOnlyRandom,
    examples: [
      { title: 'Three random ids', params: { count: 3 } },
      {
        title: 'Stable id for a domain',
        params: { version: 'v5', namespace: 'dns', name: 'example.com' },
        result: { version: 'v5', uuids: ['cfbff0d1-9375-5685-968c-48ce8b15ae17'] },
      },
    ],
    sourceFile: 'uuid-generator.cjs',
  },
  {
    slug: 'word-counter',
    name: 'Word Counter',
    description:
      'Counts the words (whitespace-separated) and characters of a text. Kept for existing integrations; "Text Stats" ' +
      'does the same with sentences, paragraphs, reading time and Unicode-aware words.',
    category: 'text',
    tags: ['text', 'words', 'count'],
    version: '1.0.7',
    deprecated: 'Use "Text Stats" instead: it counts words, sentences and paragraphs and estimates reading time.',
    input_schema: {
      type: 'object',
      required: ['text'],
      properties: { text: { type: 'string' } },
    },
    output_schema: {
      type: 'object',
      required: ['words', 'characters'],
      properties: { words: { type: 'integer' }, characters: { type: 'integer' } },
    },
    annotations: readOnly,
    examples: [{ title: 'Extra whitespace', params: { text: '  Hello,   world! ' }, result: { words: 2, characters: 18 } }],
    sourceFile: 'word-counter.cjs',
  },
  {
    slug: 'yaml-validator',
    name: 'YAML Validator (simple)',
    description:
      'Checks and parses simple YAML — nested mappings, "- " lists (including lists of mappings), quoted and plain ' +
      'scalars, comments — such as CI configs and docker-compose files. Reports tabs, bad indentation, duplicate ' +
      "keys and lines that aren't `key: value`, with line numbers. Anchors, flow collections and block scalars " +
      '(| and >) are not supported. Returns validity, the errors and the parsed data.',
    category: 'data',
    tags: ['yaml', 'validate', 'parse', 'config', 'ci'],
    version: '0.8.0',
    input_schema: {
      $schema: DRAFT_07,
      type: 'object',
      required: ['yaml'],
      properties: {
        yaml: { $ref: '#/definitions/document' },
      },
      definitions: {
        document: { type: 'string', maxLength: 200000, description: 'The YAML text.' },
      },
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      required: ['valid', 'errors', 'data'],
      properties: {
        valid: { type: 'boolean' },
        errors: {
          type: 'array',
          items: {
            type: 'object',
            required: ['line', 'message'],
            properties: { line: { type: 'integer' }, message: { type: 'string' } },
          },
        },
        data: {},
      },
    },
    annotations: readOnly,
    examples: [
      {
        title: 'A compose file',
        params: {
          yaml: 'version: "3.9"\nservices:\n  web:\n    image: nginx:1.25 # pinned\n    ports:\n      - "8080:80"\n    environment:\n      - name: DEBUG\n        value: true\n',
        },
        result: {
          valid: true,
          errors: [],
          data: {
            version: '3.9',
            services: { web: { image: 'nginx:1.25', ports: ['8080:80'], environment: [{ name: 'DEBUG', value: true }] } },
          },
        },
      },
      {
        title: 'A duplicate key',
        params: { yaml: 'name: a\nname: b\n' },
        result: { valid: false, errors: [{ line: 2, message: 'Duplicate key "name"' }], data: null },
      },
    ],
    sourceFile: 'yaml-validator.cjs',
  },
];
