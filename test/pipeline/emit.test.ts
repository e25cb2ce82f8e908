import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCatalogue } from '../../src/pipeline/check/check-in-thread.js';
import { resolveConfig } from '../../src/pipeline/config.js';
import { emitPackage, type PackageFiles } from '../../src/pipeline/emit/emit-package.js';
import { wholeText } from '../../src/pipeline/emit/package-text.js';
import { cleanSchema } from '../../src/pipeline/emit/schema-types.js';
import { commentText, docComment, endingInOneNewline, markdownCell } from '../../src/pipeline/emit/text.js';
import { planPackage } from '../../src/pipeline/plan/plan-package.js';
import { bundle, hostileBundle, HOSTILE_TEXT, INJECTION, tool } from '../fixtures/catalogues.js';

/** The files' texts, each whole (the large data files are emitted to be put out a part at a time). */
const wholeTexts = (files: PackageFiles): Map<string, string> => new Map([...files].map(([path, text]) => [path, wholeText(text)]));

async function emit(document: unknown): Promise<Map<string, string>> {
  const check = checkCatalogue(document);
  assert.deepEqual(
    check.problems.filter((p) => p.severity === 'error'),
    [],
  );
  return wholeTexts((await emitPackage(planPackage(check.tools), resolveConfig())).files);
}

/** A copy of a manifest with its own keys in reverse order. */
function reverseTopKeys(value: unknown): unknown {
  const entries = Object.entries(value as Record<string, unknown>).reverse();
  return Object.fromEntries(entries);
}

