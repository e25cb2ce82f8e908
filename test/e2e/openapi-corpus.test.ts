// The committed sample of the APIs.guru corpus (test/fixtures/openapi-corpus/, made by `npm run corpus:sample`): every
// description converted, built, started and listed, a few operations of each called against a loopback API that
// answers from the description, and every tenth package type-checked. Any failure fails the test, named by cause.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { mapLimited } from '../../src/runtime/shared/map-limited.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { corpusTable, failuresByCause, runSpec, type SpecOutcome } from '../bench/openapi-corpus.js';
import { CORPUS_FIXTURES, type CorpusEntry } from '../bench/corpus-sample.js';

const index = JSON.parse(readFileSync(join(CORPUS_FIXTURES, 'index.json'), 'utf8')) as { package: string; specs: CorpusEntry[] };

/** The type-check costs tens of seconds per package: every fifteenth spec of the sample, from the sixth on. */
const compiled = (position: number): boolean => position % 15 === 5;

describe('the APIs.guru corpus sample', () => {
  it('is a deterministic mix of OpenAPI 3.0 and 3.1 of modest size', () => {
    assert.equal(index.specs.length, 30);
    assert.ok(index.specs.some((s) => s.version.startsWith('3.0')) && index.specs.some((s) => s.version.startsWith('3.1')));
    assert.ok(index.specs.reduce((sum, s) => sum + s.bytes, 0) < 5_000_000);
    for (const spec of index.specs) assert.equal(readFileSync(join(CORPUS_FIXTURES, spec.file)).length, spec.bytes, spec.file);
  });

  it('every description builds, starts, lists valid schemas under valid names, and answers calls', async () => {
    // Two at a time: much of each run is waiting on a server process or the disk.
    const outcomes: SpecOutcome[] = await mapLimited([...index.specs.entries()], 2, ([position, spec]) =>
      runSpec(join(CORPUS_FIXTURES, spec.file), spec.file, {
        compile: compiled(position),
        calls: 2,
        workDir: join(REPO_ROOT, '.tmp', 'openapi-corpus'),
      }),
    );
    const groups = failuresByCause(outcomes);
    const report = `${corpusTable(outcomes)}\n\n${groups.map((g) => `${g.specs.length}× ${g.cause}: ${g.specs.join(', ')}\n   ${g.example.split('\n').slice(0, 3).join('\n   ')}`).join('\n')}`;
    assert.deepEqual(
      groups.map((g) => g.cause),
      [],
      report,
    );
    assert.equal(outcomes.filter((o) => o.compile === 'ok').length, index.specs.filter((_, position) => compiled(position)).length, report);
    const calls = outcomes.reduce((sum, o) => sum + o.calls.passed, 0);
    assert.ok(calls >= 40, `only ${calls} calls answered\n${report}`);
    assert.ok(
      outcomes.every((o) => o.operations === 0 || o.advertised === o.operations),
      report,
    );
  });
});
