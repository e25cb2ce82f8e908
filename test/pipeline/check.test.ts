import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { checkCatalogueWith } from '../../src/pipeline/check/check-catalogue.js';
import { checkCatalogue } from '../../src/pipeline/check/check-in-thread.js';
import { createWork } from '../../src/pipeline/parallel/work.js';
import { compiledEagerly, SCHEMAS_PER_INSTANCE } from '../../src/pipeline/check/schema-compiler.js';
import { withheldReason } from '../../src/pipeline/check/slug-grammar.js';
import { bundle, hostileBundle, tool } from '../fixtures/catalogues.js';
import { formatProblem } from '../../src/pipeline/problems.js';
import { memoryCache } from '../../src/pipeline/cache/build-cache.js';

const errorsOf = (document: unknown) => checkCatalogue(document).problems.filter((p) => p.severity === 'error');

describe('check stage', () => {
  it('accepts a clean catalogue and sorts tools by slug code unit', () => {
    const result = checkCatalogue(bundle([tool('b'), tool('B'), tool('a')]));
    assert.deepEqual(result.problems, []);
    assert.deepEqual(
      result.tools.map((t) => t.manifest.slug),
      ['B', 'a', 'b'],
    );
  });

  type Want = { slug: string | null; pointer: string; bundlePointer: string; message: RegExp };
  const cases: Array<{ name: string; document: unknown; want: Want[] }> = [
    {
      name: 'wrong format',
      document: { format: 'other', tools: [] },
      want: [{ slug: null, pointer: '/format', bundlePointer: '/format', message: /^must be "nexusbloom-catalogue\/1" \(got "other"\)$/ }],
    },
    {
      name: 'not an object',
      document: [],
      want: [{ slug: null, pointer: '', bundlePointer: '', message: /^must be object \(got \[\]\)$/ }],
    },
    {
      name: 'missing required manifest field names the slug and field',
      document: bundle([tool('first'), { ...tool('no-version'), version: undefined }]),
      want: [{ slug: 'no-version', pointer: '/version', bundlePointer: '/tools/1/version', message: /missing required field "version"/ }],
    },
    {
      name: 'a manifest without a slug is named by its index',
      document: bundle([{ ...tool('x'), slug: undefined }]),
      want: [{ slug: '#0', pointer: '/slug', bundlePointer: '/tools/0/slug', message: /missing required field "slug"/ }],
    },
    {
      name: 'a tool that is null or not an object is named by its index, beside good tools',
      document: { format: 'nexusbloom-catalogue/1', tools: [null, tool('fine'), 7] },
      want: [
        { slug: '#0', pointer: '', bundlePointer: '/tools/0', message: /must be object \(got null\)/ },
        { slug: '#2', pointer: '', bundlePointer: '/tools/2', message: /must be object \(got 7\)/ },
      ],
    },
    {
      name: 'external $ref',
      document: bundle([tool('ext', { input_schema: { type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } } })]),
      want: [
        {
          slug: 'ext',
          pointer: '/input_schema/properties/a/$ref',
          bundlePointer: '/tools/0/input_schema/properties/a/$ref',
          message: /external \$ref/,
        },
      ],
    },
    {
      name: 'a schema keyword of the wrong kind is named at its own node, with the values allowed there',
      document: bundle([
        tool('first'),
        tool('second'),
        tool('bad-schema', { input_schema: { type: 'object', properties: { name: { type: 'strang' } } } }),
      ]),
      want: [
        {
          slug: 'bad-schema',
          pointer: '/input_schema/properties/name/type',
          bundlePointer: '/tools/2/input_schema/properties/name/type',
          message:
            /^schema does not compile: not a JSON Schema here: must be one of "array", "boolean", "integer", "null", "number", "object", "string" \(got "strang"\)$/,
        },
      ],
    },
    {
      name: 'unresolvable internal $ref is named where it stands',
      document: bundle([tool('bad-ref', { input_schema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } } })]),
      want: [
        {
          slug: 'bad-ref',
          pointer: '/input_schema/properties/a/$ref',
          bundlePointer: '/tools/0/input_schema/properties/a/$ref',
          message: /does not compile: \$ref "#\/\$defs\/missing" points to nothing/,
        },
      ],
    },
    {
      name: 'example that does not validate names the pointer inside params',
      document: bundle([tool('a-first'), tool('bad-example', { examples: [{ params: { text: 5 } }] })]),
      want: [
        {
          slug: 'bad-example',
          pointer: '/examples/0/params/text',
          bundlePointer: '/tools/1/examples/0/params/text',
          message: /must be string \(got 5\)/,
        },
      ],
    },
    {
      name: 'an example outside an enum lists the allowed values',
      document: bundle([
        tool('modes', {
          input_schema: { type: 'object', properties: { mode: { enum: ['fast', 'slow'] } } },
          examples: [{ params: { mode: 'medium' } }],
        }),
      ]),
      want: [
        {
          slug: 'modes',
          pointer: '/examples/0/params/mode',
          bundlePointer: '/tools/0/examples/0/params/mode',
          message: /^example does not match input_schema: must be one of "fast", "slow" \(got "medium"\)$/,
        },
      ],
    },
    {
      name: 'non-object top level',
      document: bundle([tool('array-top', { input_schema: { type: 'array' }, examples: [] })]),
      want: [
        { slug: 'array-top', pointer: '/input_schema/type', bundlePointer: '/tools/0/input_schema/type', message: /must be type "object"/ },
      ],
    },
    {
      name: 'duplicate slug names both bundle entries',
      document: bundle([tool('twice'), tool('other'), tool('twice')]),
      want: [
        {
          slug: 'twice',
          pointer: '/slug',
          bundlePointer: '/tools/2/slug',
          message: /^duplicate slug: bundle entries \/tools\/0 and \/tools\/2 both have it$/,
        },
      ],
    },
    {
      name: 'lone surrogate in a slug',
      document: bundle([tool('bad\ud800slug')]),
      want: [{ slug: 'bad\ud800slug', pointer: '/slug', bundlePointer: '/tools/0/slug', message: /surrogate/ }],
    },
  ];
  for (const { name, document, want } of cases) {
    it(`reports: ${name}`, () => {
      const errors = errorsOf(document);
      assert.equal(errors.length, want.length, JSON.stringify(errors));
      for (const w of want) {
        assert.ok(
          errors.some(
            (e) => e.slug === w.slug && e.pointer === w.pointer && e.bundlePointer === w.bundlePointer && w.message.test(e.message),
          ),
          `want ${JSON.stringify({ ...w, message: String(w.message) })} in ${JSON.stringify(errors, null, 1)}`,
        );
      }
      // ajv's own paths never reach the prose: the pointer says where.
      for (const error of errors) assert.doesNotMatch(`${error.message} ${error.hint ?? ''}`, /\bdata\//);
    });
  }

  it('every problem, warnings too, carries the bundle pointer; the printed line names it', () => {
    const result = checkCatalogue(bundle([tool('fine'), tool('with space'), tool('bad', { examples: [{ params: { text: 1 } }] })]));
    assert.deepEqual(
      result.problems.map((p) => [p.severity, p.slug, p.bundlePointer]),
      [
        ['error', 'bad', '/tools/2/examples/0/params/text'],
        ['warning', 'with space', '/tools/1/slug'],
      ],
    );
    assert.equal(
      formatProblem(result.problems[0]!),
      'error: tool "bad" at /tools/2/examples/0/params/text: example does not match input_schema: must be string (got 1) (fix the example or the schema)',
    );
  });

  it('a tool served from the cache gets the bundle pointer of its place in this bundle', async () => {
    const cache = memoryCache();
    const bad = tool('bad', { examples: [{ params: { text: 1 } }] });
    await checkCatalogueWith(bundle([bad]), createWork(cache));
    const moved = await checkCatalogueWith(bundle([tool('a'), tool('b'), bad]), createWork(cache));
    assert.equal(cache.stats.misses, 3, 'the moved tool was checked once');
    assert.deepEqual(
      moved.problems.map((p) => p.bundlePointer),
      ['/tools/2/examples/0/params/text'],
    );
  });

  it('reports every problem at once, across tools', () => {
    const errors = errorsOf(
      bundle([
        tool('one', { examples: [{ params: {} }] }),
        tool('two', { input_schema: { type: 'object', properties: { a: { $ref: 'x.json' } } } }),
      ]),
    );
    assert.deepEqual(new Set(errors.map((e) => e.slug)), new Set(['one', 'two']));
  });

  it('compiles draft-07 and 2020-12 schemas, with recursive refs', () => {
    const recursive = {
      type: 'object',
      properties: { node: { $ref: '#/definitions/node' } },
      definitions: { node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/definitions/node' } } } } },
    };
    const result = checkCatalogue(
      bundle([
        tool('d7', {
          input_schema: { $schema: 'http://json-schema.org/draft-07/schema#', ...recursive },
          examples: [{ params: { node: { kids: [{ kids: [] }] } } }],
        }),
        tool('d2020', {
          input_schema: {
            type: 'object',
            properties: { n: { $ref: '#/$defs/n' } },
            $defs: { n: { type: 'object', properties: { n: { $ref: '#/$defs/n' } } } },
          },
          examples: [{ params: { n: { n: {} } } }],
        }),
      ]),
    );
    assert.deepEqual(result.problems, []);
    // draft-07 semantics: `items` as an array is a tuple there, an error in 2020-12.
    const tuple = checkCatalogue(
      bundle([
        tool('tuple', {
          input_schema: {
            $schema: 'http://json-schema.org/draft-07/schema#',
            type: 'object',
            properties: { t: { type: 'array', items: [{ type: 'string' }] } },
          },
          examples: [],
        }),
      ]),
    );
    assert.deepEqual(tuple.problems, []);
  });

  it('compiles root references ($ref "#") and tools that share a schema $id', () => {
    const tree = {
      $id: 'https://example.com/tree.json',
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
    };
    const result = checkCatalogue(
      bundle([
        tool('tree-a', { input_schema: tree, examples: [{ params: { name: 'a', children: [{ name: 'b', children: [] }] } }] }),
        tool('tree-b', {
          input_schema: { ...tree },
          output_schema: { ...tree },
          examples: [{ params: { children: [{ children: [{ name: 'c' }] }] } }],
        }),
        tool('tree-bad', { input_schema: { ...tree }, examples: [{ params: { children: [{ name: 5 }] } }] }),
      ]),
    );
    assert.deepEqual(
      result.problems.map((p) => [p.slug, p.pointer]),
      [['tree-bad', '/examples/0/params/children/0/name']],
    );
  });

  it('withholds slugs outside the tool-name grammar as warnings, never drops them', () => {
    const result = checkCatalogue(hostileBundle());
    assert.deepEqual(
      result.problems.filter((p) => p.severity === 'error'),
      [],
    );
    const withheld = result.tools.filter((t) => t.withheldReason !== null).map((t) => t.manifest.slug);
    assert.deepEqual(withheld.sort(), ['../x', 'Env Validator', 'a'.repeat(70), 'x\u2028y', '日本語ツール'].sort());
    assert.equal(result.tools.length, hostileBundle().tools.length);
    for (const slug of withheld) {
      assert.ok(result.problems.some((p) => p.severity === 'warning' && p.slug === slug && p.pointer === '/slug'));
    }
  });

  it('explains why a slug is withheld', () => {
    assert.equal(withheldReason('env-validator'), null);
    assert.match(withheldReason('Text Stats')!, /white space/);
    assert.match(withheldReason('git/commit')!, /"\/"/);
    assert.match(withheldReason('ünï')!, /non-ASCII/);
    assert.match(withheldReason('a'.repeat(65))!, /longer than 64/);
    assert.match(withheldReason('a.b')!, /"\."/);
    assert.match(withheldReason('')!, /characters|longer/i);
  });

  it('does not mutate its input', () => {
    const document = hostileBundle();
    const before = JSON.stringify(document);
    checkCatalogue(document);
    assert.equal(JSON.stringify(document), before);
  });

  it('holds the bundle schema valid against the 2020-12 meta-schema (the shape check compiles it without that check)', () => {
    const schema = JSON.parse(readFileSync(new URL('../../src/schemas/manifest.schema.json', import.meta.url), 'utf8')) as Record<
      string,
      unknown
    >;
    const ajv = new Ajv2020({ strict: true });
    assert.equal(ajv.validateSchema(schema), true, JSON.stringify(ajv.errors));
  });

  it('checks every tool of a catalogue longer than one set of ajv instances serves, bad ones on both sides of the switch', () => {
    const count = SCHEMAS_PER_INSTANCE + 20;
    const tools = Array.from({ length: count }, (_, i) => {
      const slug = `t-${String(i).padStart(4, '0')}`;
      const input_schema = { type: 'object', properties: { n: { type: 'integer', maximum: i } }, required: ['n'] };
      // Every 50th tool's example breaks its own schema; the rest pass.
      return tool(slug, { input_schema, output_schema: { type: 'object' }, examples: [{ params: { n: i % 50 === 7 ? i + 1 : i } }] });
    });
    const result = checkCatalogue(bundle(tools));
    const failing = tools.filter((_, i) => i % 50 === 7).map((t) => t.slug);
    assert.deepEqual(
      result.problems.map((p) => [p.slug, p.pointer]),
      failing.map((slug) => [slug, '/examples/0/params/n']),
    );
    assert.equal(result.tools.length, count - failing.length, 'every other tool passes');
  });

  it('holds every schema against its meta-schema and resolves its refs on both sides of an instance switch', () => {
    // One instance set compiles SCHEMAS_PER_INSTANCE schemas (two a tool): the bad tools stand before and after it.
    const count = SCHEMAS_PER_INSTANCE;
    const bad = new Map<number, Record<string, unknown>>([
      [3, { type: 'object', properties: { n: { type: 'strang' } } }],
      [count - 3, { type: 'object', properties: { n: { type: 'strang' } } }],
      [5, { type: 'object', properties: { n: { $ref: '#/$defs/missing' } } }],
      [count - 5, { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { n: { minimum: 'one' } } }],
    ]);
    const tools = Array.from({ length: count }, (_, i) =>
      tool(`t-${String(i).padStart(4, '0')}`, {
        input_schema: bad.get(i) ?? { type: 'object', properties: { n: { type: 'integer', minimum: i } } },
        output_schema: { type: 'object' },
        examples: [],
      }),
    );
    assert.deepEqual(
      checkCatalogue(bundle(tools)).problems.map((p) => [p.slug, p.pointer, p.message]),
      [
        [
          't-0003',
          '/input_schema/properties/n/type',
          'schema does not compile: not a JSON Schema here: must be one of "array", "boolean", "integer", "null", "number", "object", "string" (got "strang")',
        ],
        ['t-0005', '/input_schema/properties/n/$ref', 'schema does not compile: $ref "#/$defs/missing" points to nothing in the schema'],
        [
          `t-0${count - 5}`,
          '/input_schema/properties/n/minimum',
          'schema does not compile: not a JSON Schema here: must be number (got "one")',
        ],
        [
          `t-0${count - 3}`,
          '/input_schema/properties/n/type',
          'schema does not compile: not a JSON Schema here: must be one of "array", "boolean", "integer", "null", "number", "object", "string" (got "strang")',
        ],
      ],
    );
  });
});

describe('compiledEagerly', () => {
  const cases: Array<{ name: string; given: string; want: string }> = [
    {
      name: "ajv's code: the returned function in parentheses",
      given: 'const func0 = scope.func[0];return function validate7(data){if(func0(data)){return true;}}\n',
      want: 'const func0 = scope.func[0];return (function validate7(data){if(func0(data)){return true;}});',
    },
    { name: 'no scope values', given: 'return function validate0(data){}', want: 'return (function validate0(data){});' },
    { name: 'any other shape: unchanged', given: 'return validate0;', want: 'return validate0;' },
    { name: 'not ending in the function: unchanged', given: 'return function v(d){};x()', want: 'return function v(d){};x()' },
  ];
  for (const { name, given, want } of cases) it(name, () => assert.equal(compiledEagerly(given), want));

  it('gives code that validates as the code it was given', () => {
    const code = 'return function validate0(data){return data === 1;}';
    const [plain, eager] = [code, compiledEagerly(code)].map((text) => new Function(text)() as (data: unknown) => boolean);
    assert.deepEqual([plain!(1), plain!(2)], [eager!(1), eager!(2)]);
  });
});
