// Search reads catalogue prose as plain text: HTML tags, Markdown link targets and web addresses are not words of a
// tool, a block tag ends a line (so the lead sentence and the hit's purpose end there), and entities are characters.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Manifest, ServedTool } from '../../src/runtime/shared/contracts.js';
import { searchableTexts } from '../../src/runtime/search/analysis.js';
import { buildSearchIndex, FIELDS } from '../../src/runtime/search/index.js';
import { plainText } from '../../src/runtime/search/plain-text.js';
import { createToolSearch } from '../../src/runtime/search/tool-search.js';

const CASES: Array<{ rule: string; given: string; want: string }> = [
  { rule: 'text without markup keeps its words', given: 'List the pods of a namespace.', want: 'List the pods of a namespace.' },
  {
    rule: 'a paragraph tag ends a line, an inline tag leaves its text',
    given: '<p>Updates a <a href="/docs/connect/accounts">connected account</a>.</p><p>Any parameters not provided are left unchanged.</p>',
    want: 'Updates a connected account .\n\nAny parameters not provided are left unchanged.',
  },
  {
    rule: 'a line break tag ends a line',
    given: 'Disassociate a sub account.<br>  **Prerequisites:**',
    want: 'Disassociate a sub account.\n**Prerequisites:**',
  },
  {
    rule: 'a Markdown link reads as its text, an image as its alt text',
    given: 'Must be a [master account](https://marketplace.zoom.us/docs/api-reference/master-account-apis "Master") ![logo](x.png).',
    want: 'Must be a master account logo.',
  },
  {
    rule: 'bare and angle-bracketed web addresses are not words',
    given: 'See https://developer.atlassian.com/cloud/jira/platform/rest/v3/ and <https://docs.github.com/rest>.',
    want: 'See and .',
  },
  {
    rule: 'entities are the characters they name',
    given: 'Cats &amp; dogs &lt;3 &#8212; &#x2713; &nbsp;&bogus;',
    want: 'Cats & dogs <3 — ✓ &bogus;',
  },
  {
    rule: 'angle brackets that are no HTML element stay text',
    given: 'Returns List<Item> where a < b and b > c',
    want: 'Returns List<Item> where a < b and b > c',
  },
  { rule: 'brackets that are no link stay text', given: 'Set [deprecated] fields (see docs)', want: 'Set [deprecated] fields (see docs)' },
];

describe('plainText', () => {
  for (const { rule, given, want } of CASES) it(rule, () => assert.equal(plainText(given), want));

  it('reads hostile runs of brackets and tags in one pass (200,000 characters each)', () => {
    const runs = [
      '['.repeat(200_000),
      '[a]('.repeat(50_000),
      `[a](${' '.repeat(200_000)}`,
      '<p '.repeat(70_000),
      'https://'.repeat(25_000),
    ];
    for (const text of runs) assert.equal(typeof plainText(text), 'string');
    assert.equal(plainText('<p '.repeat(3)), '<p <p <p');
  });
});

const toolOf = (slug: string, description: string): ServedTool => {
  const manifest = {
    slug,
    name: slug,
    description,
    category: '',
    tags: [],
    version: '1.0.0',
    input_schema: { type: 'object', properties: {} },
  } as unknown as Manifest;
  return { slug, manifest, identifier: slug, withheldReason: null };
};

describe('search reads plain text', () => {
  const tools = [
    toolOf(
      'PostCustomers',
      '<p>Creates a new customer object.</p>\n\n<p>See <a href="https://stripe.com/docs/api/accounts">the account docs</a>.</p>',
    ),
    toolOf('PostAccounts', '<p>Creates a new connected account.</p>'),
  ];

  it('the lead sentence ends at the closing paragraph tag, and link targets are not indexed', () => {
    const texts = searchableTexts(tools[0] as ServedTool);
    assert.equal(texts[FIELDS.indexOf('lead')], 'Creates a new customer object.');
    assert.doesNotMatch(texts.join(' '), /stripe|href|https/);
  });

  it("a hit's purpose is its description's first sentence as plain text", () => {
    const search = createToolSearch(
      () => tools,
      () => buildSearchIndex(tools),
    );
    const hits = search.search('create a customer', 2);
    assert.equal(hits[0]?.slug, 'PostCustomers');
    assert.equal(hits[0]?.purpose, 'Creates a new customer object.');
    // A link target's words ("accounts") no longer make the customer tool an account tool.
    assert.equal(search.search('create an account', 1)[0]?.slug, 'PostAccounts');
    assert.deepEqual(
      search.search('stripe', 2).map((hit) => hit.slug),
      [],
    );
  });
});
