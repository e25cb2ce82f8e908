// The typed wrappers really are typed: a consumer with wrong calls must fail to compile exactly where marked.

import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { bundle, tool } from '../fixtures/catalogues.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { typeErrors } from '../helpers/typecheck.js';

const OUT = join(REPO_ROOT, '.tmp', 'sdk-types');

/** A pattern that holds a comment terminator. */
const CODE_PATTERN = '^[A-Z]+\\*/';

const catalogue = bundle([
  tool('env-validator', {
    input_schema: {
      type: 'object',
      required: ['env_content'],
      properties: {
        env_content: { type: 'string' },
        mode: { enum: ['strict', 'lax'] },
        tree: { $ref: '#/$defs/node' },
      },
      $defs: { node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } } } },
    },
    output_schema: {
      type: 'object',
      required: ['valid', 'keys'],
      properties: { valid: { type: 'boolean' }, keys: { type: 'array', items: { type: 'string' } } },
    },
    examples: [{ params: { env_content: 'A=1' } }],
  }),
  tool('Env Validator'),
  tool('pricing', {
    annotations: { readOnlyHint: true },
    input_schema: {
      type: 'object',
      required: ['discount'],
      properties: {
        discount: {
          oneOf: [
            {
              title: 'PercentDiscount',
              type: 'object',
              required: ['percent'],
              properties: { percent: { type: 'number', minimum: 0, maximum: 100 } },
              additionalProperties: false,
            },
            {
              title: 'FixedDiscount',
              type: 'object',
              required: ['amount'],
              properties: { amount: { type: 'integer' } },
              additionalProperties: false,
            },
          ],
        },
        code: { type: 'string', pattern: CODE_PATTERN },
        host: { type: 'string', format: 'hostname' },
      },
    },
    examples: [{ params: { discount: { percent: 5 }, code: 'A*/B\u2028' } }],
  }),
  tool('no-params', { input_schema: null, output_schema: null, examples: [] }),
]);

/** What a project that imports the compiled package sees: its declarations, not its sources. */
const NO_NODE_TYPES_CONSUMER = `
import { envValidator, noParams, type CallOptions } from '../dist/tools/index.js';
import type { EnvValidatorInput } from '../dist/types.js';

export async function uses(input: EnvValidatorInput, options: CallOptions): Promise<boolean> {
  await noParams();
  return (await envValidator(input, options)).valid;
}
`;

const CONSUMER = `
import { envValidator, envValidator_${'HASH'}, noParams, ToolCallError, type EnvValidatorOutput } from '../src/tools/index.js';
import type { EnvValidatorInput } from '../src/types.js';

export async function uses(): Promise<void> {
  const out: EnvValidatorOutput = await envValidator({ env_content: 'A=1', mode: 'strict', tree: { kids: [{ kids: [] }] } });
  const valid: boolean = out.valid;
  const keys: string[] = out.keys;
  // @ts-expect-error a boolean is not a string
  const wrong: string = out.valid;
  // @ts-expect-error the required field is missing
  await envValidator({});
  // @ts-expect-error the field has the wrong type
  await envValidator({ env_content: 42 });
  // @ts-expect-error not one of the enum values
  await envValidator({ env_content: '', mode: 'loose' });
  // @ts-expect-error an unknown field
  await envValidator({ env_content: '', extra: 1 });
  const input: EnvValidatorInput = { env_content: '' };
  await envValidator_${'HASH'}({ text: 'withheld slugs get a safe identifier too' });
  await noParams({ anything: 1 });
  try {
    await envValidator(input);
  } catch (error) {
    if (error instanceof ToolCallError) {
      const code: string = error.code;
      const retryable: boolean = error.retryable;
      void code, retryable;
    }
  }
  void valid, keys, wrong;
}
`;

/** Options read from the environment, under exactOptionalPropertyTypes: each may be undefined, which means not set. */
const EXACT_OPTIONAL_CONSUMER = `
import { envValidator, type CallOptions } from '../src/tools/index.js';

export async function uses(signal?: AbortSignal): Promise<void> {
  await envValidator({ env_content: 'A=1' }, { apiKey: process.env.MY_KEY, apiUrl: process.env.MY_URL, signal, env: undefined });
  const timeout: number | undefined = process.env.MY_TIMEOUT === undefined ? undefined : Number(process.env.MY_TIMEOUT);
  const options: CallOptions = { timeoutMs: timeout };
  await envValidator({ env_content: 'A=1' }, options);
  // @ts-expect-error still typed: a key is a string
  await envValidator({ env_content: 'A=1' }, { apiKey: 42 });
}
`;

