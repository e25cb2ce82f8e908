// Coordinate ascent over the ranking's numeric levers on the pooled tuning halves (`npm run bench:search -- --tune`):
// each lever in turn tries a fixed ladder of multiples of its value and keeps the best one that improves the objective
// (pooled top-1 plus top-5) by at least one query of one set, MRR@10 only choosing among such; rounds repeat until none
// moves. A step smaller than a query is noise the held-out halves do not repeat. Deterministic: the same
// levers and sets give the same path, so the shipped values in levers.ts are reproducible. Held-out halves are not scored.
import { SHIPPED_LEVERS, type RankingLevers } from '../../src/runtime/search/levers.js';
import type { FieldName } from '../../src/runtime/search/analysis.js';
import { measureVariant } from './search-ablation.js';
import type { Scores } from './search-quality.js';

/** The multiples a lever tries of its current value, and the values a lever at 0 tries. */
const LADDER = [0.5, 0.75, 0.9, 1.1, 1.25, 1.5, 2] as const;
const FROM_ZERO = [0.1, 0.25, 0.5] as const;
/** Levers whose value is a share or a floor: kept within 0 to 1. */
const SHARES = new Set<string>([
  'calledLengthNormalization',
  'synonymCoverage',
  'inputFieldCoverage',
  'summaryCoverageFloor',
  'nameCoverageFloor',
  'coverageShare',
  'sameActionShare',
  'personShare',
  'twoStep',
]);
/** Not tuned: a table the shipped index does not hold (relatedWeight needs the definition-word table). */
const FIXED = new Set<string>(['relatedWeight']);
const MAX_ROUNDS = 4;

type NumericKey = { [K in keyof RankingLevers]: RankingLevers[K] extends number ? K : never }[keyof RankingLevers];
type BooleanKey = { [K in keyof RankingLevers]: RankingLevers[K] extends boolean ? K : never }[keyof RankingLevers];

/** One lever: how to read it from a lever set and how to write a value into a copy. */
interface Knob {
  label: string;
  kind: 'number' | 'boolean';
  read(levers: RankingLevers): number | boolean;
  write(levers: RankingLevers, value: number | boolean): RankingLevers;
}

function knobs(): Knob[] {
  const list: Knob[] = [];
  for (const key of Object.keys(SHIPPED_LEVERS).sort() as (keyof RankingLevers)[]) {
    if (key === 'fieldWeights' || FIXED.has(key)) continue;
    const kind = typeof SHIPPED_LEVERS[key] === 'boolean' ? 'boolean' : 'number';
    list.push({
      label: key,
      kind,
      read: (levers) => levers[key] as number | boolean,
      write: (levers, value) => ({ ...levers, [key as NumericKey | BooleanKey]: value }),
    });
  }
  for (const field of Object.keys(SHIPPED_LEVERS.fieldWeights).sort() as FieldName[]) {
    list.push({
      label: `fieldWeights.${field}`,
      kind: 'number',
      read: (levers) => levers.fieldWeights[field],
      write: (levers, value) => ({ ...levers, fieldWeights: { ...levers.fieldWeights, [field]: value as number } }),
    });
  }
  return list;
}

/** What the search maximizes: both targets of the ranking at once. */
const objective = (pooled: Scores): number => pooled.top1 + pooled.top5;
/** The least gain a step must bring: one query of a set of 46 (the largest tuning half), pooled over six sets. */
const MIN_GAIN = 1 / 46 / 6;
/** Whether `scores` beat `chosen` (a step already good enough) or, with none chosen yet, `best` by MIN_GAIN. */
function better(scores: Scores, chosen: Scores | undefined, best: Scores): boolean {
  if (chosen === undefined) return objective(scores) >= objective(best) + MIN_GAIN - 1e-9;
  const gain = objective(scores) - objective(chosen);
  return gain > 1e-9 || (Math.abs(gain) <= 1e-9 && scores.mrr10 > chosen.mrr10 + 1e-9);
}
const round3 = (value: number): number => Math.round(value * 1000) / 1000;

function candidates(knob: Knob, current: number | boolean): (number | boolean)[] {
  if (knob.kind === 'boolean') return [!current];
  const value = current as number;
  const values = value === 0 ? [...FROM_ZERO] : LADDER.map((factor) => round3(value * factor));
  return values.filter((next) => next !== value && next >= 0 && (!SHARES.has(knob.label) || next <= 1));
}

export interface TuneResult {
  levers: RankingLevers;
  before: Scores;
  after: Scores;
  /** Each accepted step, in order: "coverageShare 0.9 → 0.8 (top-1 …, top-5 …)". */
  steps: string[];
}

const pct = (value: number): string => (value * 100).toFixed(1);

export function tuneLevers(start: RankingLevers = SHIPPED_LEVERS, log: (line: string) => void = () => {}): TuneResult {
  const measure = (levers: RankingLevers): Scores => measureVariant({ label: 'tune', levers }).pooled;
  let levers = start;
  const before = measure(levers);
  let best = before;
  const steps: string[] = [];
  for (let round = 1; round <= MAX_ROUNDS; round += 1) {
    let moved = false;
    for (const knob of knobs()) {
      const current = knob.read(levers);
      let chosen: { value: number | boolean; scores: Scores } | undefined;
      for (const value of candidates(knob, current)) {
        const scores = measure(knob.write(levers, value));
        if (better(scores, chosen?.scores, best)) chosen = { value, scores };
      }
      if (chosen === undefined) continue;
      levers = knob.write(levers, chosen.value);
      best = chosen.scores;
      moved = true;
      const step = `round ${round}: ${knob.label} ${String(current)} → ${String(chosen.value)} (top-1 ${pct(best.top1)}, top-5 ${pct(best.top5)}, MRR ${best.mrr10.toFixed(3)})`;
      steps.push(step);
      log(step);
    }
    if (!moved) break;
  }
  return { levers, before, after: best, steps };
}

/** The tuned levers as they would be written into levers.ts, with the pooled tuning figures before and after. */
export function tuneReport(result: TuneResult): string {
  return [
    `pooled tuning halves: top-1 ${pct(result.before.top1)} → ${pct(result.after.top1)}, top-5 ${pct(result.before.top5)} → ${pct(result.after.top5)}, MRR ${result.before.mrr10.toFixed(3)} → ${result.after.mrr10.toFixed(3)}`,
    ...result.steps,
    JSON.stringify(result.levers, null, 2),
  ].join('\n');
}
