// Opt-in local execution: runs a tool's published source in its own child process under Node's permission model, with
// a deadline that kills its whole process tree, a heap cap and a resident-memory cap, a bounded queue in front, no
// access to our stdout, and an environment stripped of credentials.

import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DiagnosticLog, EnvironmentVariables, JsonObject, RunOutcome, ServedTool, ToolFailure } from '../shared/contracts.js';
import { toolFailure } from '../shared/contracts.js';
import { sandboxFlags } from './child-flags.js';
import {
  DEFAULT_LOCAL_CONCURRENCY,
  DEFAULT_LOCAL_MEMORY_MB,
  DEFAULT_LOCAL_QUEUE,
  localLimitVars,
  type LocalLimits,
} from './local-limits.js';
import { watchMemory } from './memory-watch.js';
import { killProcessTree } from './process-group.js';
import { createRunQueue } from './run-queue.js';
import { isCredentialVariable } from '../secrets/classifier.js';
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
  /** Runs at once, calls waiting, resident memory per child; the defaults of execution/local-limits.ts otherwise. */
  limits?: Partial<LocalLimits>;
  /** The environment the child inherits, before credentials are stripped; process.env by default. */
  env?: EnvironmentVariables;
  /** Name of the variable that chooses the execution mode, for error messages. */
  executionVar?: string;
  /** Kept for callers that name the API URL variable; a URL with credentials is stripped like any other (see below). */
  apiUrlVar?: string;
}

export const DEFAULT_HEAP_MB = 128;

/** Lines of child output forwarded to stderr per run; beyond that a tool could flood the server's log. */
const MAX_FORWARDED_LINES = 50;
/** How long past the deadline a child stops a busy loop itself, for when the parent that kills it is gone. */
const SELF_DEADLINE_GRACE_MS = 1000;
/** How long after the child exits its stderr may still be read (to tell an out-of-memory death); a grandchild holding the pipe does not hold the answer longer. */
const EXIT_GRACE_MS = 200;

/**
 * The environment minus every variable that carries a credential, by name (`STRIPE_SECRET_KEY`, `DB_PASS`, `GH_PAT`,
 * `SENTRY_DSN`) or by value (`DATABASE_URL=postgres://u:pw@h`, a proxy URL with userinfo): the one classifier of
 * secrets/classifier.ts, which history redaction uses too. Returns a new object.
 */
export function stripCredentials(env: EnvironmentVariables, _apiUrlVar?: string): EnvironmentVariables {
  const kept: EnvironmentVariables = {};
  for (const [name, value] of Object.entries(env)) {
    if (!isCredentialVariable(name, value)) kept[name] = value;
  }
  return kept;
}

let entryPath: Promise<string> | undefined;

/**
 * The compiled child script: next to this module, or under `runtime/` when this module is bundled into `dist/bin.js`
 * (see dev/bundle-bin.ts). Under tsx (tests, development) only the TypeScript source exists; it is transpiled once into
 * a file of its own, so the child starts without a loader and under exactly the flags a built package uses.
 */
function childEntry(): Promise<string> {
  entryPath ??= (async () => {
    for (const relative of ['./sandbox-child.js', './runtime/execution/sandbox-child.js']) {
      const compiled = fileURLToPath(new URL(relative, import.meta.url));
      if (existsSync(compiled)) return compiled;
    }
    const source = readFileSync(fileURLToPath(new URL('./sandbox-child.ts', import.meta.url)), 'utf8');
    const target = join(tmpdir(), `nexusbloom-sandbox-child-${createHash('sha256').update(source).digest('hex').slice(0, 16)}.mjs`);
    if (!existsSync(target)) {
      // A specifier esbuild cannot follow: the bundled bin must not carry esbuild, which a built package never needs here.
      const transpiler = 'esbuild';
      const { transform } = (await import(transpiler)) as typeof import('esbuild');
      const { code } = await transform(source, { loader: 'ts', format: 'esm', target: 'node20' });
      const partial = `${target}.${process.pid}.tmp`;
      writeFileSync(partial, code);
      renameSync(partial, target);
    }
    return target;
  })();
  return entryPath;
}

