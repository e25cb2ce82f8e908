// Entry point of the child process local execution forks: evaluates one tool's CommonJS source, runs it once, and
// answers over IPC. It acts only when started by local-exec.ts (IPC channel plus the marker argument).

import { createRequire } from 'node:module';
import { join } from 'node:path';
import { compileFunction, Script } from 'node:vm';

export const SANDBOX_MARKER = '--nexusbloom-sandbox';

/** What the parent sends: one run. */
export interface SandboxRequest {
  kind: 'run';
  slug: string;
  code: string;
  params: unknown;
  /**
   * How long the tool's synchronous code may run before this process stops it itself: a little past the parent's own
   * deadline, so a busy loop ends even when the parent that would have killed it is gone.
   */
  selfDeadlineMs?: number;
}

/** What the child answers: the result as JSON text, or why there is none. */
export type SandboxReply = { kind: 'result'; json: string } | { kind: 'error'; message: string };

export function runSandboxChild(): void {
  // Taken before any tool code runs, so a tool that replaces process.send or process.exit cannot intercept the reply.
  const send = process.send?.bind(process);
  const exit = process.exit.bind(process);
  if (send === undefined) return;
  let replied = false;

  const reply = (message: SandboxReply): void => {
    if (replied) return;
    replied = true;
    send(message, undefined, {}, () => exit(0));
  };

  // When the parent goes away there is no one to answer; a child waiting on I/O ends here rather than lingering.
  process.on('disconnect', () => exit(1));
  process.on('uncaughtException', (error) => reply({ kind: 'error', message: `uncaught ${describeThrown(error)}` }));
  process.on('unhandledRejection', (reason) => reply({ kind: 'error', message: `unhandled rejection: ${describeThrown(reason)}` }));

  process.once('message', (message: SandboxRequest) => {
    void runTool(message).then(reply);
  });
}

/** The global a guarded call goes through; V8 can interrupt a script it runs, not a function called directly. */
const GUARDED_CALL = '__nexusbloomGuardedCall';
let guardedScript: Script | undefined;

/** Runs `body` and stops it (throwing ERR_SCRIPT_EXECUTION_TIMEOUT) if its synchronous part outlasts `timeoutMs`. */
function guarded<T>(body: () => T, timeoutMs: number | undefined): T {
  if (timeoutMs === undefined) return body();
  const slot = globalThis as unknown as Record<string, unknown>;
  slot[GUARDED_CALL] = body;
  try {
    guardedScript ??= new Script(`globalThis.${GUARDED_CALL}()`);
    return guardedScript.runInThisContext({ timeout: timeoutMs }) as T;
  } finally {
    delete slot[GUARDED_CALL];
  }
}

async function runTool(request: SandboxRequest): Promise<SandboxReply> {
  const filename = join(process.cwd(), `${encodeURIComponent(request.slug)}.tool.cjs`);
  const module: { exports: unknown } = { exports: {} };
  const started = Date.now();
  const left = (): number | undefined =>
    request.selfDeadlineMs === undefined ? undefined : Math.max(1, request.selfDeadlineMs - (Date.now() - started));
  let run: unknown;
  try {
    // The whole point of local execution is to evaluate this source; it arrives as data over IPC, never in argv.
    const factory = compileFunction(request.code, ['exports', 'require', 'module', '__filename', '__dirname'], { filename });
    guarded(() => factory.call(module.exports, module.exports, createRequire(filename), module, filename, process.cwd()), left());
    run = pickRun(module.exports);
  } catch (error) {
    return { kind: 'error', message: `its source failed to load: ${describeThrown(error)}` };
  }
  if (typeof run !== 'function') return { kind: 'error', message: 'its source does not export a run(params) function' };

  let result: unknown;
  try {
    result = await guarded(() => (run as (params: unknown) => unknown)(request.params), left());
  } catch (error) {
    return { kind: 'error', message: `it threw ${describeThrown(error)}` };
  }
  try {
    return { kind: 'result', json: JSON.stringify(result === undefined ? null : result) };
  } catch (error) {
    return { kind: 'error', message: `its result is not JSON-serialisable (${describeThrown(error)})` };
  }
}

function pickRun(exports: unknown): unknown {
  if (typeof exports !== 'object' && typeof exports !== 'function') return undefined;
  if (exports === null) return undefined;
  const direct = (exports as { run?: unknown }).run;
  if (direct !== undefined) return direct;
  const viaDefault = (exports as { default?: { run?: unknown } }).default;
  return typeof viaDefault === 'object' && viaDefault !== null ? viaDefault.run : undefined;
}

function describeThrown(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return `a non-Error value (${typeof value}): ${text.slice(0, 500)}`;
}

if (process.argv.includes(SANDBOX_MARKER) && typeof process.send === 'function') runSandboxChild();
