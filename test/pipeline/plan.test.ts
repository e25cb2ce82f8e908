import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCatalogue } from '../../src/pipeline/check/check-in-thread.js';
import { baseNames, slugHash } from '../../src/pipeline/plan/naming.js';
import { namesLockOf, planPackage } from '../../src/pipeline/plan/plan-package.js';
import { bundle, hostileBundle, tool } from '../fixtures/catalogues.js';

const planOf = (slugs: string[]) => planPackage(checkCatalogue(bundle(slugs.map((s) => tool(s)))).tools);

describe('plan stage: names', () => {
  const table: Array<[string, string, string]> = [
    ['env-validator', 'envValidator', 'env-validator'],
    ['JSONFormatter', 'jsonFormatter', 'json-formatter'],
    ['git/commit-lint', 'gitCommitLint', 'git-commit-lint'],
    ['Text Stats', 'textStats', 'text-stats'],
    ['index', 'indexTool', 'tool-index'],
    ['class', 'classTool', 'class'],
    ['then', 'thenTool', 'then'],
    ['Then', 'thenTool', 'then'],
    ['__proto__', 'proto', 'proto'],
    ['3d-render', 'tool3dRender', 'tool-3d-render'],
    ['Café Crème', 'cafeCreme', 'cafe-creme'],
  ];
  for (const [slug, identifier, fileName] of table) {
    it(`${JSON.stringify(slug)} → ${identifier}, ${fileName}.ts`, () => {
      const names = baseNames(slug);
      assert.equal(names.identifier, identifier);
      assert.equal(names.fileName, fileName);
    });
  }

  it('gives a slug with no ASCII words a name from its hash', () => {
    assert.equal(baseNames('日本語').identifier, `tool${slugHash('日本語').replace(/^./, (c) => c.toUpperCase())}`);
  });

  it('keeps every colliding slug, with distinct, case-insensitively unique names', () => {
    const plan = planOf(['env-validator', 'env_validator', 'Env-Validator', 'Env Validator', 'envValidator']);
    assert.equal(plan.tools.length, 5);
    const ids = plan.tools.map((t) => t.identifier.toLowerCase());
    const files = plan.tools.map((t) => t.fileName.toLowerCase());
    assert.equal(new Set(ids).size, 5);
    assert.equal(new Set(files).size, 5);
    // The canonical spelling keeps the plain name; the others carry a hash of their own slug.
    const bySlug = new Map(plan.tools.map((t) => [t.slug, t]));
    assert.equal(bySlug.get('env-validator')!.identifier, 'envValidator');
    assert.equal(bySlug.get('env_validator')!.identifier, `envValidator_${slugHash('env_validator')}`);
  });

  it('decides names independently of the order tools arrive in', () => {
    const slugs = ['env-validator', 'env_validator', 'Env Validator', 'b', 'a-b', 'aB'];
    const one = planOf(slugs).tools.map((t) => [t.slug, t.identifier, t.fileName]);
    const two = planOf([...slugs].reverse()).tools.map((t) => [t.slug, t.identifier, t.fileName]);
    assert.deepEqual(one, two);
  });

  it('names every tool of the hostile catalogue with safe identifiers and file names', () => {
    const plan = planPackage(checkCatalogue(hostileBundle()).tools);
    for (const t of plan.tools) {
      assert.match(t.identifier, /^[a-z][A-Za-z0-9_]*$/, t.slug);
      assert.match(t.fileName, /^[a-z0-9][a-z0-9-]*$/, t.slug);
      assert.match(t.inputTypeName, /^[A-Z][A-Za-z0-9_]*Input$/);
    }
  });
});

describe('plan stage: names lock', () => {
  const checked = (slugs: string[]) => checkCatalogue(bundle(slugs.map((s) => tool(s)))).tools;

  it('keeps locked names when a new colliding slug arrives', () => {
    const first = planPackage(checked(['env_validator', 'other']));
    assert.equal(first.tools.find((t) => t.slug === 'env_validator')!.identifier, 'envValidator');
    const lock = namesLockOf(first);
    // Without the lock the canonical newcomer would take the plain name and rename env_validator.
    const unlocked = planPackage(checked(['env_validator', 'env-validator', 'other']));
    assert.notEqual(unlocked.tools.find((t) => t.slug === 'env_validator')!.identifier, 'envValidator');
    const locked = planPackage(checked(['env_validator', 'env-validator', 'other']), lock);
    const bySlug = new Map(locked.tools.map((t) => [t.slug, t]));
    assert.equal(bySlug.get('env_validator')!.identifier, 'envValidator');
    assert.equal(bySlug.get('env_validator')!.fileName, 'env-validator');
    assert.equal(bySlug.get('env-validator')!.identifier, `envValidator_${slugHash('env-validator')}`);
  });

  it('records advertised tool names, null for withheld slugs, and ignores unusable lock entries', () => {
    const lock = namesLockOf(planPackage(checked(['a b', 'c'])));
    assert.deepEqual(lock.tools['a b'], { tool: null, identifier: 'aB', file: 'a-b' });
    assert.deepEqual(lock.tools.c, { tool: 'c', identifier: 'c', file: 'c' });
    const hostileLock = {
      format: 'nexusbloom-names/1' as const,
      tools: { c: { tool: 'c', identifier: 'x(); process.exit()', file: '../../etc' } },
    };
    const plan = planPackage(checked(['c']), hostileLock);
    assert.equal(plan.tools[0]!.identifier, 'c');
    assert.equal(plan.tools[0]!.fileName, 'c');
  });

  it('renames a locked `then` export, which would make the tools index a thenable, and keeps the new name', () => {
    const oldLock = { format: 'nexusbloom-names/1' as const, tools: { then: { tool: 'then', identifier: 'then', file: 'then' } } };
    const plan = planPackage(checked(['then', 'Then']), oldLock);
    assert.deepEqual(
      plan.tools.map((t) => [t.slug, t.identifier, t.fileName]),
      [
        ['Then', `thenTool_${slugHash('Then')}`, `then-${slugHash('Then')}`],
        ['then', 'thenTool', 'then'],
      ],
    );
    const again = planPackage(checked(['then', 'Then']), namesLockOf(plan));
    assert.deepEqual(
      again.tools.map((t) => t.identifier),
      plan.tools.map((t) => t.identifier),
    );
  });
});

describe('plan stage: type names survive json-schema-to-typescript', () => {
  it('every planned type name is a fixed point of its name sanitizer', async () => {
    const { toSafeString } = (await import('json-schema-to-typescript/dist/src/utils.js')) as { toSafeString: (s: string) => string };
    const plan = planPackage(checkCatalogue(hostileBundle()).tools);
    const more = planOf(['3d-render', 'a_b', 'x9y', 'env_validator', 'env-validator', 'v2-api-x1']);
    for (const t of [...plan.tools, ...more.tools]) {
      for (const name of [t.typeName, t.inputTypeName, t.outputTypeName]) assert.equal(toSafeString(name), name, t.slug);
    }
  });
});
