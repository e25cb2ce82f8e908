// How many local runs a server starts at once, how many may wait, and how much memory each may hold; read from the
// environment (`<prefix>MCP_LOCAL_CONCURRENCY`, `<prefix>MCP_LOCAL_QUEUE`, `<prefix>MCP_LOCAL_MEMORY_MB`).

import type { DiagnosticLog, EnvironmentVariables, ServerNames } from '../shared/contracts.js';
import { variableValue } from '../shared/environment.js';

export interface LocalLimits {
  /** Children running at once. */
  concurrency: number;
  /** Calls waiting for a child; past this a call fails at once with RATE_LIMITED. */
  queueLimit: number;
  /** Resident memory a child may hold (heap, Buffers and the rest), in MB; past it the child is killed. */
  memoryMb: number;
  vars: { concurrency: string; queueLimit: string; memoryMb: string };
}

export const DEFAULT_LOCAL_CONCURRENCY = 2;
export const DEFAULT_LOCAL_QUEUE = 16;
export const DEFAULT_LOCAL_MEMORY_MB = 256;
/** Below this a child cannot even start Node.js. */
const MIN_LOCAL_MEMORY_MB = 64;

export function localLimitVars(envPrefix: string): LocalLimits['vars'] {
  return {
    concurrency: `${envPrefix}MCP_LOCAL_CONCURRENCY`,
    queueLimit: `${envPrefix}MCP_LOCAL_QUEUE`,
    memoryMb: `${envPrefix}MCP_LOCAL_MEMORY_MB`,
  };
}

/** Reads the limits; an invalid value is reported on `log` and replaced by its default. Never throws. */
export function readLocalLimits(names: Pick<ServerNames, 'envPrefix'>, env: EnvironmentVariables, log: DiagnosticLog): LocalLimits {
  const vars = localLimitVars(names.envPrefix);
  const read = (name: string, fallback: number, min: number): number => {
    const raw = variableValue(env, name);
    if (raw === undefined) return fallback;
    const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min) {
      log(`${name}=${JSON.stringify(raw)} is not a whole number of at least ${min}; using ${fallback}.`);
      return fallback;
    }
    return value;
  };
  return {
    concurrency: read(vars.concurrency, DEFAULT_LOCAL_CONCURRENCY, 1),
    queueLimit: read(vars.queueLimit, DEFAULT_LOCAL_QUEUE, 0),
    memoryMb: read(vars.memoryMb, DEFAULT_LOCAL_MEMORY_MB, MIN_LOCAL_MEMORY_MB),
    vars,
  };
}
