import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { buildSearchIndexWith, searchTools, stem, term, words, type ToolFieldWords } from '../../src/runtime/search/index.js';
import { leadSentence, mergePhrases, queryAction } from '../../src/runtime/search/analysis.js';
import type { Manifest } from '../../src/runtime/shared/contracts.js';
import { HELD_OUT_MANIFESTS, HELD_OUT_QUERIES } from './search-heldout.js';
import { MANIFESTS, servedTools } from './surface-fixtures.js';

const tools = servedTools();

describe('stem and term', () => {
  const cases: [string, string][] = [
    ['validating', 'validator'],
    ['validation', 'validate'],
    ['validates', 'validated'],
    ['generator', 'generating'],
    ['formatter', 'formatting'],
    ['parser', 'parse'],
    ['environment', 'env'],
    ['configuration', 'config'],
    ['yml', 'yaml'],
    ['typescript', 'ts'],
    ['repository', 'repo'],
    ['authentication', 'auth'],
    ['minify', 'minification'],
    ['hashes', 'hash'],
    ['keys', 'key'],
    ['decoder', 'decoding'],
    ['apps', 'application'],
    ['certs', 'certificate'],
  ];
  for (const [a, b] of cases) it(`${a} and ${b} share a term`, () => assert.equal(term(a), term(b)));
  it('keeps short and non-alphabetic words', () => {
    assert.equal(stem('env'), 'env');
    assert.equal(stem('base64'), 'base64');
  });
  it('splits camelCase, kebab, snake and dotted words', () => {
    assert.deepEqual(words('envContent my-tool some_field .env'), ['env', 'content', 'my', 'tool', 'some', 'field', 'env']);
  });
});

/** Intent-phrased queries, as a user would type them, and the tool that should come first. */
const INTENT_QUERIES: [string, string][] = [
  ['check my .env file has all keys', 'env-validator'],
  ['make fake test data', 'data-generator'],
  ['decode a jwt', 'jwt-decoder'],
  ['pretty print json', 'json-formatter'],
  ['convert yml to json', 'yaml-to-json'],
  ['encode text as base64', 'base64-codec'],
  ['sha256 checksum of a string', 'hash-generator'],
  ['generate a unique identifier', 'uuid-generator'],
  ['test a regular expression', 'regex-tester'],
  ['when will this cron schedule run next', 'cron-parser'],
  ['create a strong password', 'password-generator'],
  ['split a url into its parts', 'url-parser'],
  ['convert unix epoch to a date', 'timestamp-converter'],
  ['render markdown as html', 'markdown-to-html'],
  ['turn a spreadsheet csv into json', 'csv-to-json'],
  ['compare two texts', 'diff-checker'],
  ['hex to rgb colour', 'color-converter'],
  ['format my sql query', 'sql-formatter'],
  ['validate json against a schema', 'json-schema-validator'],
  ['find outdated npm dependencies', 'package-json-auditor'],
  ['lint my dockerfile', 'dockerfile-linter'],
  ['how many words are in this essay', 'word-counter'],
  ['shrink html', 'html-minifier'],
  ['placeholder paragraphs', 'lorem-ipsum'],
  ['typescript interfaces from json', 'ts-type-generator'],
  ['find leaked api keys in my code', 'secret-scanner'],
  ['where is this ip address located', 'ip-info'],
  ['what does http status 418 mean', 'http-status'],
  ['check kubernetes manifests', 'k8s-manifest-validator'],
  ['validating environment configuration', 'env-validator'],
  ['create a gitignore for node', 'gitignore-generator'],
  ['validate env file', 'env-validator'],
];

