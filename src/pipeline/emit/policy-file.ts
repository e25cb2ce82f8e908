// The package's `data/policy.json`, as the runtime reads it (src/runtime/policy/settings.ts).

import { byCodeUnit } from '../../runtime/shared/order.js';
import { POLICY_FILE_FORMAT, type PolicyDefaults } from '../../runtime/policy/index.js';

/** `data/policy.json`: the build's policy defaults, keys sorted, so the same config writes the same bytes. */
export function policyFileText(defaults: PolicyDefaults): string {
  const sorted = Object.fromEntries(
    Object.entries(defaults)
      .filter(([, value]) => value !== undefined)
      .sort(([a], [b]) => byCodeUnit(a, b)),
  );
  return `${JSON.stringify({ format: POLICY_FILE_FORMAT, ...sorted }, null, 2)}\n`;
}
