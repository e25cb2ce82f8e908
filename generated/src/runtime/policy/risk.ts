// A tool's risk as trust-gating hosts infer it from MCP annotations: read < low < medium < high.

import type { ToolAnnotations } from '../shared/contracts.js';
import { RISK_CEILINGS, type RiskCeiling, type RiskLevel } from './modes.js';

export { RISK_CEILINGS, RISK_LEVELS, type RiskCeiling, type RiskLevel } from './modes.js';

/**
 * `readOnlyHint: true` is `read`; `destructiveHint: true` is `high`; a tool that declares `destructiveHint: false` is
 * `low`. A tool that declares neither is `medium`: the spec's defaults read it as possibly destructive, but it made no
 * claim either way, and hosts place unknown tools in the middle rather than refusing every undeclared tool.
 */
export function riskOf(annotations: ToolAnnotations | undefined | null): RiskLevel {
  if (annotations?.readOnlyHint === true) return 'read';
  if (annotations?.destructiveHint === true) return 'high';
  if (annotations?.destructiveHint === false) return 'low';
  return 'medium';
}

/** Whether `risk` is above `ceiling` (then the tool is outside the policy). */
export function isAboveCeiling(risk: RiskLevel, ceiling: RiskCeiling): boolean {
  return RISK_CEILINGS.indexOf(risk) > RISK_CEILINGS.indexOf(ceiling);
}

/** Declared destructive (`destructiveHint: true`, and not read-only). */
export function declaresDestructive(annotations: ToolAnnotations | undefined | null): boolean {
  return annotations?.readOnlyHint !== true && annotations?.destructiveHint === true;
}

/**
 * Possibly destructive as the spec's defaults read annotations: `readOnlyHint` defaults to false and `destructiveHint`
 * to true, so only a tool declared read-only or `destructiveHint: false` is known to be safe.
 */
export function mayBeDestructive(annotations: ToolAnnotations | undefined | null): boolean {
  return annotations?.readOnlyHint !== true && annotations?.destructiveHint !== false;
}
