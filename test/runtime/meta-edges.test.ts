// Edge cases of the meta-tool and what stands behind it, each checked against a sentence of the server README.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffRuns, formatRunDiff } from '../../src/runtime/diff.js';
import { createRunHistory } from '../../src/runtime/history.js';

const ok = (result: unknown) => ({ ok: true as const, result, durationMs: 1 });

describe('a diff never calls truncated payloads identical ("a truncated payload reporting no differences would be the worst possible failure mode")', () => {
  // Same length, same first 8,000 characters; they differ only past the cut.
  const head = 'a '.repeat(4500);

  it('inputs that differ only past the cut are not reported as identical inputs', () => {
    const history = createRunHistory();
    const from = history.record('word-counter', { text: `${head}x y` }, ok({ words: 4502 }));
    const to = history.record('word-counter', { text: `${head}xyz` }, ok({ words: 4501 }));
    const diff = diffRuns(from, to);
    assert.equal(diff.resultsDiffer, true);
    assert.doesNotMatch(diff.verdict, /inputs identical/);
    assert.match(diff.verdict, /^results differ; inputs not proven identical \(truncated/);
    assert.match(formatRunDiff(diff), /inputs were truncated and may differ past the cut, so a changed result is not by itself a regression/);
  });

  it('results that differ only past the cut are not reported as identical results', () => {
    const history = createRunHistory();
    const from = history.record('echo', { n: 1 }, ok({ text: `${head}x y` }));
    const to = history.record('echo', { n: 2 }, ok({ text: `${head}xyz` }));
    const diff = diffRuns(from, to);
    assert.doesNotMatch(diff.verdict, /results identical/);
    assert.match(diff.verdict, /^results not proven identical \(truncated; no differences before the cut\); inputs differ/);
  });

  it('untruncated sides keep their plain verdicts', () => {
    const history = createRunHistory();
    const from = history.record('echo', { n: 1 }, ok({ text: 'a'.repeat(9000) }));
    const to = history.record('echo', { n: 1 }, ok({ text: 'b'.repeat(9000) }));
    assert.match(diffRuns(from, to).verdict, /^results differ; inputs identical; payloads truncated/);
  });
});
