// The budget step of a build: what the tools/list of the package just emitted costs an agent, as its server lists
// it with no environment set, and the data/token-costs.json the server reports from when it lists the meta-tool alone.

import { availableParallelism } from 'node:os';
import { DEFAULT_TOOLS_THRESHOLD, isListable } from '../../runtime/catalogue/advertise.js';
import { tokenCostsFileText } from '../emit/token-costs-file.js';
import { createPolicyView, describePolicy, readPolicySettings } from '../../runtime/policy/index.js';
import { toolList } from '../../runtime/catalogue/slug-index.js';
import type { BuildCache } from '../cache/build-cache.js';
import type { GeneratorConfig } from '../config.js';
import type { EmittedPackage } from '../emit/emit-package.js';
import { BOUNDED_HEAP_FROM_TOOLS, collectGarbage } from '../memory.js';
import { workersAllowed } from '../parallel/work.js';
import { PipelineError } from '../problems.js';
import { contextBudget, overBudgetMessage, type ContextBudget } from './context-budget.js';
import { startCountingThread } from './counting-thread.js';

/** What a server lists with no environment set: every tool inside the policy up to the hosts' limit, else the meta-tool. */
export interface DefaultListing {
  /** `all`: every listable tool and the meta-tool; `meta`: the meta-tool alone (the catalogue is larger than hosts take). */
  shows: 'all' | 'meta';
  /** Catalogue tools with their own entry in tools/list by default. */
  listed: number;
  /** Tools the build's policy leaves out of everything. */
  outsidePolicy: number;
  /** The policy in words. */
  policy: string;
  /** Tokens of the default tools/list answer (o200k_base). */
  tokens: number;
}

export interface MeasuredBudget {
  budget: ContextBudget;
  listing: DefaultListing;
  /** Tools inside the policy with their own tools/list entry. */
  advertised: number;
  /** The text of data/token-costs.json. */
  costsText: string;
}

/** What the budget reads of an emitted package: the served tools and their tools/list entries. */
export type ListedPackage = Pick<EmittedPackage, 'served' | 'listEntries'>;

export interface BudgetStep {
  /** Measures `emitted`; over `maxTokens` it fails, before anything is written. */
  measure(emitted: ListedPackage, config: GeneratorConfig, maxTokens: number | undefined): Promise<MeasuredBudget>;
  /**
   * Whether the counting is done on another thread, so that `measure` may start as soon as the list entries exist and
   * count while this thread emits the rest of the package.
   */
  readonly countsAside: boolean;
  close(): Promise<void>;
}

/** Whether a build loads the tokenizer on another core from its start (see startBudget). */
export function loadsTokenizerAhead(cachedEntries: number, tools: number, env = process.env, cores = availableParallelism()): boolean {
  return (cachedEntries > 0 || tools < BOUNDED_HEAP_FROM_TOOLS) && workersAllowed(env, cores);
}

/**
 * The budget step of a build of `tools` tools whose per-entry counts `cache` may hold. Loading the tokenizer takes
 * 0.2–0.5 s, which a rebuild (a cache with entries, counting few entries if any) and a small catalogue's build would
 * wait for after emit: it loads on the other core meanwhile, from now on. A large catalogue's first build loads it in
 * this thread once emit is done instead, so that its tables never sit beside emit's peak (see memory.ts).
 */
export function startBudget(cache: BuildCache & { entries: ReadonlyMap<string, unknown> }, tools: number): BudgetStep {
  const counting = loadsTokenizerAhead(cache.entries.size, tools) ? startCountingThread() : null;
  return {
    countsAside: counting !== null,
    async measure(emitted, config, maxTokens) {
      // Emit's garbage is at its largest, and the tokenizer's tables are about to come on top of it (see memory.ts).
      if (counting === null) collectGarbage();
      const { names } = config;
      // The build's policy as a server with no environment applies it (src/runtime/policy/): what it leaves out is counted nowhere.
      const policy = readPolicySettings(names, {}, () => {}, config.policy);
      const served = createPolicyView(policy.policy).allowed(toolList(emitted.served)).tools;
      const budget = await contextBudget(served, names, {
        cache,
        entryJsonOf: (tool) => emitted.listEntries.get(tool.slug),
        // Without the thread, contextBudget loads the tokenizer in this thread itself.
        counter: counting?.counter,
      });
      // Its tables are not needed past this point.
      await counting?.close();
      const overBudget = maxTokens === undefined ? null : overBudgetMessage(budget, maxTokens, names.envPrefix);
      if (overBudget !== null) throw new PipelineError(overBudget);
      const advertised = served.filter((tool) => isListable(tool, names.metaToolName)).length;
      const shows = advertised + 1 > DEFAULT_TOOLS_THRESHOLD ? 'meta' : 'all';
      const listing: DefaultListing = {
        shows,
        listed: shows === 'all' ? advertised : 0,
        outsidePolicy: emitted.served.length - served.length,
        policy: describePolicy(policy.policy),
        tokens: shows === 'all' ? budget.total : budget.metaOnly,
      };
      const perTool = Object.fromEntries(budget.perTool.map((tool) => [tool.slug, tool.tokens]));
      const costsText = tokenCostsFileText({ encoding: budget.encoding, total: budget.total, metaOnly: budget.metaOnly, perTool });
      return { budget, listing, advertised, costsText };
    },
    async close() {
      await counting?.close();
    },
  };
}
