import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServedTool } from '../../src/runtime/contracts.js';
import { toolBySlug } from '../../src/runtime/slug-index.js';
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