export function createLocalExecutor(options: LocalExecutorOptions): LocalExecutor {
  const heapMb = options.heapMb ?? DEFAULT_HEAP_MB;
  const limits = options.limits ?? {};
  const vars = limits.vars ?? localLimitVars(options.executionVar?.replace(/MCP_EXECUTION$/, '') ?? '');
  const memoryMb = limits.memoryMb ?? DEFAULT_LOCAL_MEMORY_MB;
  const concurrency = limits.concurrency ?? DEFAULT_LOCAL_CONCURRENCY;
  const queueLimit = limits.queueLimit ?? DEFAULT_LOCAL_QUEUE;
  const queue = createRunQueue(concurrency, queueLimit);
  const log = options.log;
  // A busy-looping child never notices its parent is gone, so the parent must kill what it started.
  const running = new Set<ChildProcess>();

  async function run(tool: ServedTool, params: JsonObject, signal?: AbortSignal): Promise<RunOutcome> {
    const started = Date.now();
    const outcome = (failure: ToolFailure): RunOutcome => ({ ok: false, failure, durationMs: Date.now() - started });
    const source = tool.manifest.source;
    if (source === null || source === undefined || source.runtime !== 'node' || typeof source.code !== 'string') {
      return outcome(
        toolFailure(
          'NO_LOCAL_SOURCE',
          `${JSON.stringify(tool.slug)} publishes no Node source, so it cannot run locally. ` +
            `Set ${options.executionVar ?? 'the execution mode'} to auto or remote to run it through the API.`,
          { slug: tool.slug },
        ),
      );
    }
    if (signal?.aborted) {
      return outcome(toolFailure('CANCELLED', `${JSON.stringify(tool.slug)} was cancelled before it started.`, { cancelled: true }));
    }
    const release = await queue.acquire(signal);
    if (release === null) {
      if (signal?.aborted) {
        return outcome(
          toolFailure('CANCELLED', `${JSON.stringify(tool.slug)} was cancelled while waiting for a local run slot.`, { cancelled: true }),
        );
      }
      return outcome(
        toolFailure(
          'RATE_LIMITED',
          `Too many local runs at once: ${concurrency} running and ${queueLimit} waiting, so ${JSON.stringify(tool.slug)} was not started. ` +
            `Retry when earlier calls have finished, or raise ${vars.concurrency} / ${vars.queueLimit}.`,
          { slug: tool.slug, concurrency, queue_limit: queueLimit },
        ),
      );
    }
    try {
      return await runChild(tool, source.code, params, await childEntry(), started, signal);
    } finally {
      release();
    }
  }

  function runChild(
    tool: ServedTool,
    code: string,
    params: JsonObject,
    entry: string,
    started: number,
    signal?: AbortSignal,
  ): Promise<RunOutcome> {
    const outcome = (failure: ToolFailure): RunOutcome => ({ ok: false, failure, durationMs: Date.now() - started });
    return new Promise<RunOutcome>((resolve) => {
      const label = `tool ${JSON.stringify(tool.slug)}`;
      let settled = false;
      let stderrTail = '';
      let forwarded = 0;
      let exitGrace: NodeJS.Timeout | undefined;

      const child = fork(entry, [SANDBOX_MARKER], {
        execArgv: sandboxFlags(entry, heapMb),
        env: stripCredentials(options.env ?? process.env),
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        serialization: 'json',
        // Its own process group, so a deadline kills whatever it started along with it.
        detached: true,
      });
      running.add(child);

      // Every ending answers at once and kills the whole group: nothing the tool started can hold the answer back.
      const finish = (result: RunOutcome): void => {
        if (settled) return;
        settled = true;
        running.delete(child);
        clearTimeout(deadline);
        clearTimeout(exitGrace);
        memory?.stop();
        signal?.removeEventListener('abort', onAbort);
        killProcessTree(child);
        child.stdout?.destroy();
        child.stderr?.destroy();
        resolve(result);
      };

      const deadline = setTimeout(() => {
        finish(
          outcome(
            toolFailure('TIMEOUT', `Local run of ${label} did not finish within ${options.timeoutMs} ms and was killed.`, {
              slug: tool.slug,
              timeout_ms: options.timeoutMs,
            }),
          ),
        );
      }, options.timeoutMs);
      const onAbort = (): void => {
        finish(
          outcome(toolFailure('CANCELLED', `Local run of ${label} was cancelled by the client.`, { slug: tool.slug, cancelled: true })),
        );
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      // The heap cap leaves Buffers and other memory outside the V8 heap uncounted; the resident set counts them all.
      const memory =
        child.pid === undefined
          ? undefined
          : watchMemory(child.pid, memoryMb * 1024 * 1024, (bytes) => {
              finish(
                outcome(
                  toolFailure(
                    'EXECUTION_ERROR',
                    `Local run of ${label} used more than ${memoryMb} MB of memory (${Math.round(bytes / 1048576)} MB resident, Buffers included) ` +
                      `and was killed. Raise ${vars.memoryMb} if the tool needs more.`,
                    { slug: tool.slug, memory_mb: memoryMb },
                  ),
                ),
              );
            });

      const forward =
        (stream: 'stdout' | 'stderr') =>
        (chunk: Buffer): void => {
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
        finish(outcome(toolFailure('EXECUTION_ERROR', `Could not start a local run of ${label}: ${error.message}`, { slug: tool.slug })));
      });

      const exited = (code: number | null, exitSignal: NodeJS.Signals | null): void => {
        if (/heap out of memory|Allocation failed/i.test(stderrTail)) {
          finish(
            outcome(
              toolFailure('EXECUTION_ERROR', `Local run of ${label} ran out of memory (heap cap ${heapMb} MB) and was stopped.`, {
                slug: tool.slug,
                heap_mb: heapMb,
              }),
            ),
          );
        } else {
          const how = exitSignal === null ? `exit code ${String(code)}` : `signal ${exitSignal}`;
          finish(
            outcome(
              toolFailure('EXECUTION_ERROR', `Local run of ${label} ended (${how}) without returning a result.`, { slug: tool.slug }),
            ),
          );
        }
      };
      // 'close' comes after the last IPC message and the whole of stderr; a grandchild that kept the pipes open would
      // delay it indefinitely, so 'exit' starts a short grace instead of waiting for it.
      child.on('close', exited);
      child.on('exit', (code, exitSignal) => {
        exitGrace = setTimeout(() => exited(code, exitSignal), EXIT_GRACE_MS);
      });

      const request: SandboxRequest = {
        kind: 'run',
        slug: tool.slug,
        code,
        params,
        selfDeadlineMs: Math.min(options.timeoutMs + SELF_DEADLINE_GRACE_MS, 2_147_483_647),
      };
      child.send(request, (error) => {
        if (error !== null && error !== undefined && !settled) log(`Could not hand ${label} its input: ${error.message}`);
      });
    });
  }

  function killAll(): void {
    for (const child of running) killProcessTree(child);
    running.clear();
  }

  return { run, killAll };
}
