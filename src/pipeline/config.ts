// The generator's options, resolved once into one explicit object with NexusBloom defaults.

import type { ServerNames } from '../runtime/contracts.js';

export interface GeneratorConfig {
  names: ServerNames;
  /** Package description in package.json and server.json. */
  description: string;
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

export function resolveConfig(overrides: Partial<ServerNames> & { description?: string } = {}): GeneratorConfig {
  const { description, ...names } = overrides;
  const resolved: ServerNames = { ...DEFAULT_NAMES };
  for (const [key, value] of Object.entries(names) as Array<[keyof ServerNames, string | undefined]>) {
    if (value !== undefined) resolved[key] = value;
  }
  return {
    names: resolved,
    description: description ?? `MCP server for ${resolved.productName}: every catalogue tool, typed, plus a meta-tool to search, inspect and batch them.`,
  };
}
