import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServedTool } from '../../src/runtime/shared/contracts.js';
import { advertisedSubset, toolBySlug } from '../../src/runtime/catalogue/slug-index.js';
import { servedTools } from './surface-fixtures.js';

describe('toolBySlug', () => {
  const tools = servedTools();

  it('finds every tool by its exact slug and nothing by a prefix, a case change or a prototype key', () => {
    for (const tool of tools) assert.equal(toolBySlug(tools, tool.slug), tool);
    assert.equal(toolBySlug(tools, 'env-valid'), undefined);
    assert.equal(toolBySlug(tools, 'ENV-VALIDATOR'), undefined);
    for (const key of ['__proto__', 'constructor', 'toString', '']) assert.equal(toolBySlug(tools, key), undefined, key);
  });

  it('indexes each array on its own: a refreshed catalogue is a new array, and what it lacks is not found', () => {
    assert.ok(toolBySlug(tools, 'env-validator'));
    const refreshed: ServedTool[] = tools.filter((tool) => tool.slug !== 'env-validator');
    assert.equal(toolBySlug(refreshed, 'env-validator'), undefined);
    assert.ok(toolBySlug(tools, 'env-validator'), 'the first array keeps its own index');
  });

  it('gives the first of two tools that share a slug, as a scan from the start would', () => {
    const [first] = tools;
    const twin = { ...first!, identifier: 'twin' };
    assert.equal(toolBySlug([first!, twin], first!.slug), first);
  });
});

describe('advertisedSubset', () => {
  it('holds the advertised tools in order, one array per tools array', () => {
    const tools = servedTools();
    const withheld = { ...tools[0]!, slug: 'bad slug', withheldReason: 'contains white space' };
    const all = [withheld, ...tools];
    const subset = advertisedSubset(all);
    assert.deepEqual(subset, all.filter((tool) => tool.withheldReason === null));
    assert.ok(!subset.includes(withheld));
    assert.equal(advertisedSubset(all), subset, 'the same array asked again gives the same subset');
    assert.notEqual(advertisedSubset([...all]), subset, 'a new array (a refresh) gets its own');
  });
});