describe('searchTools ranking', () => {
  it(`puts the intended tool first for at least 9 in 10 of ${INTENT_QUERIES.length} intent queries`, () => {
    const misses = INTENT_QUERIES.map(([query, want]) => ({
      query,
      want,
      got: searchTools(tools, query, 3).map((hit) => hit.slug),
    })).filter((row) => row.got[0] !== row.want);
    const hitRate = 1 - misses.length / INTENT_QUERIES.length;
    assert.ok(hitRate >= 0.9, `hit rate ${hitRate.toFixed(2)}; misses: ${JSON.stringify(misses, null, 1)}`);
  });

  it('has the intended tool in the top 3 for every intent query', () => {
    for (const [query, want] of INTENT_QUERIES) {
      const top = searchTools(tools, query, 3).map((hit) => hit.slug);
      assert.ok(top.includes(want), `${query}: ${JSON.stringify(top)}`);
    }
  });

  it('explains each hit and counts its parameters', () => {
    const [first] = searchTools(tools, 'validate env file');
    assert.ok(first);
    assert.equal(first.slug, 'env-validator');
    assert.match(first.reason, /^matched: /);
    assert.match(first.reason, /env in (slug|name)/);
    assert.match(first.reason, /validate in (slug|name)/);
    assert.deepEqual([first.requiredParams, first.totalParams], [1, 3]);
  });

  it('is deterministic, respects the limit and drops non-matching tools', () => {
    const a = searchTools(tools, 'json', 50);
    const b = searchTools(servedTools(), 'json', 50);
    assert.deepEqual(a, b);
    assert.ok(a.every((hit) => hit.score > 0));
    assert.ok(a.length < tools.length);
    assert.equal(searchTools(tools, 'json', 2).length, 2);
    assert.deepEqual(searchTools(tools, 'zzqx qqqv wwkj'), []);
  });

  it('answers a very long query of name characters without reading it again from each of its word boundaries', () => {
    // "a-a-a-…" with no file name in it: read from each word boundary, the file-name pattern took some 2 s at 40,000
    // characters and a minute at 200,000. Run in a child process, so that a hang fails the test instead of stalling it.
    const script = [
      `import { searchTools } from ${JSON.stringify(new URL('../../src/runtime/search/index.ts', import.meta.url).href)};`,
      `import { servedTools } from ${JSON.stringify(new URL('./surface-fixtures.ts', import.meta.url).href)};`,
      "for (const query of ['a-'.repeat(100000) + '.x', 'README.md '.repeat(20000)]) searchTools(servedTools(), query, 5);",
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { timeout: 20_000 });
    assert.equal(run.error, undefined, `the search did not finish: ${String(run.error)}`);
    assert.equal(run.status, 0, run.stderr.toString());
  });

  it('breaks score ties by slug code unit order', () => {
    // Three tools with identical text differ only by slug; uppercase sorts before lowercase by code unit.
    const twin = (slug: string) => ({
      slug,
      name: 'Widget',
      description: 'Frobs widgets.',
      category: 'misc',
      tags: [],
      version: '1.0.0',
      input_schema: null,
    });
    const twins = servedTools([twin('b-widget'), twin('a-widget'), twin('B-widget')]);
    const hits = searchTools(twins, 'frob widgets');
    assert.deepEqual(
      hits.map((hit) => hit.slug),
      ['B-widget', 'a-widget', 'b-widget'],
    );
    assert.equal(new Set(hits.map((hit) => hit.score)).size, 1);
  });

  it('reaches withheld tools and marks them', () => {
    const hits = searchTools(tools, 'legacy env checker', 5);
    const withheld = hits.find((hit) => hit.slug === 'Env Validator');
    assert.ok(withheld, JSON.stringify(hits.map((hit) => hit.slug)));
    assert.equal(withheld.withheld, true);
  });

  it('matches input field names', () => {
    const [first] = searchTools(tools, 'env_content');
    assert.ok(first);
    assert.match(first.slug, /env/i);
    assert.match(first.reason, /input fields|slug|name/);
  });
});

