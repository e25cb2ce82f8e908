// The words a policy is written in (risk levels, ceilings, confirmation and surface modes) and the build's defaults.

export const RISK_LEVELS = ['read', 'low', 'medium', 'high'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];
/** What a ceiling may name: a risk level, or `critical`, which every derived level is below (no ceiling). */
export const RISK_CEILINGS = [...RISK_LEVELS, 'critical'] as const;
export type RiskCeiling = (typeof RISK_CEILINGS)[number];

/** `declared`: tools declaring destructiveHint: true; `unless-safe`: every tool not declared read-only or non-destructive. */
export const CONFIRM_MODES = ['declared', 'unless-safe', 'off'] as const;
export type ConfirmMode = (typeof CONFIRM_MODES)[number];
/** `single`: one meta-tool (the reference); `split`: a read-only discovery tool and a separate runner. */
export const SURFACE_MODES = ['single', 'split'] as const;
export type SurfaceMode = (typeof SURFACE_MODES)[number];

/** What a build may set (config file `policy`, shipped as `data/policy.json`); every field optional. */
export interface PolicyDefaults {
  allow?: string[];
  deny?: string[];
  maxRisk?: RiskCeiling;
  confirm?: ConfirmMode;
  surface?: SurfaceMode;
}
