// The OpenAPI converter, stage by stage: dialect rules, local refs as $defs, operations as manifests, and the source
// stage telling documents apart by content (given/want tables).

import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { JsonObject, Manifest } from '../../src/runtime/shared/contracts.js';
import { OPERATION_FIELD, type OperationCall } from '../../src/runtime/execution/operation.js';
import { buildOperationRequest } from '../../src/runtime/execution/operation-request.js';
import { checkCatalogue } from '../../src/pipeline/check/check-in-thread.js';
import { planPackage } from '../../src/pipeline/plan/plan-package.js';
import { sanitizedToolName } from '../../src/pipeline/plan/tool-names.js';
import { PipelineError } from '../../src/pipeline/problems.js';
import { defNameOf, withLocalDefs } from '../../src/pipeline/source/openapi/local-refs.js';
import { openApiManifests } from '../../src/pipeline/source/openapi/openapi-source.js';
import { toJsonSchema2020 } from '../../src/pipeline/source/openapi/schema-dialect.js';
import { readSource } from '../../src/pipeline/source/read-source.js';

const keep = (ref: string): string => ref;

describe('OpenAPI 3.0 schema dialect → JSON Schema 2020-12', () => {
  const cases: Array<{ rule: string; given: unknown; want: unknown }> = [
    { rule: 'nullable adds null to the type', given: { type: 'string', nullable: true }, want: { type: ['string', 'null'] } },
    {
      rule: 'nullable adds null to an enum',
      given: { type: 'string', enum: ['a'], nullable: true },
      want: { type: ['string', 'null'], enum: ['a', null] },
    },
    {
      rule: 'nullable without a type is an alternative',
      given: { allOf: [{ type: 'object' }], nullable: true },
      want: { anyOf: [{ allOf: [{ type: 'object' }] }, { type: 'null' }] },
    },
    { rule: 'nullable: false says nothing', given: { type: 'integer', nullable: false }, want: { type: 'integer' } },
    { rule: 'Swagger x-nullable', given: { type: 'number', 'x-nullable': true }, want: { type: ['number', 'null'] } },
    {
      rule: 'a nullable ref',
      given: { $ref: '#/components/schemas/A', nullable: true },
      want: { anyOf: [{ $ref: '#/components/schemas/A' }, { type: 'null' }] },
    },
    { rule: "a 3.0 ref's siblings are ignored", given: { $ref: '#/x', description: 'ignored' }, want: { $ref: '#/x' } },
    {
      rule: 'exclusiveMinimum: true',
      given: { type: 'number', minimum: 0, exclusiveMinimum: true },
      want: { type: 'number', exclusiveMinimum: 0 },
    },
    { rule: 'exclusiveMaximum: false', given: { maximum: 9, exclusiveMaximum: false }, want: { maximum: 9 } },
    { rule: 'example becomes examples', given: { type: 'string', example: 'x' }, want: { type: 'string', examples: ['x'] } },
    {
      rule: 'discriminator, xml, externalDocs and x- extensions are dropped',
      given: {
        oneOf: [{ type: 'object' }],
        discriminator: { propertyName: 'kind' },
        xml: { name: 'a' },
        externalDocs: { url: 'u' },
        'x-ms-enum': {},
      },
      want: { oneOf: [{ type: 'object' }] },
    },
    { rule: 'Swagger file type', given: { type: 'file' }, want: { type: 'string', format: 'binary' } },
    {
      rule: 'tuple items become prefixItems',
      given: { type: 'array', items: [{ type: 'string' }], additionalItems: false },
      want: { type: 'array', prefixItems: [{ type: 'string' }], items: false },
    },
    {
      rule: 'nested positions are converted',
      given: { type: 'object', properties: { a: { type: 'string', nullable: true } }, additionalProperties: { example: 1 } },
      want: { type: 'object', properties: { a: { type: ['string', 'null'] } }, additionalProperties: { examples: [1] } },
    },
    {
      rule: 'a pattern with identity escapes becomes a Unicode regular expression',
      given: { type: 'string', pattern: '[A-Za-z0-9]([A-Za-z0-9\\:\\-\\_\\.\\@]{0,62})?' },
      want: { type: 'string', pattern: '[A-Za-z0-9]([A-Za-z0-9:\\-_\\.@]{0,62})?' },
    },
    {
      rule: 'a pattern no Unicode regular expression can spell is dropped',
      given: { type: 'string', pattern: '^{x}$' },
      want: { type: 'string' },
    },
    {
      rule: 'a pattern no linear-time engine can run (a lookahead) is dropped',
      given: { type: 'string', pattern: '^(?=.*[a-z])[a-zA-Z\\d]{12,123}$' },
      want: { type: 'string' },
    },
    {
      rule: 'a property named like a keyword is left alone',
      given: { type: 'object', properties: { nullable: { type: 'boolean' }, example: { type: 'string' } } },
      want: { type: 'object', properties: { nullable: { type: 'boolean' }, example: { type: 'string' } } },
    },
  ];
  for (const { rule, given, want } of cases) {
    it(rule, () => {
      const before = structuredClone(given);
      assert.deepEqual(toJsonSchema2020(given, 'oas30', keep), want);
      assert.deepEqual(given, before, 'the input is not mutated');
    });
  }

  it('3.1 keeps a ref with its siblings (2020-12 allows them)', () => {
    assert.deepEqual(toJsonSchema2020({ $ref: '#/a', description: 'kept' }, 'oas31', keep), { $ref: '#/a', description: 'kept' });
  });
});

