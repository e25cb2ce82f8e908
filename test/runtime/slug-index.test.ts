import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServedTool } from '../../src/runtime/shared/contracts.js';
import { toolList } from '../../src/runtime/catalogue/slug-index.js';
import { servedTools } from './surface-fixtures.js';

describe('ToolList.bySlug', () => {
  const plain = servedTools();
  const indexed = toolList(plain);

  it('finds every tool by its exact slug and nothing by a prefix, a case change or a prototype key', () => {
    for (const tool of plain) assert.equal(indexed.bySlug(tool.slug), tool);
    assert.equal(indexed.bySlug('env-valid'), undefined);
    assert.equal(indexed.bySlug('ENV-VALIDATOR'), undefined);
    for (const key of ['__proto__', 'constructor', 'toString', '']) assert.equal(indexed.bySlug(key), undefined, key);
  });

  it("holds a copy of its tools in order: a change to the caller's array is not the list's", () => {
    assert.deepEqual(indexed.tools, plain);
    assert.notEqual(indexed.tools, plain);
    assert.equal(indexed.tools, indexed.tools, 'one array for the life of the list');
  });

  it('a refreshed catalogue is a new list with its own index, and what it lacks is not found', () => {
    const refreshed = toolList(plain.filter((tool) => tool.slug !== 'env-validator'));
    assert.equal(refreshed.bySlug('env-validator'), undefined);
    assert.ok(indexed.bySlug('env-validator'), 'the first list keeps its own index');
  });

  it('gives the first of two tools that share a slug, as a scan from the start would; a mapped tool name finds its tool', () => {
    const [first, second] = plain;
    const twin = { ...first!, identifier: 'twin' };
    const mapped: ServedTool = { ...second!, toolName: 'mapped_name' };
    const tools = toolList([first!, twin, mapped]);
    assert.equal(tools.bySlug(first!.slug), first);
    assert.equal(tools.bySlug('mapped_name'), mapped);
  });
});

describe('ToolList.advertised', () => {
  it('holds the advertised tools in order, one subset per list', () => {
    const tools = servedTools();
    const withheld = { ...tools[0]!, slug: 'bad slug', withheldReason: 'contains white space' };
    const all = toolList([withheld, ...tools]);
    const subset = all.advertised();
    assert.deepEqual(
      subset.tools,
      tools.filter((tool) => tool.withheldReason === null),
    );
    assert.equal(subset.bySlug('bad slug'), undefined);
    assert.equal(all.advertised(), subset, 'the same list asked again gives the same subset');
    assert.notEqual(toolList(all.tools).advertised(), subset, 'a new list (a refresh) gets its own');
  });
});