describe('emit stage', () => {
  it('is deterministic: twice, reversed key order and shuffled tool order give the same bytes', async () => {
    const document = hostileBundle();
    const before = JSON.stringify(document);
    const one = await emit(document);
    assert.equal(JSON.stringify(document), before, 'input not mutated');
    const two = await emit(hostileBundle());
    // Property order inside a schema is meaningful and kept; the tools' order and each manifest's key order move.
    const shuffled = hostileBundle().tools.map(reverseTopKeys).reverse();
    const three = await emit({ tools: shuffled, format: 'nexusbloom-catalogue/1' });
    assert.deepEqual([...two], [...one]);
    assert.deepEqual([...three], [...one]);
  });

  it('marks the runtime and the data files as generated for code review, and leaves the tool modules open', async () => {
    const files = await emit(bundle([tool('env-validator')]));
    const attributes = (files.get('.gitattributes') ?? '').split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    assert.ok(attributes.includes('data/** linguist-generated'));
    assert.ok(attributes.includes('src/runtime/** linguist-generated'));
    assert.equal(
      attributes.some((line) => line.startsWith('src/tools') || line.startsWith('src/**')),
      false,
    );
  });

  it('writes LF line ends and one final newline in every file, and no absolute paths or dates', async () => {
    const files = await emit(bundle([tool('env-validator'), tool('data-generator')]));
    for (const [path, text] of files) {
      assert.equal(text.includes('\r'), false, path);
      assert.ok(text.endsWith('\n') && !text.endsWith('\n\n'), path);
      assert.equal(text.includes(process.cwd()), false, path);
      if (!path.startsWith('src/runtime/')) assert.equal(/20\d\d-\d\d-\d\dT/.test(text), false, path);
    }
  });

  it('adds only ASCII to the generated modules and data: a catalogue in ASCII gives ASCII text outside the README', async () => {
    // One character past Latin-1 makes V8 hold a whole file's text as two bytes a character.
    const files = await emit(bundle([tool('env-validator', { deprecated: 'Use data-generator.' }), tool('data-generator')]));
    for (const [path, text] of files) {
      if (path.startsWith('src/runtime/') || path === 'README.md') continue;
      const wide = [...text].find((character) => character.charCodeAt(0) > 0x7f);
      assert.equal(wide, undefined, path);
    }
  });

  it('lays out one module per tool plus the package files', async () => {
    const files = await emit(bundle([tool('env-validator'), tool('Env Validator')]));
    const paths = [...files.keys()].filter((p) => !p.startsWith('src/runtime/'));
    assert.deepEqual(paths.slice().sort(), paths);
    for (const expected of [
      'package.json',
      'tsconfig.json',
      'README.md',
      'data/catalogue.json',
      'src/bin.ts',
      'src/index.ts',
      'src/tools/index.ts',
      'src/tools/env-validator.ts',
    ]) {
      assert.ok(files.has(expected), expected);
    }
    assert.ok(paths.some((p) => /^src\/tools\/env-validator-[0-9a-f]{6}\.ts$/.test(p)));
    const pkg = JSON.parse(files.get('package.json')!);
    assert.equal(pkg.name, '@nexusbloom/mcp-server');
    for (const version of Object.values({ ...pkg.dependencies, ...pkg.devDependencies })) assert.match(String(version), /^\d+\.\d+\.\d+$/);
    assert.ok(files.get('src/runtime/shared/contracts.ts'));
  });

  it('gives the README an example call whose input fits: an example, none where input may be left out, plain values', async () => {
    const call = async (...tools: unknown[]) => /const result = await (.*);/.exec((await emit(bundle(tools))).get('README.md') ?? '')?.[1];
    const noExamples = { examples: [] };
    assert.equal(await call(tool('alpha')), 'alpha({"text":"abc"})');
    // `{}` need not fit a type with a `constructor` field (Object.prototype's would not be a number): no argument.
    const fieldsOnly = { type: 'object', properties: { constructor: { type: 'number' } } };
    assert.equal(await call(tool('alpha', { ...noExamples, input_schema: fieldsOnly })), 'alpha()');
    assert.equal(await call(tool('alpha', { ...noExamples, input_schema: null })), 'alpha()');
    const required = {
      type: 'object',
      required: ['n', 'kind', 'on'],
      properties: { n: { type: 'integer', minimum: 3 }, kind: { enum: ['x', 'y'] }, on: { type: 'boolean' } },
    };
    assert.equal(await call(tool('alpha', { ...noExamples, input_schema: required })), 'alpha({"n":3,"kind":"x","on":false})');
    // A tool whose input no plain value stands for gives way to one that has an example, even one withheld.
    const refOnly = { type: 'object', required: ['r'], properties: { r: { $ref: '#/$defs/r' } }, $defs: { r: { type: 'object' } } };
    assert.equal(await call(tool('alpha', { ...noExamples, input_schema: refOnly }), tool('beta gamma')), 'betaGamma({"text":"abc"})');
  });

  it('takes names from the config', async () => {
    const check = checkCatalogue(bundle([tool('a-tool')]));
    const files = wholeTexts(
      (
        await emitPackage(
          planPackage(check.tools),
          resolveConfig({ packageName: '@acme/tools-mcp', metaToolName: 'acme', uriScheme: 'acme', envPrefix: 'ACME_' }),
        )
      ).files,
    );
    assert.equal(JSON.parse(files.get('package.json')!).name, '@acme/tools-mcp');
    assert.match(files.get('src/names.ts')!, /^ {2}metaToolName: 'acme',$/m);
    assert.match(files.get('README.md')!, /ACME_API_KEY/);
  });

  it('keeps catalogue text out of code: only inside JSON strings and escaped comments', async () => {
    const files = await emit(hostileBundle());
    for (const [path, text] of files) {
      if (!path.startsWith('src/') || path.startsWith('src/runtime/')) continue;
      // The injection may appear only JSON-encoded (in either quotes) or inside a comment, never as live code.
      const code = text
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/"(?:[^"\\\n]|\\.)*"/g, '""')
        .replace(/'(?:[^'\\\n]|\\.)*'/g, "''");
      assert.equal(code.includes('__catalogueEvaluated'), false, `${path} carries catalogue text as code`);
      assert.equal(code.includes('process.exit'), false, path);
    }
  });

  it('strips json-schema-to-typescript instructions (tsType, titles) and keeps property names', () => {
    const cleaned = cleanSchema(
      JSON.parse('{"title":"X","tsType":"any","properties":{"__proto__":{"type":"string","tsType":"never"},"title":{"type":"string"}}}'),
    ) as Record<string, unknown>;
    assert.equal('title' in cleaned, false);
    assert.equal('tsType' in cleaned, false);
    const properties = cleaned.properties as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(properties), ['__proto__', 'title']);
    assert.equal(Object.getOwnPropertyDescriptor(properties, '__proto__')!.value.tsType, undefined);
  });

  it('copies a keyword named __proto__ as an own key: it never becomes the prototype of the copy', () => {
    const cleaned = cleanSchema(
      JSON.parse(
        '{"type":"object","__proto__":{"properties":{"x":{"type":"string"}},"required":["x"]},"properties":{"y":{"type":"number"}}}',
      ),
    ) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(cleaned), Object.prototype);
    assert.ok(Object.hasOwn(cleaned, '__proto__'));
    // Nothing of it is read as the schema's own keywords through the prototype chain.
    assert.equal(cleaned.required, undefined);
    assert.deepEqual(Object.keys(cleaned.properties as object), ['y']);
  });

  it('points refs at anchors and at definitions moved into $defs, percent-encoded or not, without touching its input', () => {
    const schema = {
      type: 'object',
      definitions: { 'a b': { type: 'string' }, 'x/y': { $anchor: 'deep', type: 'integer' } },
      $defs: { 'a b': { type: 'number' } },
      properties: {
        p: { $ref: '#/definitions/a%20b' },
        q: { $ref: '#/definitions/x~1y' },
        r: { $ref: '#deep' },
        s: { $ref: '#/$defs/a b' },
      },
    };
    const before = JSON.stringify(schema);
    const names = new Map([
      ['/$defs/a b', 'RootAB'],
      ['/definitions/a b', 'RootABDefinitions'],
      ['/definitions/x~1y', 'RootXY'],
    ]);
    const cleaned = cleanSchema(schema, names) as {
      $defs: Record<string, { title: string }>;
      properties: Record<string, { $ref: string }>;
    };
    assert.equal(JSON.stringify(schema), before);
    // Each definition is keyed by its planned name (names json-schema-to-typescript derives from a key are then the
    // plan's too), so both kinds fit in one $defs without a clash.
    assert.deepEqual(Object.keys(cleaned.$defs), ['RootAB', 'RootABDefinitions', 'RootXY']);
    assert.equal('definitions' in cleaned, false);
    assert.deepEqual(
      Object.values(cleaned.properties).map((p) => p.$ref),
      ['#/$defs/RootABDefinitions', '#/$defs/RootXY', '#/$defs/RootXY', '#/$defs/RootAB'],
    );
    assert.equal(cleaned.$defs.RootABDefinitions!.title, 'RootABDefinitions');
  });

  it('ends every file in exactly one LF', () => {
    assert.deepEqual(['', 'a', 'a\n', 'a\n\n\n', '\n\n', 'a\r\n', 'a\nb'].map(endingInOneNewline), [
      '\n',
      'a\n',
      'a\n',
      'a\n',
      '\n',
      'a\r\n',
      'a\nb\n',
    ]);
  });

  it('escapes comment terminators and line separators', () => {
    assert.equal(commentText('a */ b'), 'a *\\/ b');
    assert.equal(commentText('a\u2028b\r\nc\0'), 'a\nb\nc\\u0000');
    assert.equal(docComment('x */'), '/**\n * x *\\/\n */');
    assert.equal(markdownCell('a | b\nc'), 'a \\| b c');
    assert.equal(HOSTILE_TEXT.includes('*/') && INJECTION.includes('"'), true);
  });
});

