// The catalogue as the policy lets agents see it, computed once per tool list, and the answer for a tool outside it.

import { toolFailure, type ToolFailure } from '../shared/contracts.js';
import { toolList, type ToolList } from '../catalogue/slug-index.js';
import { decideTool, isOpenPolicy, type OperatorPolicy } from './operator-policy.js';

export interface PolicyView {
  /** The tools inside the policy, in the list's order; the very list when the policy lets every tool through. */
  allowed(list: ToolList): ToolList;
  /**
   * TOOL_NOT_ALLOWED for a name that is, or is the only prefix of, a tool outside the policy; null otherwise (the
   * caller answers its own not-found). Asked only after the name failed to resolve among the allowed tools.
   */
  refusal(list: ToolList, wanted: string, exactOnly?: boolean): ToolFailure | null;
  /** How many tools of the list are outside the policy. */
  refusedCount(list: ToolList): number;
}

export function createPolicyView(policy: OperatorPolicy): PolicyView {
  const open = isOpenPolicy(policy);
  // The last list asked for and its allowed tools: the store hands out one list until a refresh replaces it.
  let last: { list: ToolList; allowed: ToolList } | undefined;
  const allowed = (list: ToolList): ToolList => {
    if (open) return list;
    if (last?.list !== list) last = { list, allowed: toolList(list.tools.filter((tool) => decideTool(policy, tool).allowed)) };
    return last.allowed;
  };
  return {
    allowed,
    refusal(list, wanted, exactOnly = false) {
      if (open || wanted === '') return null;
      const exact = list.bySlug(wanted);
      const candidates = exact !== undefined ? [exact] : exactOnly ? [] : list.tools.filter((tool) => tool.slug.startsWith(wanted));
      const only = candidates.length === 1 ? candidates[0] : undefined;
      if (only === undefined) return null;
      const decision = decideTool(policy, only);
      if (decision.allowed) return null;
      return toolFailure(
        'TOOL_NOT_ALLOWED',
        `Tool ${JSON.stringify(only.slug)} is outside this server's tool policy (${decision.reason}), so it is ` +
          'not served: not listed, not searchable and not runnable here. Do not retry it or look for a way around the policy; ' +
          'tell the user it is blocked, and the operator can change the policy if it should be allowed.',
        { slug: only.slug, reason: decision.reason },
      );
    },
    refusedCount: (list) => list.tools.length - allowed(list).tools.length,
  };
}
