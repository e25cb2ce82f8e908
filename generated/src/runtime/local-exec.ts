// Opt-in local execution: runs a tool's published source in its own child process with a SIGKILL deadline, a heap
// cap, no access to our stdout, and an environment stripped of credentials.

import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DiagnosticLog, EnvironmentVariables, JsonObject, RunOutcome, ServedTool, ToolFailure } from './contracts.js';
import { toolFailure } from './contracts.js';
import { redactUrlCredentials } from './redact.js';
import { SANDBOX_MARKER, type SandboxReply, type SandboxRequest } from './sandbox-child.js';

export interface LocalExecutor {
  run(tool: ServedTool, params: JsonObject, signal?: AbortSignal): Promise<RunOutcome>;
  /** SIGKILLs every run still in progress; synchronous so it can run in a process 'exit' handler. */
  killAll(): void;
}

export interface LocalExecutorOptions {
  timeoutMs: number;
  log: DiagnosticLog;
  /** V8 old-space cap of each child, in MB. */
  heapMb?: number;
  /** The environment the child inherits, before credentials are stripped; process.env by default. */
  env?: EnvironmentVariables;
  /** Name of the variable that chooses the execution mode, for error messages. */
  executionVar?: string;
  /**
   * Name of the variable holding the API URL, whose userinfo is sent as the API's credentials (see config.ts); the
   * child gets it without them. Defaults to the `API_URL` variable of `executionVar`'s prefix.
   */
  apiUrlVar?: string;
}

export const DEFAULT_HEAP_MB = 128;

/** Name fragments (matched case-insensitively, anywhere in the name) of variables that look like credentials. */
export const CREDENTIAL_NAME_PARTS: readonly string[] = [
  'KEY', 'SECRET', 'TOKEN', 'PASSWORD', 'PASSWD', 'PASSPHRASE', 'AUTH', 'CREDENTIAL', 'SESSION', 'COOKIE', 'PRIVATE',
];

/** Lines of child output forwarded to stderr per run; beyond that a tool could flood the server's log. */
const MAX_FORWARDED_LINES = 50;

/**
 * The environment minus every variable whose name looks like a credential, and with the userinfo of `apiUrlVar` (the
 * API's credentials when no key is set) masked. Returns a new object.
 */
export function stripCredentials(env: EnvironmentVariables, apiUrlVar?: string): EnvironmentVariables {
  const kept: EnvironmentVariables = {};
  for (const [name, value] of Object.entries(env)) {
    const upper = name.toUpperCase();
    if (CREDENTIAL_NAME_PARTS.some((part) => upper.includes(part))) continue;
    kept[name] = name === apiUrlVar && value !== undefined ? redactUrlCredentials(value) : value;
  }
  return kept;
}

/** The API URL variable shares the execution variable's prefix (config.ts names both from the same one). */
function apiUrlVarFor(options: LocalExecutorOptions): string | undefined {
  if (options.apiUrlVar !== undefined) return options.apiUrlVar;
  const suffix = 'MCP_EXECUTION';
  return options.executionVar?.endsWith(suffix) ? `${options.executionVar.slice(0, -suffix.length)}API_URL` : undefined;
}

export { localExecutionWarning } from './local-exec-gate.js';

/**
 * The compiled child script: next to this module, or under `runtime/` when this module is bundled into `dist/bin.js`
 * (see dev/bundle-bin.ts). Under tsx (tests, development) it is the TypeScript source.
 */
function childEntry(): { path: string; execArgv: string[] } {
  for (const relative of ['./sandbox-child.js', './runtime/sandbox-child.js']) {
    const compiled = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(compiled)) return { path: compiled, execArgv: [] };
  }
  const source = fileURLToPath(new URL('./sandbox-child.ts', import.meta.url));
  return { path: source, execArgv: process.execArgv.filter((arg) => !arg.startsWith('--max-old-space-size')) };
}

