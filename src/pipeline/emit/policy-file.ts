// The package's `data/policy.json`, as the runtime reads it (src/runtime/policy/settings.ts).

import { POLICY_FILE_FORMAT, type PolicyDefaults } from '../../runtime/policy/index.js';

/** `data/policy.json`: the build's policy defaults, keys sorted, so the same config writes the same bytes. */
export function policyFileText(defaults: PolicyDefaults): string {
  const sorted = Object.fromEntries(Object.entries(defaults).filter(([, value]) => value !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return `${JSON.stringify({ format: POLICY_FILE_FORMAT, ...sorted }, null, 2)}\n`;
}
