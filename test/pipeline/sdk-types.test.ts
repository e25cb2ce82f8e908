// The typed wrappers really are typed: a consumer with wrong calls must fail to compile exactly where marked.

import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { bundle, tool } from '../fixtures/catalogues.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { typeErrors } from '../helpers/typecheck.js';

const OUT = join(REPO_ROOT, '.tmp', 'sdk-types');

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
    output_schema: { type: 'object', required: ['valid', 'keys'], properties: { valid: { type: 'boolean' }, keys: { type: 'array', items: { type: 'string' } } } },
    examples: [{ params: { env_content: 'A=1' } }],
  }),
  tool('Env Validator'),
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

describe('typed SDK wrappers', () => {
  let identifierOfWithheld = '';
  before(async () => {
    await mkdir(OUT, { recursive: true });
    const source = join(OUT, 'catalogue.json');
    await writeFile(source, JSON.stringify(catalogue));
    const built = await runCli(['build', '--source', source, '--out', OUT, '--json']);
    assert.equal(built.code, 0, built.stderr);
    const lock = (await import(join(OUT, 'names.lock.json'), { with: { type: 'json' } })).default as { tools: Record<string, { identifier: string }> };
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

  it('accept call options that may be undefined under exactOptionalPropertyTypes', async () => {
    const file = join(OUT, 'consumer', 'exact-optional.ts');
    await mkdir(join(OUT, 'consumer'), { recursive: true });
    await writeFile(file, EXACT_OPTIONAL_CONSUMER);
    assert.deepEqual(typeErrors(file, { exactOptionalPropertyTypes: true }), []);
  });
});