export function createLocalExecutor(options: LocalExecutorOptions): LocalExecutor {
  const heapMb = options.heapMb ?? DEFAULT_HEAP_MB;
  const apiUrlVar = apiUrlVarFor(options);
  const log = options.log;
  // A busy-looping child never notices its parent is gone, so the parent must kill what it started.
  const running = new Set<ChildProcess>();

  function run(tool: ServedTool, params: JsonObject, signal?: AbortSignal): Promise<RunOutcome> {
    const started = Date.now();
    const outcome = (failure: ToolFailure): RunOutcome => ({ ok: false, failure, durationMs: Date.now() - started });
    const source = tool.manifest.source;
    if (source === null || source === undefined || source.runtime !== 'node' || typeof source.code !== 'string') {
      return Promise.resolve(outcome(toolFailure('NO_LOCAL_SOURCE',
        `${JSON.stringify(tool.slug)} publishes no Node source, so it cannot run locally. `
        + `Set ${options.executionVar ?? 'the execution mode'} to auto or remote to run it through the API.`, { slug: tool.slug })));
    }
    if (signal?.aborted) {
      return Promise.resolve(outcome(toolFailure('CANCELLED', `${JSON.stringify(tool.slug)} was cancelled before it started.`, { cancelled: true })));
    }

    const entry = childEntry();
    return new Promise<RunOutcome>((resolve) => {
      const label = `tool ${JSON.stringify(tool.slug)}`;
      let settled = false;
      let timedOut = false;
      let cancelled = false;
      let stderrTail = '';
      let forwarded = 0;

      const child = fork(entry.path, [SANDBOX_MARKER], {
        execArgv: [...entry.execArgv, `--max-old-space-size=${heapMb}`],
        env: stripCredentials(options.env ?? process.env, apiUrlVar),
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        serialization: 'json',
      });
      running.add(child);

      const finish = (result: RunOutcome): void => {
        if (settled) return;
        settled = true;
        running.delete(child);
        clearTimeout(deadline);
        signal?.removeEventListener('abort', onAbort);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        resolve(result);
      };

      const deadline = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, options.timeoutMs);
      const onAbort = (): void => {
        cancelled = true;
        child.kill('SIGKILL');
      };
      signal?.addEventListener('abort', onAbort, { once: true });

      const forward = (stream: 'stdout' | 'stderr') => (chunk: Buffer): void => {
        const text = chunk.toString('utf8');
        if (stream === 'stderr') stderrTail = (stderrTail + text).slice(-4000);
        for (const line of text.split('\n')) {
          if (line.trim() === '') continue;
          forwarded += 1;
          if (forwarded <= MAX_FORWARDED_LINES) log(`[${label} ${stream}] ${line.slice(0, 1000)}`);
          else if (forwarded === MAX_FORWARDED_LINES + 1) log(`[${label}] further output not shown`);
        }
      };
      child.stdout?.on('data', forward('stdout'));
      child.stderr?.on('data', forward('stderr'));

      child.on('message', (message: SandboxReply) => {
        if (message.kind === 'result') {
          let result: unknown;
          try {
            result = JSON.parse(message.json);
          } catch {
            finish(outcome(toolFailure('EXECUTION_ERROR', `${label} returned a result that is not JSON.`, { slug: tool.slug })));
            return;
          }
          finish({ ok: true, result, durationMs: Date.now() - started });
        } else {
          finish(outcome(toolFailure('EXECUTION_ERROR', `Local run of ${label} failed: ${String(message.message)}`, { slug: tool.slug })));
        }
      });

      child.on('error', (error) => {
        if (timedOut || cancelled) return;
        finish(outcome(toolFailure('EXECUTION_ERROR', `Could not start a local run of ${label}: ${error.message}`, { slug: tool.slug })));
      });

      // 'close' rather than 'exit': it comes after the last IPC message and the whole of stderr have arrived.
      child.on('close', (code, exitSignal) => {
        if (timedOut) {
          finish(outcome(toolFailure('TIMEOUT',
            `Local run of ${label} did not finish within ${options.timeoutMs} ms and was killed.`, { slug: tool.slug, timeout_ms: options.timeoutMs })));
        } else if (cancelled) {
          finish(outcome(toolFailure('CANCELLED', `Local run of ${label} was cancelled by the client.`, { slug: tool.slug, cancelled: true })));
        } else if (/heap out of memory|Allocation failed/i.test(stderrTail)) {
          finish(outcome(toolFailure('EXECUTION_ERROR',
            `Local run of ${label} ran out of memory (heap cap ${heapMb} MB) and was stopped.`, { slug: tool.slug, heap_mb: heapMb })));
        } else {
          const how = exitSignal === null ? `exit code ${String(code)}` : `signal ${exitSignal}`;
          finish(outcome(toolFailure('EXECUTION_ERROR',
            `Local run of ${label} ended (${how}) without returning a result.`, { slug: tool.slug })));
        }
      });

      const request: SandboxRequest = { kind: 'run', slug: tool.slug, code: source.code, params };
      child.send(request, (error) => {
        if (error !== null && error !== undefined) log(`Could not hand ${label} its input: ${error.message}`);
      });
    });
  }

  function killAll(): void {
    for (const child of running) child.kill('SIGKILL');
    running.clear();
  }

  return { run, killAll };
}
