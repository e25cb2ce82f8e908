// The policy a server applies: the build's defaults (data/policy.json), each overridden by its environment variable.

import { readFileSync } from 'node:fs';
import type { DiagnosticLog, EnvironmentVariables, ServerNames } from '../shared/contracts.js';
import type { OperatorPolicy } from './operator-policy.js';
import {
  CONFIRM_MODES,
  RISK_CEILINGS,
  SURFACE_MODES,
  type ConfirmMode,
  type PolicyDefaults,
  type RiskCeiling,
  type SurfaceMode,
} from './modes.js';
import { variableValue } from '../shared/environment.js';

export { CONFIRM_MODES, SURFACE_MODES, type ConfirmMode, type PolicyDefaults, type SurfaceMode } from './modes.js';

export interface PolicySettings {
  policy: OperatorPolicy;
  confirm: ConfirmMode;
  surface: SurfaceMode;
  vars: PolicyEnvVarNames;
}

export interface PolicyEnvVarNames {
  allow: string;
  deny: string;
  maxRisk: string;
  confirm: string;
  surface: string;
}

export function policyEnvVarNames(names: Pick<ServerNames, 'envPrefix'>): PolicyEnvVarNames {
  const p = names.envPrefix;
  return {
    allow: `${p}MCP_ALLOW`,
    deny: `${p}MCP_DENY`,
    maxRisk: `${p}MCP_MAX_RISK`,
    confirm: `${p}MCP_CONFIRM`,
    surface: `${p}MCP_SURFACE`,
  };
}

/** A comma-separated list; a lone `-` is the empty list (to clear what the build set). */
function readList(raw: string): string[] {
  if (raw === '-') return [];
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * Reads the policy; a variable that is set replaces the build's value. An invalid value is reported on `log` and the
 * build's value is kept, except a ceiling, which falls back to `read` (the strictest): a typo in a ceiling must not
 * open the server wider than meant. Never throws.
 */
export function readPolicySettings(
  names: Pick<ServerNames, 'envPrefix'>,
  env: EnvironmentVariables,
  log: DiagnosticLog,
  defaults: PolicyDefaults = {},
): PolicySettings {
  const vars = policyEnvVarNames(names);
  const read = (name: string): string | undefined => variableValue(env, name);
  const choice = <const T extends readonly string[]>(name: string, choices: T, fallback: T[number]): T[number] => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const match = choices.find((c) => c === raw.toLowerCase());
    if (match !== undefined) return match;
    log(`${name}=${JSON.stringify(raw)} is not one of ${choices.join(', ')}; using ${fallback}.`);
    return fallback;
  };
  const allowRaw = read(vars.allow);
  const denyRaw = read(vars.deny);
  let maxRisk: RiskCeiling | null = defaults.maxRisk ?? null;
  const riskRaw = read(vars.maxRisk);
  if (riskRaw !== undefined) {
    const match = RISK_CEILINGS.find((level) => level === riskRaw.toLowerCase());
    if (match === undefined)
      log(
        `${vars.maxRisk}=${JSON.stringify(riskRaw)} is not one of ${RISK_CEILINGS.join(', ')}; using read (only read-only tools) until it is fixed.`,
      );
    maxRisk = match ?? 'read';
  }
  return {
    policy: {
      allow: allowRaw === undefined ? [...(defaults.allow ?? [])] : readList(allowRaw),
      deny: denyRaw === undefined ? [...(defaults.deny ?? [])] : readList(denyRaw),
      maxRisk,
    },
    confirm: choice(vars.confirm, CONFIRM_MODES, defaults.confirm ?? 'declared'),
    surface: choice(vars.surface, SURFACE_MODES, defaults.surface ?? 'single'),
    vars,
  };
}

/** The problems of a `policy` object as a build config or data/policy.json holds it, each naming its field; empty when valid. */
export function policyDefaultsProblems(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['policy must be an object'];
  const problems: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    if (key === 'allow' || key === 'deny') {
      if (!Array.isArray(field) || field.some((item) => typeof item !== 'string' || item.trim() === ''))
        problems.push(`policy.${key} must be an array of non-empty strings (patterns with * and ?, or category:… / tag:…)`);
    } else if (key === 'maxRisk') {
      if (!(RISK_CEILINGS as readonly unknown[]).includes(field))
        problems.push(`policy.maxRisk must be one of ${RISK_CEILINGS.join(', ')}`);
    } else if (key === 'confirm') {
      if (!(CONFIRM_MODES as readonly unknown[]).includes(field))
        problems.push(`policy.confirm must be one of ${CONFIRM_MODES.join(', ')}`);
    } else if (key === 'surface') {
      if (!(SURFACE_MODES as readonly unknown[]).includes(field))
        problems.push(`policy.surface must be one of ${SURFACE_MODES.join(', ')}`);
    } else {
      problems.push(`policy has unknown option ${JSON.stringify(key)} (known: allow, deny, maxRisk, confirm, surface)`);
    }
  }
  return problems;
}

export const POLICY_FILE_FORMAT = 'nexusbloom-policy/1';

/**
 * The defaults in a package's `data/policy.json`: none when the file is absent (a package built before it existed).
 * A file that is there but unreadable or invalid is an error: serving every tool in place of a policy the operator
 * built in would open the server wider than meant.
 */
export function readPolicyFileSync(url: URL): PolicyDefaults {
  let text: string;
  try {
    text = readFileSync(url, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return {};
    throw new Error(`Cannot read the tool policy at ${url.pathname}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`The tool policy at ${url.pathname} is not JSON: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  if (typeof data !== 'object' || data === null || (data as { format?: unknown }).format !== POLICY_FILE_FORMAT) {
    throw new Error(`The tool policy at ${url.pathname} is not a ${POLICY_FILE_FORMAT} file.`);
  }
  const { format: _format, ...defaults } = data as Record<string, unknown>;
  const problems = policyDefaultsProblems(defaults);
  if (problems.length > 0) throw new Error(`The tool policy at ${url.pathname} is invalid: ${problems.join('; ')}.`);
  return defaults as PolicyDefaults;
}
