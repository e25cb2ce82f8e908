import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServedTool } from '../../src/runtime/shared/contracts.js';
import { advertisedSubset, toolBySlug, toolList } from '../../src/runtime/catalogue/slug-index.js';
import { servedTools } from './surface-fixtures.js';

describe('toolBySlug', () => {
  const plain = servedTools();
  const indexed = toolList(plain);

  it('finds every tool by its exact slug and nothing by a prefix, a case change or a prototype key, indexed or not', () => {
    for (const tools of [plain, indexed]) {
      for (const tool of tools) assert.equal(toolBySlug(tools, tool.slug), tool);
      assert.equal(toolBySlug(tools, 'env-valid'), undefined);
      assert.equal(toolBySlug(tools, 'ENV-VALIDATOR'), undefined);
      for (const key of ['__proto__', 'constructor', 'toString', '']) assert.equal(toolBySlug(tools, key), undefined, key);
    }
  });

  it('a tool list is its tools as an array: equal, copied and written as one, the index travelling unseen', () => {
    assert.deepEqual([...indexed], plain);
    assert.equal(JSON.stringify(indexed), JSON.stringify(plain));
    assert.deepEqual(Object.keys(indexed), Object.keys(plain));
  });

  it('a refreshed catalogue is a new list with its own index, and what it lacks is not found', () => {
    const refreshed = toolList(plain.filter((tool) => tool.slug !== 'env-validator'));
    assert.equal(toolBySlug(refreshed, 'env-validator'), undefined);
    assert.ok(toolBySlug(indexed, 'env-validator'), 'the first list keeps its own index');
  });

  it('gives the first of two tools that share a slug, as a scan from the start would; a mapped tool name finds its tool', () => {
    const [first, second] = plain;
    const twin = { ...first!, identifier: 'twin' };
    const mapped: ServedTool = { ...second!, toolName: 'mapped_name' };
    for (const tools of [[first!, twin, mapped], toolList([first!, twin, mapped])]) {
      assert.equal(toolBySlug(tools, first!.slug), first);
      assert.equal(toolBySlug(tools, 'mapped_name'), mapped);
    }
  });
});

describe('advertisedSubset', () => {
  it('holds the advertised tools in order, one array per tools array', () => {
    const tools = servedTools();
    const withheld = { ...tools[0]!, slug: 'bad slug', withheldReason: 'contains white space' };
    const all = toolList([withheld, ...tools]);
    const subset = advertisedSubset(all);
    assert.deepEqual(
      [...subset],
      tools.filter((tool) => tool.withheldReason === null),
    );
    assert.ok(!subset.includes(withheld));
    assert.equal(advertisedSubset(all), subset, 'the same list asked again gives the same subset');
    assert.notEqual(advertisedSubset(toolList(all)), subset, 'a new list (a refresh) gets its own');
    assert.deepEqual(advertisedSubset([withheld, ...tools]), [...subset], 'a plain array gets the same tools');
  });
});