describe('local refs become self-contained $defs', () => {
  const document: JsonObject = {
    components: {
      schemas: {
        Pet: {
          type: 'object',
          properties: { owner: { $ref: '#/components/schemas/Owner' }, parent: { $ref: '#/components/schemas/Pet' } },
        },
        Owner: { type: 'string' },
        Unused: { type: 'number' },
        'Weird Name«x»': { type: 'boolean' },
      },
    },
  };
  const read = (ref: string): unknown =>
    ref
      .replace(/^#\//, '')
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, key) => (node as JsonObject)[key], document);

  it('only the reachable ones, sorted, recursive ones kept as refs', () => {
    assert.deepEqual(withLocalDefs({ $ref: '#/components/schemas/Pet' }, 'oas30', read), {
      $ref: '#/$defs/Pet',
      $defs: {
        Owner: { type: 'string' },
        Pet: { type: 'object', properties: { owner: { $ref: '#/$defs/Owner' }, parent: { $ref: '#/$defs/Pet' } } },
      },
    });
  });

  it('names: component names kept, anything else made safe and told apart by a hash', () => {
    assert.equal(defNameOf('#/components/schemas/Pet'), 'Pet');
    assert.equal(defNameOf('#/definitions/Pet'), 'Pet');
    assert.equal(defNameOf('#/components/parameters/limit/schema'), 'components_parameters_limit_schema');
    assert.match(defNameOf('#/components/schemas/Weird Name«x»'), /^Weird_Name_x_[0-9a-f]{6}$/);
  });

  it('an external ref is refused', () => {
    assert.throws(() => withLocalDefs({ $ref: 'other.yaml#/Pet' }, 'oas30', read), /external \$ref "other.yaml#\/Pet" is not allowed/);
  });
});

const petstore30: JsonObject = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1.0.0' },
  servers: [{ url: 'https://pets.example/{v}', variables: { v: { default: 'v1' } } }],
  paths: {
    '/pets/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: {
        operationId: 'getPet',
        summary: 'Get a pet',
        description: 'Reads one pet.',
        tags: ['pets', 'read'],
        parameters: [
          { name: 'id', in: 'query', schema: { type: 'string' }, description: 'shadow id' },
          { name: 'Accept', in: 'header', schema: { type: 'string' } },
          { $ref: '#/components/parameters/Limit' },
        ],
        responses: {
          '404': { description: 'no' },
          '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
        },
      },
      delete: { responses: { '204': { description: 'gone' } } },
      put: {
        operationId: 'putPet',
        'x-mcp': { annotations: { destructiveHint: true } },
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
        responses: { '2XX': { description: 'ok', content: { 'application/problem+json': { schema: { type: 'object' } } } } },
      },
      post: { operationId: 'hidden', 'x-mcp': { exclude: true }, responses: { '200': { description: 'ok' } } },
    },
  },
  components: {
    parameters: { Limit: { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100, exclusiveMaximum: true } } },
    schemas: { Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string', nullable: true } } } },
  },
};

