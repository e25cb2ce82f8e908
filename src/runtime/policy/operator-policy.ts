// The operator's policy: which tools this server serves at all, by name pattern, category, tag and risk ceiling.

import type { ServedTool } from '../shared/contracts.js';
import { traitsOf } from '../catalogue/catalogue-index.js';
import { matchesPattern } from './patterns.js';
import { isAboveCeiling, riskOf, type RiskCeiling } from './risk.js';

export interface OperatorPolicy {
  /** Selectors a tool must match one of (none: every tool). Deny wins over allow. */
  allow: readonly string[];
  /** Selectors that put a tool outside the policy. */
  deny: readonly string[];
  /** Tools whose risk (see risk.ts) is above this are outside the policy; null: no ceiling. */
  maxRisk: RiskCeiling | null;
}

export const OPEN_POLICY: OperatorPolicy = { allow: [], deny: [], maxRisk: null };

export type PolicyDecision = { allowed: true } | { allowed: false; reason: string };

/**
 * Whether a selector picks a tool: `category:<pattern>` matches its category, `tag:<pattern>` any of its tags, and
 * anything else its slug; patterns take `*` and `?`.
 */
export function selects(selector: string, tool: ServedTool): boolean {
  if (selector.startsWith('category:')) return matchesPattern(selector.slice('category:'.length), traitsOf(tool).category);
  if (selector.startsWith('tag:')) {
    const pattern = selector.slice('tag:'.length);
    return traitsOf(tool).tags.some((tag) => matchesPattern(pattern, tag));
  }
  return matchesPattern(selector, tool.slug);
}

export function isOpenPolicy(policy: OperatorPolicy): boolean {
  return policy.allow.length === 0 && policy.deny.length === 0 && (policy.maxRisk === null || policy.maxRisk === 'critical');
}

export function decideTool(policy: OperatorPolicy, tool: ServedTool): PolicyDecision {
  const denied = policy.deny.find((selector) => selects(selector, tool));
  if (denied !== undefined) return { allowed: false, reason: `denied by ${JSON.stringify(denied)}` };
  if (policy.allow.length > 0 && !policy.allow.some((selector) => selects(selector, tool))) {
    return { allowed: false, reason: `not matched by the allow list (${policy.allow.map((s) => JSON.stringify(s)).join(', ')})` };
  }
  if (policy.maxRisk !== null) {
    const risk = riskOf(traitsOf(tool).annotations);
    if (isAboveCeiling(risk, policy.maxRisk))
      return { allowed: false, reason: `its risk "${risk}" (from its annotations) is above the ceiling "${policy.maxRisk}"` };
  }
  return { allowed: true };
}

/** One line for logs and reports. */
export function describePolicy(policy: OperatorPolicy): string {
  if (isOpenPolicy(policy)) return 'every tool';
  const parts: string[] = [];
  if (policy.allow.length > 0) parts.push(`allow ${policy.allow.join(', ')}`);
  if (policy.deny.length > 0) parts.push(`deny ${policy.deny.join(', ')}`);
  if (policy.maxRisk !== null && policy.maxRisk !== 'critical') parts.push(`risk at most ${policy.maxRisk}`);
  return parts.join('; ');
}
