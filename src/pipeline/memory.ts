// Process-wide memory settings for a build: how far the heap may grow, and one collection at the point it pays.

import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How far V8 may grow the heap past its live size between full collections, in percent. */
export const HEAP_GROWING_PERCENT = 50;

/**
 * From this many tools on, a build is one whose peak memory matters: it bounds its heap growth (boundHeapGrowth), and
 * its first build loads the tokenizer only after emit (budget/build-budget.ts).
 */
export const BOUNDED_HEAP_FROM_TOOLS = 1000;

/**
 * A build makes garbage fast and keeps little: ajv and json-schema-to-typescript allocate heavily per schema, while
 * what survives is the catalogue and the emitted text. Left alone, V8 grows the heap to several times its live size
 * between full collections, which puts a 3,000-tool build's peak near 400 MB. Worker threads share the setting, which
 * V8 reads at every collection. Smaller catalogues leave V8 its default: their peak is far from any limit, and the
 * extra collections cost a 300-tool rebuild a sixth of its time. So does a rebuild (`cachedEntries` > 0), which types
 * only what changed and so makes little of that garbage: the bound's extra collections then only mark the cache and
 * the catalogue again, and cost a 3,000-tool rebuild a tenth of its time for a higher peak, not a lower one.
 */
export function boundHeapGrowth(tools: number, cachedEntries: number): void {
  if (tools < BOUNDED_HEAP_FROM_TOOLS || cachedEntries > 0) return;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  // V8 sets the next collection's limit at each full collection: the one that ran while the catalogue was parsed set
  // it with the default growth (some 250 MB for 3,000 tools), so one collection now puts the bound in force.
  fullCollection();
}

/**
 * V8's own heap growth again, for the compile stage: its heap is the TypeScript compiler's, several times emit's, and
 * no memory goal bounds it; under emit's bound its collections came so often that a 3,000-tool rebuild's compile took
 * a fifth longer.
 */
export function defaultHeapGrowth(): void {
  // 0 is V8's default: a growth factor V8 picks itself from how fast it collects.
  setFlagsFromString('--heap-growing-percent=0');
}

let gc: (() => void) | undefined;

/**
 * Below this much heap in use the collection is skipped: a small build's peak is far from any limit, and a full
 * collection still costs it 100–150 ms (a 300-tool rebuild's heap is some 55 MB, a 3,000-tool build's some 200 MB).
 */
export const COLLECT_ABOVE_BYTES = 128 * 1024 * 1024;

/**
 * A full collection now, when the heap is large. The build calls it twice. Between emitting the package and loading
 * the tokenizer for the budget: the emit stage's garbage is then at its largest and the tokenizer's tables (some
 * 60 MB) are about to come on top, so collecting first takes about 30 MB off a 3,000-tool build's peak. And before
 * writing, once the tokenizer is done with: some 8 MB more. Each costs a few tens of milliseconds.
 */
export function collectGarbage(): void {
  if (getHeapStatistics().used_heap_size >= COLLECT_ABOVE_BYTES) fullCollection();
}

/** A full collection. `gc` is exposed to a fresh context only, so the process's own global stays as it was. */
function fullCollection(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