describe('operations become manifests', () => {
  it('one tool per operation, in path then method order; x-mcp exclude leaves one out', async () => {
    const tools = await openApiManifests(structuredClone(petstore30), 'pets.json', null);
    assert.deepEqual(
      tools.map((t) => t.slug),
      ['getPet', 'putPet', 'delete /pets/{id}'],
    );
  });

  it('names, prose, category, tags, annotations; parameters and a shadowed name keyed by location; $ref parameters followed', async () => {
    const [get] = await openApiManifests(structuredClone(petstore30), 'pets.json', null);
    const want: Partial<Manifest> = {
      slug: 'getPet',
      name: 'Get a pet',
      description: 'Reads one pet.',
      category: 'pets',
      tags: ['pets', 'read'],
      version: '1.0.0',
      input_schema: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          query_id: { type: 'string', description: 'shadow id' },
          limit: { type: 'integer', exclusiveMaximum: 100 },
        },
        required: ['id'],
        additionalProperties: false,
      },
      output_schema: {
        $ref: '#/$defs/Pet',
        $defs: { Pet: { type: 'object', required: ['name'], properties: { name: { type: ['string', 'null'] } } } },
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    };
    for (const [key, value] of Object.entries(want)) assert.deepEqual(get![key], value, key);
    const call = get![OPERATION_FIELD] as OperationCall;
    assert.deepEqual(call, {
      method: 'GET',
      path: '/pets/{id}',
      body: null,
      servers: ['https://pets.example/v1'],
      security: [],
      securitySchemes: {},
      parameters: [
        { key: 'id', name: 'id', in: 'path', style: 'simple', explode: false },
        { key: 'query_id', name: 'id', in: 'query', style: 'form', explode: true },
        { key: 'limit', name: 'limit', in: 'query', style: 'form', explode: true },
      ],
    });
  });

  it('the JSON body goes under "body"; output from the first 2xx JSON response (+json too); x-mcp annotations override the method', async () => {
    const [, put, del] = await openApiManifests(structuredClone(petstore30), 'pets.json', null);
    assert.deepEqual(put!.input_schema, {
      type: 'object',
      properties: { id: { type: 'integer' }, body: { $ref: '#/$defs/Pet' } },
      required: ['id', 'body'],
      additionalProperties: false,
      $defs: { Pet: { type: 'object', required: ['name'], properties: { name: { type: ['string', 'null'] } } } },
    });
    assert.deepEqual((put![OPERATION_FIELD] as OperationCall).body, { key: 'body', contentType: 'application/json', required: true });
    assert.deepEqual(put!.output_schema, { type: 'object' });
    assert.deepEqual(put!.annotations, { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true });
    assert.deepEqual(del!.annotations, { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true });
    assert.equal(del!.output_schema, null);
    assert.equal(del!.name, 'DELETE /pets/{id}');
  });

  it('Swagger 2.0: body and formData parameters, collectionFormat, definitions, host/basePath, securityDefinitions', async () => {
    const swagger: JsonObject = {
      swagger: '2.0',
      info: { title: 'S', version: '2' },
      host: 'api.example.com',
      basePath: '/v2',
      schemes: ['http', 'https'],
      securityDefinitions: {
        key: { type: 'apiKey', in: 'header', name: 'X-Key' },
        basicAuth: { type: 'basic' },
        cc: { type: 'oauth2', flow: 'application', tokenUrl: 'https://auth.example.com/token', scopes: {} },
      },
      security: [{ key: [] }],
      paths: {
        '/things': {
          get: {
            operationId: 'list',
            parameters: [{ name: 'tags', in: 'query', type: 'array', items: { type: 'string' }, collectionFormat: 'pipes' }],
            responses: { 200: { description: 'ok', schema: { type: 'array', items: { $ref: '#/definitions/Thing' } } } },
          },
          post: {
            operationId: 'create',
            security: [{ cc: [] }],
            parameters: [{ name: 'thing', in: 'body', required: true, schema: { $ref: '#/definitions/Thing' } }],
            responses: { 201: { description: 'made' } },
          },
          put: {
            operationId: 'upload',
            security: [{ basicAuth: [] }],
            consumes: ['application/x-www-form-urlencoded'],
            parameters: [{ name: 'n', in: 'formData', type: 'integer', required: true }],
            responses: { 200: { description: 'ok' } },
          },
        },
      },
      definitions: { Thing: { type: 'object', properties: { size: { type: 'integer', 'x-nullable': true } } } },
    };
    const [list, upload, create] = await openApiManifests(swagger, 's.json', null);
    const listCall = list![OPERATION_FIELD] as OperationCall;
    assert.deepEqual(listCall.parameters, [{ key: 'tags', name: 'tags', in: 'query', style: 'pipeDelimited', explode: false }]);
    assert.deepEqual(listCall.servers, ['https://api.example.com/v2']);
    assert.deepEqual(listCall.securitySchemes, { key: { type: 'apiKey', in: 'header', name: 'X-Key' } });
    assert.deepEqual(list!.output_schema, {
      type: 'array',
      items: { $ref: '#/$defs/Thing' },
      $defs: { Thing: { type: 'object', properties: { size: { type: ['integer', 'null'] } } } },
    });
    assert.deepEqual((create!.input_schema as JsonObject).required, ['body']);
    assert.deepEqual((create![OPERATION_FIELD] as OperationCall).securitySchemes, {
      cc: { type: 'oauth2', tokenUrl: 'https://auth.example.com/token', scopes: [] },
    });
    assert.deepEqual((upload!.input_schema as JsonObject).properties, {
      body: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
    });
    assert.deepEqual((upload![OPERATION_FIELD] as OperationCall).body, {
      key: 'body',
      contentType: 'application/x-www-form-urlencoded',
      required: true,
    });
    assert.deepEqual((upload![OPERATION_FIELD] as OperationCall).securitySchemes, { basicAuth: { type: 'http', scheme: 'basic' } });
  });

  it('every converted tool passes the catalogue check', async () => {
    const tools = await openApiManifests(structuredClone(petstore30), 'pets.json', null);
    const check = checkCatalogue({ format: 'nexusbloom-catalogue/1', tools });
    assert.deepEqual(
      check.problems.filter((p) => p.severity === 'error'),
      [],
    );
  });

  it('refuses external refs, naming the pointer, before the parser would fetch anything', async () => {
    const document = structuredClone(petstore30);
    ((document.components as JsonObject).schemas as JsonObject).Pet = { $ref: 'https://elsewhere.example/pet.json' };
    await assert.rejects(openApiManifests(document, 'pets.json', null), (error: unknown) => {
      assert.ok(error instanceof PipelineError);
      assert.match(error.message, /\/components\/schemas\/Pet\/\$ref.*external \$ref "https:\/\/elsewhere\.example\/pet\.json"/);
      return true;
    });
  });

  it('a $ref that points nowhere is refused at its own pointer', async () => {
    const document = structuredClone(petstore30);
    const get = ((document.paths as JsonObject)['/pets/{id}'] as JsonObject).get as JsonObject;
    (get.parameters as JsonObject[])[2] = { $ref: '#/components/parameters/Missing' };
    await assert.rejects(openApiManifests(document, 'pets.json', null), (error: unknown) => {
      assert.ok(error instanceof PipelineError);
      assert.deepEqual(
        error.problems.map((p) => p.pointer),
        ['/paths/~1pets~1{id}/get/parameters/2/$ref'],
      );
      assert.match(error.message, /"#\/components\/parameters\/Missing" points nowhere/);
      return true;
    });
  });

  it('a fault in a shared component is named once, where the component stands, not at every use', async () => {
    const document = structuredClone(petstore30);
    ((document.components as JsonObject).schemas as JsonObject).Pet = { type: 'objekt' };
    await assert.rejects(openApiManifests(document, 'pets.json', null), (error: unknown) => {
      assert.ok(error instanceof PipelineError);
      assert.match(error.message, /#\/components\/schemas\/Pet\/type/);
      assert.doesNotMatch(error.message, /#\/paths\//);
      return true;
    });
  });

  it('an invalid document is an error saying so', async () => {
    await assert.rejects(
      openApiManifests({ openapi: '3.0.0', info: { title: 'x' }, paths: {} }, 'bad.json', null),
      /bad\.json is not a valid OpenAPI 3\.0\.0 document/,
    );
  });
});

describe('the source stage tells documents apart by content', () => {
  it('a YAML document under any file name is converted; a bundle is still a bundle', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openapi-source-'));
    const yaml = join(dir, 'api.txt');
    await writeFile(
      yaml,
      'openapi: 3.1.0\ninfo: {title: T, version: "1"}\npaths:\n  /ping:\n    get:\n      operationId: ping\n      responses: {"200": {description: ok}}\n',
    );
    const raw = await readSource(yaml);
    assert.equal(raw.kind, 'openapi');
    assert.deepEqual(
      (raw.document as { tools: Manifest[] }).tools.map((t) => t.slug),
      ['ping'],
    );
    const bundle = join(dir, 'b.json');
    await writeFile(bundle, JSON.stringify({ format: 'nexusbloom-catalogue/1', tools: [] }));
    assert.equal((await readSource(bundle)).kind, 'bundle');
    const broken = join(dir, 'c.json');
    await writeFile(broken, '{"format": ');
    await assert.rejects(readSource(broken), /is not valid JSON/);
  });
});