/** Clients, errors and named branch types: every marked line must fail to compile, and nothing else may. */
const CLIENT_CONSUMER = `
import { createClient, envValidator, pricing, ToolCallError, type AnyToolCallError, type Client, type ClientOptions, type RetryOptions } from '../src/tools/index.js';
import type { PricingInputPercentDiscount, PricingInputFixedDiscount, PricingInput } from '../src/types.js';

export async function uses(signal: AbortSignal): Promise<void> {
  const options: ClientOptions = { apiUrl: 'http://127.0.0.1:1/api', apiKey: process.env.KEY, timeoutMs: 500, retries: { maxRetries: 3, tools: 'always' }, signal, headers: { 'x-trace': '1' }, fetch };
  const client: Client = createClient(options);
  const valid: boolean = (await client.envValidator({ env_content: 'A=1' }, { retries: false, timeoutMs: undefined })).valid;
  await client.noParams();
  const percent: PricingInputPercentDiscount = { percent: 5 };
  const fixed: PricingInputFixedDiscount = { amount: 3 };
  const input: PricingInput = { discount: Math.random() > 0.5 ? percent : fixed };
  await client.pricing(input);
  await pricing(input, { retries: 2 });
  const retry: RetryOptions = { baseDelayMs: 10, maxDelayMs: undefined };
  createClient({ retries: retry });
  createClient();
  // @ts-expect-error a field of the other branch
  const wrongBranch: PricingInputPercentDiscount = { amount: 3 };
  // @ts-expect-error not a tools setting
  createClient({ retries: { tools: 'sometimes' } });
  // @ts-expect-error the API URL is a string
  createClient({ apiUrl: 42 });
  // @ts-expect-error the required field is missing, on a client method too
  await client.envValidator({});
  // @ts-expect-error no such tool
  await client.removedTool({});
  // @ts-expect-error the input is required
  await client.pricing();
  try {
    await envValidator({ env_content: '' });
  } catch (error) {
    if (error instanceof ToolCallError && error.is('VALIDATION_ERROR')) {
      const code: 'VALIDATION_ERROR' = error.code;
      const pointer: string | undefined = error.pointer;
      const status: number | undefined = error.status;
      const slug: string | undefined = error.slug;
      const attempts: number = error.attempts;
      // @ts-expect-error narrowed: the code cannot be another one
      if (error.code === 'TIMEOUT') void 0;
      void code, pointer, status, slug, attempts;
    }
    const failed = error as AnyToolCallError;
    switch (failed.code) {
      case 'RATE_LIMITED': {
        const limited: ToolCallError<'RATE_LIMITED'> = failed;
        void limited;
        break;
      }
      case 'TIMEOUT': {
        // @ts-expect-error narrowed by the switch: a timeout is not a validation failure
        const wrong: ToolCallError<'VALIDATION_ERROR'> = failed;
        void wrong;
        break;
      }
    }
  }
  void valid, wrongBranch;
}
`;

describe('typed SDK wrappers', () => {
  let identifierOfWithheld = '';
  before(async () => {
    await mkdir(OUT, { recursive: true });
    const source = join(OUT, 'catalogue.json');
    await writeFile(source, JSON.stringify(catalogue));
    const built = await runCli(['build', '--source', source, '--out', OUT, '--json']);
    assert.equal(built.code, 0, built.stderr);
    const lock = (await import(join(OUT, 'names.lock.json'), { with: { type: 'json' } })).default as {
      tools: Record<string, { identifier: string }>;
    };
    identifierOfWithheld = lock.tools['Env Validator']!.identifier;
  });

  it('reject wrong calls at compile time and type results from the output schema', async () => {
    const hash = identifierOfWithheld.replace(/^envValidator_/, '');
    assert.match(hash, /^[0-9a-f]{6}$/);
    const file = join(OUT, 'consumer', 'uses.ts');
    await mkdir(join(OUT, 'consumer'), { recursive: true });
    await writeFile(file, CONSUMER.replaceAll('HASH', hash));
    // Every @ts-expect-error above must meet an error (else TS2578), and nothing else may fail.
    assert.deepEqual(typeErrors(file), []);
  });

  it('compile in a project without @types/node that checks every declaration (skipLibCheck off)', async () => {
    const file = join(OUT, 'consumer', 'no-node-types.ts');
    await mkdir(join(OUT, 'consumer'), { recursive: true });
    await writeFile(file, NO_NODE_TYPES_CONSUMER);
    assert.deepEqual(typeErrors(file, { types: [], skipLibCheck: false }, true), []);
  });

  // The package's own declarations under skipLibCheck off are checked in sdk-consumers.test.ts, without @types/node.
  it('type clients, narrowed errors and named oneOf branches, and reject wrong uses (exactOptionalPropertyTypes)', async () => {
    const file = join(OUT, 'consumer', 'client.ts');
    await mkdir(join(OUT, 'consumer'), { recursive: true });
    await writeFile(file, CLIENT_CONSUMER);
    assert.deepEqual(typeErrors(file, { exactOptionalPropertyTypes: true }), []);
  });

  it('document each wrapper with its annotations, first example as code (escaped), @throws and field constraints', async () => {
    const text = await readFile(join(OUT, 'src', 'tools', 'pricing.ts'), 'utf8');
    assert.match(text, /Annotations: read-only/);
    assert.match(text, /@example\n \* ```ts\n \* const result = await pricing\(\{/);
    // The example's `*\/` cannot end the comment, and its line separator stays an escape inside the string.
    assert.match(text, / \* {3}"code": "A\*\\\/B\\u2028"/);
    assert.match(text, /@throws \{ToolCallError\}/);
    assert.match(text, /@minimum 0\n/);
    assert.match(text, /@maximum 100\n/);
    assert.ok(text.includes(`@pattern ${JSON.stringify(CODE_PATTERN).replace('*/', '*\\/')}\n`), text);
    assert.match(text, /@format "hostname"/);
    const index = await readFile(join(OUT, 'src', 'tools', 'index.ts'), 'utf8');
    assert.match(index, /const result = await client\.pricing\(/);
  });

  it('accept call options that may be undefined under exactOptionalPropertyTypes', async () => {
    const file = join(OUT, 'consumer', 'exact-optional.ts');
    await mkdir(join(OUT, 'consumer'), { recursive: true });
    await writeFile(file, EXACT_OPTIONAL_CONSUMER);
    assert.deepEqual(typeErrors(file, { exactOptionalPropertyTypes: true }), []);
  });
});
