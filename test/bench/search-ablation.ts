// Ablation of the ranking's levers: each one switched off (or set to another value) against the shipped ranking, on
// the tuning halves of every evaluation set, pooled with each set weighing the same. Held-out halves are not scored here.
import { packagedSearchIndex } from '../../src/pipeline/emit/search-index-file.js';
import type { SearchIndexData } from '../../src/runtime/search/index.js';
import { SHIPPED_LEVERS, type RankingLevers } from '../../src/runtime/search/levers.js';
import type { ServedTool } from '../../src/runtime/shared/contracts.js';
import { EVAL_APIS, halfOf, loadEvalSet, oursFor, pooledScores, score, type EvalQuery, type Scores } from './search-quality.js';

export interface Variant {
  label: string;
  levers?: Partial<RankingLevers>;
  /** false: the WordNet synonym table without derivational forms. */
  derivations?: boolean;
  /** true: the index also holds the WordNet definition-word table (not shipped). */
  related?: boolean;
}

const fields = (change: Partial<RankingLevers['fieldWeights']>): Partial<RankingLevers> => ({
  fieldWeights: { ...SHIPPED_LEVERS.fieldWeights, ...change },
});

/** Each lever of the last rounds switched off, one at a time. */
export const LEVERS_OFF: Variant[] = [
  { label: 'shipped' },
  { label: 'same-action verbs off', levers: { sameActionShare: 0 } },
  { label: 'annotations correcting the action off', levers: { annotationsCorrectAction: false } },
  { label: 'read-only means read on (not shipped)', levers: { readOnlyMeansRead: true } },
  { label: 'WordNet definition words (related) on, 0.15', levers: { relatedWeight: 0.15 }, related: true },
  { label: 'derivational forms off', derivations: false },
  { label: "hand synonyms' WordNet forms off", levers: { twoStep: 0 } },
  { label: 'rarity-weighted coverage off', levers: { rarityCoverage: false } },
  { label: 'name/summary second look off', levers: { summaryCoverageFloor: 1 } },
  { label: 'head noun off', levers: { headMatch: 1 } },
  { label: 'head noun named only as context off', levers: { contextHead: 1 } },
  { label: 'unknown leading verb weighing reads down off', levers: { otherVerbReads: 1 } },
  { label: 'synonym coverage 0.75 → 1', levers: { synonymCoverage: 1 } },
  { label: 'input-field coverage 0.75 → 1', levers: { inputFieldCoverage: 1 } },
  { label: 'unasked delete off', levers: { unaskedDelete: 1 } },
  { label: 'first word in name off', levers: { leadInName: 1 } },
  { label: "'my/me/I' off", levers: { selfWeight: 0 } },
  { label: "'who' off", levers: { personShare: 0 } },
  { label: 'name coverage off', levers: { nameCoverageFloor: 1 } },
  { label: 'action factor off', levers: { actionAgrees: 1, actionDiffers: 1 } },
  { label: 'bigrams off', levers: { bigramWeight: 0 } },
  { label: 'prefixes off', levers: { prefixWeight: 0 } },
  { label: 'plural means list off', levers: { pluralMeansList: false } },
  { label: 'many agrees with many off', levers: { manyAgrees: 1 } },
  { label: 'shared term once off', levers: { sharedTermShare: 1 } },
  { label: 'repeated head yields off', levers: { repeatedHead: 1 } },
  { label: 'deprecated in text off', levers: { deprecatedInText: false } },
  { label: 'plural + deprecated in text off', levers: { pluralMeansList: false, deprecatedInText: false } },
  { label: 'narrower tool yields off', levers: { unnamedScope: 1 } },
  { label: 'name length normalization 0.9 → 0.75', levers: { calledLengthNormalization: 0.75 } },
  { label: 'slug weight 4 → 2', levers: fields({ slug: 2 }) },
  { label: 'slug weight 4 → 1', levers: fields({ slug: 1 }) },
  { label: 'lead weight 4 → 2', levers: fields({ lead: 2 }) },
  { label: 'description 0.6 → 1', levers: fields({ description: 1 }) },
  { label: 'field names 0.625 → 0.2', levers: fields({ fieldNames: 0.2 }) },
  { label: 'tags 1.5 → 0.5', levers: fields({ tags: 0.5 }) },
];

interface TuningSet {
  api: string;
  tools: ServedTool[];
  queries: EvalQuery[];
  /** Index data per kind of table: shipped, without derivations, with the definition words. */
  data: Map<string, SearchIndexData>;
}

let sets: TuningSet[] | undefined;
function tuningSets(): TuningSet[] {
  sets ??= EVAL_APIS.map((api) => {
    const set = loadEvalSet(api);
    return { api, tools: set.tools, queries: set.queries.filter((_, position) => halfOf(position) === 'tuning'), data: new Map() };
  });
  return sets;
}

/** Per set and pooled, the tuning-half scores of one variant. */
export function measureVariant(variant: Variant): { perSet: Record<string, Scores>; pooled: Scores } {
  const perSet: Record<string, Scores> = {};
  for (const set of tuningSets()) {
    const options = { derivations: variant.derivations !== false, related: variant.related === true };
    const key = JSON.stringify(options);
    let data = set.data.get(key);
    if (data === undefined) set.data.set(key, (data = packagedSearchIndex(set.tools, options)));
    const { misses: _misses, ...scores } = score(oursFor(set.tools, data, { ...SHIPPED_LEVERS, ...variant.levers }), set.queries);
    perSet[set.api] = scores;
  }
  return { perSet, pooled: pooledScores(Object.values(perSet)) };
}

const pct = (value: number): string => (value * 100).toFixed(1);

/** A table of variants: pooled tuning top-1/top-5/MRR and per-set tuning top-1, each with its change from the first row. */
export function ablationTable(variants: readonly Variant[] = LEVERS_OFF): string {
  const header = `| variant | pooled top-1 | top-5 | MRR | ${EVAL_APIS.join(' | ')} |`;
  const lines = [header, `|${'---|'.repeat(4 + EVAL_APIS.length)}`];
  let base: ReturnType<typeof measureVariant> | undefined;
  for (const variant of variants) {
    const result = measureVariant(variant);
    base ??= result;
    const delta = (now: number, then: number): string =>
      variant === variants[0] ? '' : ` (${now - then >= 0 ? '+' : ''}${pct(now - then)})`;
    const cells = EVAL_APIS.map((api) => `${pct(result.perSet[api]!.top1)}${delta(result.perSet[api]!.top1, base!.perSet[api]!.top1)}`);
    lines.push(
      `| ${variant.label} | ${pct(result.pooled.top1)}${delta(result.pooled.top1, base.pooled.top1)} | ${pct(result.pooled.top5)}${delta(result.pooled.top5, base.pooled.top5)} | ${result.pooled.mrr10.toFixed(3)} | ${cells.join(' | ')} |`,
    );
    process.stderr.write(`${lines[lines.length - 1]}\n`);
  }
  return lines.join('\n');
}
