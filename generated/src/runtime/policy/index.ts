// The policy room: which tools a server serves (operator policy), their risk, and the confirmation rule for runs.
export {
  decideTool,
  describePolicy,
  isOpenPolicy,
  OPEN_POLICY,
  selects,
  type OperatorPolicy,
  type PolicyDecision,
} from './operator-policy.js';
export { matchesPattern } from './patterns.js';
export {
  declaresDestructive,
  isAboveCeiling,
  mayBeDestructive,
  RISK_CEILINGS,
  RISK_LEVELS,
  riskOf,
  type RiskCeiling,
  type RiskLevel,
} from './risk.js';
export { createPolicyView, type PolicyView } from './catalogue-view.js';
export {
  CONFIRM_MODES,
  POLICY_FILE_FORMAT,
  policyDefaultsProblems,
  policyEnvVarNames,
  readPolicyFileSync,
  readPolicySettings,
  SURFACE_MODES,
  type ConfirmMode,
  type PolicyDefaults,
  type PolicyEnvVarNames,
  type PolicySettings,
  type SurfaceMode,
} from './settings.js';
export {
  confirmationQuestion,
  confirmRuns,
  elicitationChannel,
  needsConfirmation,
  supportsFormElicitation,
  type ConfirmationAnswer,
  type ConfirmationChannel,
  type ConfirmationContext,
  type ConfirmationItem,
  type ConfirmationQuestion,
  type ElicitationReply,
} from './confirmation.js';
export { metaToolAnnotations, type ReachableSurface } from './annotations.js';
