// Runs a catalogue tool's CommonJS source text (`module.exports.run(params)`) in a fresh node:vm context.
// Used by the mock API, which plays the tool itself. A vm context is isolation of globals, not a security
// sandbox: only run sources you would run anyway.

import { Buffer } from 'node:buffer';
import { createRequire, isBuiltin } from 'node:module';
import vm from 'node:vm';
import type { DiagnosticLog, JsonObject } from '../shared/contracts.js';

export interface ToolSourceOptions {
  /** Deadline for loading the module plus one run, synchronous and asynchronous parts together. */
  timeoutMs: number;
  /** Shown in stack traces of the tool's code, e.g. `nexusbloom-tool:env-validator.js`. */
  filename?: string;
  /** Where the tool's `console.*` goes; stdout is never used. Silent when absent. */
  log?: DiagnosticLog;
}

export type ToolSourceFailureKind = 'load' | 'no-run' | 'thrown' | 'timeout';

/** Why a tool source did not produce a result; `message` is the tool's own message when it threw. */
export class ToolSourceError extends Error {
  readonly kind: ToolSourceFailureKind;

  constructor(kind: ToolSourceFailureKind, message: string) {
    super(message);
    this.name = 'ToolSourceError';
    this.kind = kind;
  }
}

const moduleWrapperParameters = ['exports', 'require', 'module', '__filename', '__dirname'];

/**
 * Loads `code` as a CommonJS module in a new context and calls its `run(params)`. Resolves with the
 * result (a promise result is awaited, `undefined` becomes `null`); rejects with a ToolSourceError.
 * Each call gets a new context, so no state survives between runs, as with a stateless API.
 */
export async function runToolSource(code: string, params: JsonObject, options: ToolSourceOptions): Promise<unknown> {
  const filename = options.filename ?? 'nexusbloom-tool.js';
  const startedAt = Date.now();
  const remainingMs = (): number => Math.max(1, options.timeoutMs - (Date.now() - startedAt));
  const moduleRecord = { exports: {} as unknown };
  const context = vm.createContext(toolGlobals(options.log));

  let loadModule: ReturnType<typeof vm.compileFunction>;
  try {
    loadModule = vm.compileFunction(code, moduleWrapperParameters, { filename, parsingContext: context });
  } catch (error) {
    throw new ToolSourceError('load', `The tool source does not compile: ${messageOf(error)}`);
  }
  // Calls go through a script run in the context so that vm's `timeout` also bounds the tool's synchronous code.
  Object.assign(context, {
    __nexusbloomLoad: () => loadModule(moduleRecord.exports, requireBuiltin, moduleRecord, filename, '.'),
    __nexusbloomModule: moduleRecord,
    __nexusbloomParamsJson: JSON.stringify(params),
  });
  runScript('__nexusbloomLoad()', context, remainingMs(), options.timeoutMs, 'load');

  const exported = moduleRecord.exports as { run?: unknown } | null;
  if (exported === null || (typeof exported !== 'object' && typeof exported !== 'function') || typeof exported.run !== 'function') {
    throw new ToolSourceError('no-run', 'The tool source does not export a run(params) function');
  }
  // Params are re-parsed inside the context so the tool sees objects of its own realm.
  const returned = runScript(
    '__nexusbloomModule.exports.run(JSON.parse(__nexusbloomParamsJson))',
    context,
    remainingMs(),
    options.timeoutMs,
    'thrown',
  );
  const result = await settleWithin(returned, remainingMs(), options.timeoutMs);
  return result === undefined ? null : result;
}

function runScript(source: string, context: vm.Context, remainingMs: number, totalMs: number, failureKind: ToolSourceFailureKind): unknown {
  try {
    return new vm.Script(source).runInContext(context, { timeout: remainingMs });
  } catch (error) {
    if (isScriptTimeout(error)) throw new ToolSourceError('timeout', timeoutMessage(totalMs));
    throw new ToolSourceError(failureKind, messageOf(error));
  }
}

async function settleWithin(value: unknown, remainingMs: number, totalMs: number): Promise<unknown> {
  if (!isThenable(value)) return value;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ToolSourceError('timeout', timeoutMessage(totalMs))), remainingMs);
  });
  try {
    return await Promise.race([Promise.resolve(value), deadline]);
  } catch (error) {
    if (error instanceof ToolSourceError) throw error;
    throw new ToolSourceError('thrown', messageOf(error));
  } finally {
    clearTimeout(timer);
  }
}

function requireBuiltin(specifier: unknown): unknown {
  if (typeof specifier !== 'string' || !isBuiltin(specifier)) {
    throw new Error(`Cannot require ${JSON.stringify(specifier)}: catalogue tool sources may only use node built-ins`);
  }
  return builtinRequire(specifier);
}

// process.getBuiltinModule is Node 22+; on Node 20 a CommonJS require of this module loads built-ins.
const builtinRequire = createRequire(import.meta.url);

function toolGlobals(log: DiagnosticLog | undefined): Record<string, unknown> {
  const write = (...args: unknown[]): void => {
    if (log) log(args.map((arg) => (typeof arg === 'string' ? arg : safeJson(arg))).join(' '));
  };
  const console = { log: write, info: write, warn: write, error: write, debug: write, trace: write };
  return {
    Buffer,
    URL,
    URLSearchParams,
    TextEncoder,
    TextDecoder,
    AbortController,
    AbortSignal,
    atob,
    btoa,
    structuredClone,
    queueMicrotask,
    setTimeout,
    clearTimeout,
    setImmediate,
    clearImmediate,
    console,
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}

function isScriptTimeout(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}

function timeoutMessage(timeoutMs: number): string {
  return `The tool did not finish within ${timeoutMs} ms`;
}

/** The message of an error from any realm (errors thrown in a vm context are not `instanceof Error` here). */
export function messageOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  return String(error);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