describe('emit stage: registry metadata', () => {
  // The MCP Registry's server.json rules (schema 2025-12-11), kept here since the schema is not reachable offline.
  const NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
  const EXACT_VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

  for (const overrides of [
    {},
    { packageName: '@acme/some_tools', defaultApiUrl: 'https://api.acme.example/v1', description: 'x'.repeat(300) },
  ]) {
    it(`server.json follows the registry rules and matches package.json mcpName (${JSON.stringify(overrides).slice(0, 40)})`, async () => {
      const check = checkCatalogue(bundle([tool('a-tool')]));
      const files = wholeTexts((await emitPackage(planPackage(check.tools), resolveConfig(overrides))).files);
      const server = JSON.parse(files.get('server.json')!);
      const pkg = JSON.parse(files.get('package.json')!);
      assert.equal(server.$schema, 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
      assert.match(server.name, NAME);
      assert.ok(server.description.length >= 1 && server.description.length <= 100);
      assert.match(server.version, EXACT_VERSION);
      assert.equal(pkg.mcpName, server.name);
      const [npm] = server.packages;
      assert.deepEqual([npm.registryType, npm.identifier, npm.version, npm.transport.type], ['npm', pkg.name, pkg.version, 'stdio']);
      for (const variable of npm.environmentVariables) {
        assert.equal(typeof variable.name, 'string');
        assert.equal(typeof variable.isSecret, 'boolean');
        assert.equal(typeof variable.isRequired, 'boolean');
      }
    });
  }
});

describe('emit stage: type declarations', () => {
  it('indents by brace depth, ignoring braces in comments and string literal types', async () => {
    const { indentDeclarations } = await import('../../src/pipeline/emit/schema-types.js');
    const input = ['export interface A {', '/**', ' * a { brace', ' */', 'b?: {', 'c: ("{" | "}x")', '}[]', '}', ''].join('\n');
    assert.equal(
      indentDeclarations(input),
      ['export interface A {', '  /**', '   * a { brace', '   */', '  b?: {', '    c: ("{" | "}x")', '  }[]', '}', ''].join('\n'),
    );
  });
});
