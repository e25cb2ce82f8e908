// The generator's options, resolved once into one explicit object with NexusBloom defaults.

import type { ServerNames } from '../runtime/shared/contracts.js';
import type { ToolNamesMode } from './plan/plan-package.js';
import type { PolicyDefaults } from '../runtime/policy/index.js';

export interface GeneratorConfig {
  names: ServerNames;
  /** Package description in package.json and server.json (at most 100 characters there). */
  description: string;
  /** Name in the MCP Registry (`server.json` name, package.json `mcpName`): reverse-DNS namespace / name. */
  registryName: string;
  /** Slugs outside the tool-name grammar: `withheld` from tools/list (default) or listed under a valid `sanitize`d name. */
  toolNames: ToolNamesMode;
  /**
   * The tool policy the server applies unless its environment overrides it (allow/deny patterns, maxRisk, confirm,
   * surface; see src/runtime/policy/), shipped as `data/policy.json`.
   */
  policy: PolicyDefaults;
}

export const DEFAULT_NAMES: ServerNames = {
  packageName: '@nexusbloom/mcp-server',
  packageVersion: '0.1.0',
  serverName: 'nexusbloom',
  productName: 'NexusBloom',
  metaToolName: 'nexusbloom',
  uriScheme: 'nexusbloom',
  envPrefix: 'NEXUSBLOOM_',
  defaultApiUrl: 'https://nexusbloom.dev/api',
};

export type ConfigOverrides = Partial<ServerNames> & {
  description?: string;
  registryName?: string;
  toolNames?: ToolNamesMode;
  policy?: PolicyDefaults;
};

export function resolveConfig(overrides: ConfigOverrides = {}): GeneratorConfig {
  const { description, registryName, toolNames, policy, ...names } = overrides;
  const resolved: ServerNames = { ...DEFAULT_NAMES };
  for (const [key, value] of Object.entries(names) as Array<[keyof ServerNames, string | undefined]>) {
    if (value !== undefined) resolved[key] = value;
  }
  return {
    names: resolved,
    description: description ?? `${resolved.productName} tools over MCP: typed tools, search, batch runs, history.`,
    registryName: registryName ?? defaultRegistryName(resolved),
    toolNames: toolNames ?? 'withheld',
    policy: policy ?? {},
  };
}

/** `https://nexusbloom.dev/api` + `@nexusbloom/mcp-server` → `dev.nexusbloom/mcp-server`. */
function defaultRegistryName(names: ServerNames): string {
  let namespace: string;
  try {
    namespace = new URL(names.defaultApiUrl).hostname.split('.').reverse().join('.');
  } catch {
    namespace = names.serverName;
  }
  const name = names.packageName.replace(/^@[^/]+\//, '');
  return `${namespace.replace(/[^a-zA-Z0-9.-]/g, '-')}/${name.replace(/[^a-zA-Z0-9._-]/g, '-')}`;
}
