// The package entry: the server factory (no side effects) and the names it was generated with.
import { readFileSync } from 'node:fs';
import type { DiagnosticLog, ServedCatalogueFile } from './runtime/shared/contracts.js';
import { createServer as createRuntimeServer } from './runtime/transport/server.js';
import { catalogueUrl, names } from './names.js';

export { catalogueUrl, names };

/** Builds the MCP server over this package's catalogue; connect it to any transport. */
export function createServer(options: { env?: NodeJS.ProcessEnv; log?: DiagnosticLog } = {}) {
  const catalogue = JSON.parse(readFileSync(catalogueUrl, 'utf8')) as ServedCatalogueFile;
  return createRuntimeServer({ names, catalogue, ...options });
}