describe('an API description at a URL', () => {
  it('is read once, told apart by content (YAML here), its relative server resolved against the URL', async () => {
    const text =
      'openapi: 3.0.0\ninfo: {title: T, version: "1"}\nservers: [{url: /v1}]\npaths:\n  /ping:\n    get:\n      operationId: ping\n      responses: {"200": {description: ok}}\n';
    const requests: string[] = [];
    const server = createServer((request, response) => {
      requests.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'application/yaml' }).end(text);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/specs/openapi.yaml`;
      const raw = await readSource(url);
      assert.equal(raw.kind, 'openapi');
      const [ping] = (raw.document as { tools: Manifest[] }).tools;
      assert.deepEqual((ping![OPERATION_FIELD] as OperationCall).servers, [`${new URL(url).origin}/v1`]);
      assert.deepEqual(requests, ['/specs/openapi.yaml']);
    } finally {
      server.close();
    }
  });
});

describe('requests from arguments', () => {
  const call: OperationCall = {
    method: 'GET',
    path: '/a/{id}/{tags}#op=LIST',
    body: null,
    servers: [],
    security: [],
    securitySchemes: {},
    parameters: [
      { key: 'id', name: 'id', in: 'path', style: 'simple', explode: false },
      { key: 'tags', name: 'tags', in: 'path', style: 'label', explode: false },
      { key: 'q', name: 'q', in: 'query', style: 'form', explode: true, allowReserved: true },
      { key: 'o', name: 'o', in: 'query', style: 'form', explode: false },
      { key: 'p', name: 'p', in: 'query', style: 'spaceDelimited', explode: false },
      { key: 'h', name: 'X-H', in: 'header', style: 'simple', explode: true },
    ],
  };
  it('path, fixed query, styles and encodings', () => {
    const request = buildOperationRequest(call, { id: '..', tags: ['x', 'y'], q: 'a/b?', o: { k: 'v', n: 1 }, p: ['1', '2'], h: { a: 1 } });
    assert.equal(request.target, '/a/%2E%2E/.x,y?op=LIST&q=a/b?&o=k,v,n,1&p=1%202');
    assert.deepEqual(request.headers, { 'x-h': 'a=1' });
  });
});

describe('tool names for foreign slugs (toolNames: "sanitize")', () => {
  it('grammar-breaking slugs get valid, stable names; a clash gets a hash; the default stays withheld', () => {
    assert.equal(sanitizedToolName('issues/create'), 'issues_create');
    assert.equal(sanitizedToolName('get /pets/{id}'), 'get_pets_id');
    assert.equal(sanitizedToolName('ünï code'), 'uni_code');
    assert.ok(sanitizedToolName('x'.repeat(80)).length <= 64);
    const tools = ['issues/create', 'issues_create', 'issues create', 'ok-tool'].map((slug) => ({
      manifest: { slug } as Manifest,
      withheldReason: /^[A-Za-z0-9_-]{1,64}$/.test(slug) ? null : 'bad',
    }));
    const plan = planPackage(tools, null, { toolNames: 'sanitize' });
    const names = Object.fromEntries(plan.tools.map((t) => [t.slug, t.toolName ?? (t.withheldReason === null ? t.slug : null)]));
    assert.equal(names.issues_create, 'issues_create');
    assert.match(String(names['issues/create']), /^issues_create_[0-9a-f]{6}$/);
    assert.match(String(names['issues create']), /^issues_create_[0-9a-f]{6}$/);
    assert.notEqual(names['issues/create'], names['issues create']);
    assert.ok(plan.tools.every((t) => t.withheldReason === null));
    const withheld = planPackage(tools, null);
    assert.deepEqual(
      withheld.tools
        .filter((t) => t.withheldReason !== null)
        .map((t) => t.slug)
        .sort(),
      ['issues create', 'issues/create'],
    );
  });
});
