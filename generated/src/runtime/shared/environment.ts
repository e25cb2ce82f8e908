// How every room reads its environment variables: one rule for what counts as set.

import type { EnvironmentVariables } from './contracts.js';

/** The value of the variable `name`, without surrounding white space; undefined when it is unset or blank. */
export function variableValue(env: EnvironmentVariables, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}
