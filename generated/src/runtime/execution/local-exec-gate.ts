// What a server needs of local execution before any tool runs locally: the start-up warning, and an executor that
// loads local-exec.ts (child processes, the sandbox script) only when the first local run is asked for.

import type { ExecutionMode } from '../settings/config.js';
import type { JsonObject, RunOutcome, ServedTool, ServerNames } from '../shared/contracts.js';
import type { LocalExecutor, LocalExecutorOptions } from './local-exec.js';

/** The warning printed once at start-up when local execution is on: the README's threat model in short. */
export function localExecutionWarning(names: ServerNames, mode: ExecutionMode): string {
  return (
    `WARNING: ${names.envPrefix}MCP_EXECUTION=${mode}: tool code from the catalogue will run on this machine. ` +
    "Each run gets its own process under Node's permission model (no file reads or writes, no child processes, workers " +
    'or addons), a deadline that kills its whole process tree, a heap cap and a memory cap, a bounded queue, no access ' +
    "to this server's stdout, and an environment without credential-like variables. That is isolation, not a security " +
    "sandbox: the code runs with your user permissions, can open sockets, and Node's permission model does not guard " +
    'against malicious code. Enable it only for a catalogue you trust.'
  );
}

/** A LocalExecutor that creates the real one on its first run; in remote mode local-exec.ts is never loaded. */
export function createDeferredLocalExecutor(options: LocalExecutorOptions): LocalExecutor {
  let executor: LocalExecutor | undefined;
  let loading: Promise<LocalExecutor> | undefined;
  const load = (): Promise<LocalExecutor> => {
    loading ??= import('./local-exec.js').then((module) => {
      executor = module.createLocalExecutor(options);
      return executor;
    });
    return loading;
  };
  return {
    async run(tool: ServedTool, params: JsonObject, signal?: AbortSignal): Promise<RunOutcome> {
      return (executor ?? (await load())).run(tool, params, signal);
    },
    // Nothing can be running before the real executor exists.
    killAll: () => executor?.killAll(),
  };
}
