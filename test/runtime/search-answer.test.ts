// The meta-tool's search answer: what an agent needs to act on each hit, near ties, and a plain "no good match".
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Manifest } from '../../src/runtime/shared/contracts.js';
import { createToolSearch, largestCategories, searchAnswer } from '../../src/runtime/search/index.js';
import { servedTools } from './surface-fixtures.js';

const tool = (slug: string, name: string, description: string, extra: Partial<Manifest> = {}): Manifest => ({
  slug,
  name,
  description,
  category: 'issues',
  tags: [],
  version: '1.0.0',
  input_schema: { type: 'object', properties: { issue: { type: 'string' }, body: { type: 'string' } }, required: ['issue'] },
  ...extra,
});

const TOOLS = servedTools([
  tool('get-issue', 'Get issue', 'Returns the details of an issue.\nWith its fields.', { annotations: { readOnlyHint: true } }),
  tool('delete-issue', 'Delete issue', 'Deletes an issue and its comments.', {
    annotations: { readOnlyHint: false, destructiveHint: true },
  }),
  tool('add-comment', 'Add comment', 'Adds a comment to an issue.', { annotations: { readOnlyHint: false, destructiveHint: false } }),
  tool('add-comment-v2', 'Add comment', 'Adds a comment to an issue.', { annotations: { readOnlyHint: false, destructiveHint: false } }),
  tool('old-issue-getter', 'Get issue (old)', 'Returns an issue.', { deprecated: 'Use get-issue.', category: 'legacy' }),
  tool('list-projects', 'List projects', 'Returns every project.', { category: 'projects', input_schema: null }),
]);
const ctx = { metaToolName: 'nexusbloom', tools: TOOLS, uriOf: (slug: string) => `nexusbloom://tools/${slug}` };
const search = createToolSearch(() => TOOLS);

describe('search hits an agent can act on', () => {
  it('gives the purpose, matched words, required parameter names and the effect of each hit', () => {
    const [first] = search.search('remove a ticket', 3);
    assert.ok(first);
    assert.equal(first.slug, 'delete-issue');
    assert.equal(first.purpose, 'Deletes an issue and its comments.');
    assert.deepEqual(first.required, ['issue']);
    assert.equal(first.destructive, true);
    assert.ok(first.matched.includes('issue'), JSON.stringify(first.matched));
    const answer = searchAnswer('remove a ticket', search.search('remove a ticket', 3), ctx);
    const results = answer.data.results as { slug: string; effect: string; required_parameters: string[] }[];
    assert.equal(results[0]?.effect, 'destructive');
    assert.deepEqual(results[0]?.required_parameters, ['issue']);
    assert.match(answer.text, /^\d tools match "remove a ticket", best first:/);
    assert.match(answer.text, /1\. delete-issue: Deletes an issue and its comments\. \[required: issue; 1\/2 params\] \[destructive\]/);
    assert.equal(answer.data.good_match, true);
  });

  it('marks a read-only hit, a deprecated one ranks below its replacement', () => {
    const hits = search.search('show an issue', 5);
    assert.equal(hits[0]?.slug, 'get-issue');
    assert.equal(hits[0]?.readOnly, true);
    assert.equal(hits[0]?.purpose, 'Returns the details of an issue.');
    const old = hits.find((hit) => hit.slug === 'old-issue-getter');
    assert.ok(old?.deprecated);
    assert.ok(hits.indexOf(old) > 0);
  });

  it('flags near ties so the agent reads both', () => {
    const hits = search.search('comment on an issue', 4);
    const twins = hits.filter((hit) => hit.slug === 'add-comment' || hit.slug === 'add-comment-v2');
    assert.equal(twins.length, 2);
    assert.ok(
      twins.every((hit) => hit.nearTie),
      JSON.stringify(hits.map((hit) => [hit.slug, hit.score, hit.nearTie])),
    );
    const text = searchAnswer('comment on an issue', hits, ctx).text;
    assert.match(text, /near tie: compare with its neighbour/);
  });

  it('says when nothing matches well and suggests list and the largest categories', () => {
    const hits = search.search('issue invoices for unpaid subscriptions', 3);
    const answer = searchAnswer('issue invoices for unpaid subscriptions', hits, ctx);
    assert.equal(answer.data.good_match, false);
    assert.match(answer.text, /^No good match for "issue invoices for unpaid subscriptions"/);
    assert.match(answer.text, /\{"command":"list"\} lists every tool; categories with the most tools: issues, legacy, projects\./);
    const none = searchAnswer('zzqx', search.search('zzqx'), ctx);
    assert.match(none.text, /^No tool matches "zzqx"/);
    assert.deepEqual((none.data.suggestions as { categories: string[] }).categories, ['issues', 'legacy', 'projects']);
  });

  it('orders categories by size, then by name', () => {
    assert.deepEqual(largestCategories(TOOLS, 2), ['issues', 'legacy']);
  });
});

describe('find-tool and completion rank as search does', () => {
  it('lists the search hits in search order', async () => {
    const { harness } = await import('./surface-fixtures.js');
    const h = harness();
    const goal = 'check my env file';
    const prompt = h.surface.getPrompt('find-tool', { goal });
    const text = prompt.messages.map((message) => (message.content.type === 'text' ? message.content.text : '')).join('\n');
    const listed = [...text.matchAll(/^\d+\. (\S+?):/gm)].map((match) => match[1]);
    const ranked = h.ctx.search.search(goal, 10).map((hit) => hit.slug);
    assert.ok(listed.length > 0);
    assert.deepEqual(listed, ranked.slice(0, listed.length));
  });
});
