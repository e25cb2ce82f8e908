// The manifest schema's validator compiled at the generator's build: it gives the verdict and the errors a compile
// of the schema gives, on the example catalogue and on bundles broken in every way the schema names; code made from
// another schema or ajv is not used; the generator's build leaves it in dist/; and a rebuild whose every tool the
// build cache answers loads no more of ajv than that code's one runtime helper.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { BUNDLE_SHAPE_FILE, BUNDLE_SHAPE_OPTIONS, bundleSchema, bundleShapeValidator } from '../../src/pipeline/check/bundle-shape.js';
import { precompileBundleShape } from '../../src/pipeline/check/precompile-bundle-shape.js';
import { bundle, hostileBundle, tool } from '../fixtures/catalogues.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

const EXAMPLE = JSON.parse(readFileSync(new URL('../../examples/catalogue.json', import.meta.url), 'utf8')) as { tools: unknown[] };

/** Bundles broken in each way the manifest schema names, and whole ones. */
const BUNDLES: Array<[string, unknown]> = [
  ['the example catalogue', EXAMPLE],
  ['a hostile but well-formed bundle', hostileBundle()],
  ['no format', { tools: [] }],
  ['another format', { format: 'nexusbloom-catalogue/2', tools: [] }],
  ['tools an object', { format: 'nexusbloom-catalogue/1', tools: {} }],
  ['not an object', ['tools']],
  ['null', null],
  ['a tool without a slug', bundle([{ ...tool('a'), slug: undefined }])],
  ['an empty slug', bundle([tool('')])],
  ['tags a string', bundle([{ ...tool('a'), tags: 'x' }])],
  ['input_schema a string', bundle([{ ...tool('a'), input_schema: 'object' }])],
  ['a number for a name, and a tool that is an array', bundle([{ ...tool('a'), name: 3 }, ['b']])],
  ['examples an object', bundle([{ ...tool('a'), examples: { params: {} } }])],
  ['annotations an array', bundle([{ ...tool('a'), annotations: [] }])],
];

describe('the manifest schema validator compiled at build', () => {
  const dir = scratchDir('bundle-shape-');
  const stale = scratchDir('bundle-shape-stale-');
  after(() => [dir, stale].forEach((folder) => rmSync(folder, { recursive: true, force: true })));
  precompileBundleShape(dir);
  const compiled = bundleShapeValidator(dir);
  const fresh = new Ajv2020(BUNDLE_SHAPE_OPTIONS).compile(bundleSchema());

  it('is the code made at build, not a compile', () => {
    assert.ok('stamp' in compiled);
  });

  for (const [name, document] of BUNDLES) {
    it(`${name}: the same verdict and errors as the schema compiled now`, () => {
      const verdict = compiled(document);
      assert.equal(verdict, fresh(document));
      assert.deepEqual(compiled.errors ?? null, fresh.errors ?? null);
      assert.equal(verdict, name === 'the example catalogue' || name === 'a hostile but well-formed bundle');
    });
  }

  it('code made from another schema is not used: the schema is compiled instead', () => {
    const text = readFileSync(new URL(BUNDLE_SHAPE_FILE, dir), 'utf8').replace(/"schema":"[0-9a-f]+"/, '"schema":"0000"');
    writeFileSync(new URL(BUNDLE_SHAPE_FILE, stale), text);
    const validator = bundleShapeValidator(stale);
    assert.equal('stamp' in validator, false);
    assert.equal(validator({ tools: [] }), false);
  });

  it("the generator's build leaves it in dist/, made from this schema and ajv", () => {
    assert.ok('stamp' in bundleShapeValidator(new URL('../../dist/check-compiled/', import.meta.url)));
  });
});

describe('ajv in a rebuild', () => {
  it("is not loaded when the build cache answers every tool's checks", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nb-lazy-ajv-'));
    try {
      const source = join(dir, 'catalogue.json');
      const out = join(dir, 'out');
      await writeFile(source, JSON.stringify(EXAMPLE));
      // Reports, as the process ends, the ajv modules it loaded.
      const probe = join(dir, 'probe.mjs');
      await writeFile(
        probe,
        "import { createRequire } from 'node:module';\n" +
          'const require = createRequire(import.meta.url);\n' +
          "process.on('exit', () => process.stderr.write(`ajv loaded: ${JSON.stringify(Object.keys(require.cache).filter((k) => /[\\\\/]node_modules[\\\\/]ajv[\\\\/]dist[\\\\/]/.test(k)).map((k) => k.replace(/.*[\\\\/]ajv[\\\\/]dist[\\\\/]/, '')))}\\n`));\n",
      );
      const build = () =>
        runCli(['build', '--no-compile', '--source', source, '--out', out], {
          env: { NODE_OPTIONS: `--import ${pathToFileURL(probe).href}` },
        });
      const loaded = (stderr: string): string[] => JSON.parse(/ajv loaded: (.*)/.exec(stderr)?.[1] ?? 'null') as string[];
      const first = await build();
      assert.equal(first.code, 0, first.stderr);
      assert.ok(loaded(first.stderr).length > 20, 'a first build compiles the schemas');
      const again = await build();
      assert.equal(again.code, 0, again.stderr);
      assert.deepEqual(loaded(again.stderr), ['runtime/ucs2length.js']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
