// The build warnings the plan's names give: slugs listed under a mapped name, and a slug the meta-tool's name takes.

import { isAdvertised, isListable } from '../../runtime/catalogue/advertise.js';
import type { GeneratorConfig } from '../config.js';
import type { Problem } from '../problems.js';
import { LAYOUT } from './layout.js';
import type { PackagePlan } from './plan-package.js';

/**
 * A grammar-valid slug spelled like the meta-tool cannot have its name in tools/list: the meta-tool keeps it, and the
 * server reaches the tool through the meta-tool's `run` command instead. Said at build time, not only by the server.
 */
function metaToolNameClashes(plan: PackagePlan, config: GeneratorConfig): Problem[] {
  return plan.tools.flatMap((tool): Problem[] =>
    isAdvertised(tool) && !isListable(tool, config.names.metaToolName)
      ? [
          {
            severity: 'warning',
            slug: tool.slug,
            pointer: '/slug',
            message: `not advertised in tools/list: the meta-tool has this name; {"command":"run"} still reaches it`,
            hint: 'rename the slug, or give the meta-tool another name (metaToolName in build --config)',
          },
        ]
      : [],
  );
}

/** A check warning that a slug is withheld, for a slug the plan mapped to a valid tool name instead. */
function hasMappedName(plan: PackagePlan, problem: Problem): boolean {
  return problem.pointer === '/slug' && plan.tools.some((tool) => tool.slug === problem.slug && tool.toolName !== undefined);
}

/** One line per slug listed under a mapped name (`toolNames: "sanitize"`), in place of its withheld warning. */
function mappedNameNotes(plan: PackagePlan): Problem[] {
  return plan.tools.flatMap((tool): Problem[] =>
    tool.toolName === undefined
      ? []
      : [
          {
            severity: 'warning',
            slug: tool.slug,
            pointer: '/slug',
            message: `listed in tools/list as ${JSON.stringify(tool.toolName)} (toolNames: "sanitize"; recorded in ${LAYOUT.namesLock})`,
          },
        ],
  );
}

/** The check's warnings as the plan leaves them, then the plan's own. */
export function planWarnings(checkProblems: readonly Problem[], plan: PackagePlan, config: GeneratorConfig): Problem[] {
  const fromCheck = checkProblems.filter((problem) => problem.severity === 'warning' && !hasMappedName(plan, problem));
  return [...fromCheck, ...mappedNameNotes(plan), ...metaToolNameClashes(plan, config)];
}