describe('searchTools on a catalogue written after the vocabulary was fixed', () => {
  const catalogues: [string, ReturnType<typeof servedTools>][] = [
    ['alone', servedTools(HELD_OUT_MANIFESTS)],
    ['merged with the main fixture', servedTools([...MANIFESTS, ...HELD_OUT_MANIFESTS])],
  ];
  for (const [name, catalogue] of catalogues) {
    it(`puts the intended tool first for at least 9 in 10 queries (${name})`, () => {
      const misses = HELD_OUT_QUERIES.filter(([query, want]) => searchTools(catalogue, query, 1)[0]?.slug !== want);
      assert.ok(misses.length / HELD_OUT_QUERIES.length <= 0.1, JSON.stringify(misses));
    });
  }

  it('treats a two-word expression as one intent', () => {
    assert.equal(searchTools(servedTools([...MANIFESTS, ...HELD_OUT_MANIFESTS]), 'pretty print xml')[0]?.slug, 'xml_formatter');
    assert.equal(term('regex'), 'regex');
  });

  it('indexes each catalogue version separately (a refreshed list is searched fresh)', () => {
    const before = servedTools(MANIFESTS);
    assert.deepEqual(searchTools(before, 'semver'), []);
    const after = servedTools([...MANIFESTS, ...HELD_OUT_MANIFESTS]);
    assert.equal(searchTools(after, 'semver')[0]?.slug, 'semver_compare');
    assert.deepEqual(searchTools(before, 'semver'), []);
  });
});

describe('the API lexicon', () => {
  const manifest = (slug: string, name: string, description: string): Manifest => ({
    slug,
    name,
    description,
    category: 'payments',
    tags: [],
    version: '1.0.0',
    input_schema: { type: 'object', properties: {} },
  });
  const payments = servedTools([
    manifest('create-refund', 'Create refund', 'Refunds a charge that was made earlier.'),
    manifest('create-charge', 'Create charge', 'Charges a customer.'),
    manifest('delete-customer', 'Delete customer', 'Deletes a customer record.'),
    manifest('pause-subscription', 'Suspend subscription', 'Suspends a subscription until it is resumed.'),
    manifest('list-subscriptions', 'List subscriptions', 'Lists the subscriptions of a customer.'),
  ]);

  it('reads a two-word expression of the user as the API word', () => {
    assert.deepEqual(mergePhrases(words('give the money back')), ['give', 'the', 'refund']);
    assert.equal(searchTools(payments, 'give a customer their money back')[0]?.slug, 'create-refund');
  });

  it('knows the general verbs of the five actions', () => {
    assert.equal(queryAction(words('kill a stuck worker')), 'delete');
    assert.equal(queryAction(words('display the invoice')), 'read');
    assert.equal(queryAction(words('fix a typo in a message')), 'update');
    assert.equal(queryAction(words('launch a new server')), 'create');
  });

  it('matches the API word for the user word', () => {
    assert.equal(searchTools(payments, 'pause a recurring plan')[0]?.slug, 'pause-subscription');
    assert.equal(searchTools(payments, 'reimburse a client')[0]?.slug, 'create-refund');
  });
});

describe('the lead sentence', () => {
  it('ends at the first sentence end, or between words when there is none within 200 characters', () => {
    assert.equal(leadSentence('Creates a refund. Then more.'), 'Creates a refund.');
    const long = `${'word '.repeat(45)}unbroken tail`;
    const lead = leadSentence(long);
    assert.ok(lead.length <= 200 && long.startsWith(lead) && /\s/.test(long[lead.length] ?? ''), lead);
  });
});

describe('tables made from the words the index split', () => {
  it("gives the maker each tool's field words once, and keeps only the entries naming index terms", () => {
    let calls = 0;
    let seen: readonly ToolFieldWords[] = [];
    const data = buildSearchIndexWith(tools, (toolWords) => {
      calls += 1;
      seen = toolWords;
      return { synonyms: { zzzunknown: ['json', 'nothere'] } };
    });
    assert.equal(calls, 1);
    assert.equal(seen.length, tools.length);
    assert.ok(seen.every((fields) => fields.length === 8 && (fields[7] ?? []).length === 0));
    assert.deepEqual(data.synonyms, { zzzunknown: ['json'] });
    assert.deepEqual(data.related, {});
  });
});
