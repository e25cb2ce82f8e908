// The runtime a package ships reads its data files; the generator writes them (src/pipeline/emit/): no module of
// src/runtime/ exports a function that makes a data file's text.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

const RUNTIME = fileURLToPath(new URL('../../src/runtime/', import.meta.url));

it('ships no writer of data files', () => {
  const writers: string[] = [];
  for (const path of readdirSync(RUNTIME, { recursive: true, encoding: 'utf8' })) {
    if (!path.endsWith('.ts')) continue;
    const text = readFileSync(join(RUNTIME, path), 'utf8');
    for (const match of text.matchAll(/export\s+(?:async\s+)?function\s+(\w+FileText)\b|export\s*\{[^}]*\b(\w+FileText)\b[^}]*\}/g))
      writers.push(`${path}: ${match[1] ?? match[2]}`);
  }
  assert.deepEqual(writers.sort(), []);
});
