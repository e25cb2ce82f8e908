// Entry point of a generated server's bin: loads the pinned catalogue, serves MCP over stdio, logs only to stderr.

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ServerNames } from './contracts.js';
import { loadServedCatalogue } from './catalogue-store.js';
import { createStderrLog } from './config.js';
import { createServer } from './server.js';

export interface MainOptions {
  names: ServerNames;
  /** The package's `data/catalogue.json`. */
  catalogueUrl: URL;
  env?: NodeJS.ProcessEnv;
}

export async function main(options: MainOptions): Promise<void> {
  const { names } = options;
  const log = createStderrLog(names.serverName);
  keepStdoutForProtocol();

  let catalogue;
  try {
    catalogue = await loadServedCatalogue(options.catalogueUrl);
  } catch (error) {
    log(`Cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
    return;
  }

  const created = createServer({ names, catalogue, env: options.env ?? process.env, log });

  // A failure inside one request must not take down a server the host depends on; it is logged and the process goes on.
  process.on('unhandledRejection', (reason) => log(`Unhandled rejection: ${describe(reason)}`));
  process.on('uncaughtException', (error) => log(`Uncaught exception: ${describe(error)}`));

  let closing = false;
  const shutdown = (why: string): void => {
    if (closing) return;
    closing = true;
    log(`Shutting down (${why}).`);
    const forceExit = setTimeout(() => process.exit(0), 2000);
    forceExit.unref();
    created.close().catch((error: unknown) => log(`Error while closing: ${describe(error)}`)).finally(() => process.exit(0));
  };
  process.once('exit', () => created.killLocalRuns());
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.stdin.once('end', () => shutdown('stdin closed'));
  process.stdin.once('close', () => shutdown('stdin closed'));

  const transport = new StdioServerTransport();
  await created.server.connect(transport);
  const advertised = catalogue.tools.filter((tool) => tool.withheldReason === null).length;
  log(`${names.packageName} ${names.packageVersion} ready on stdio: ${advertised} of ${catalogue.tools.length} tools advertised, `
    + `API ${created.settings.apiUrl}, execution ${created.settings.execution}, catalogue ${created.settings.catalogue}.`);
}

/** Anything printed with console.* in this process goes to stderr: stdout carries only MCP messages. */
function keepStdoutForProtocol(): void {
  const toStderr = (...args: unknown[]): void => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
}

function describe(value: unknown): string {
  return value instanceof Error ? (value.stack ?? value.message) : String(value);
}
