// The meta-tool's annotations, computed from the tools it can reach under the policy, so a host gating by
// annotations judges it by what it can actually do.

import type { ServedTool } from '../shared/contracts.js';
import { traitsOf } from '../catalogue/catalogue-index.js';
import { mayBeDestructive } from './risk.js';

export interface ReachableSurface {
  /** The tools the meta-tool (or the runner) can run; empty for a discovery-only tool. */
  runnable: readonly ServedTool[];
}

export interface MetaToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * readOnlyHint when every runnable tool declares readOnlyHint (or none is runnable); destructiveHint when any may be
 * destructive as the spec's defaults read it (not declared read-only or non-destructive); idempotentHint when every
 * runnable tool is read-only or idempotent; openWorldHint when any is open-world (the default).
 */
export function metaToolAnnotations(title: string, reachable: ReachableSurface): MetaToolAnnotations {
  // From the index while manifests are not read: listing the meta-tool must not load every manifest.
  const tools = reachable.runnable.map((tool) => traitsOf(tool).annotations);
  const readOnly = tools.every((annotations) => annotations?.readOnlyHint === true);
  return {
    title,
    readOnlyHint: readOnly,
    destructiveHint: !readOnly && tools.some((annotations) => mayBeDestructive(annotations)),
    idempotentHint: tools.every((annotations) => annotations?.readOnlyHint === true || annotations?.idempotentHint === true),
    openWorldHint: tools.some((annotations) => annotations?.openWorldHint !== false),
  };
}
