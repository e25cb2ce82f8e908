// The typed SDK behind a generated package's per-tool functions: validates, runs and returns a tool's result,
// sharing settings, API client, runner and validation with the server.

import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import type {
  EnvironmentVariables,
  ErrorCode,
  InputValidator,
  JsonObject,
  ServedCatalogueFile,
  ServedTool,
  ServerNames,
  ToolFailure,
} from '../shared/contracts.js';
import { toolFailure } from '../shared/contracts.js';
import { createApiClient } from './api-client.js';
import { loadServedCatalogue } from '../catalogue/catalogue-store.js';
import { createStderrLog, MAX_TIMEOUT_MS, onceLog, parseApiUrl, readApiKey, readSettings, type Settings } from '../settings/config.js';
import { withoutUndefinedMembers } from '../schema/json-arguments.js';
import { createLocalExecutor } from './local-exec.js';
import { localExecutionWarning } from './local-exec-gate.js';
import { redactUrlCredentials } from '../secrets/redact.js';
import { createOperationCaller } from './openapi-call.js';
import { createRunner } from './runner.js';
import { createValidator } from '../schema/validation.js';
import type { FetchLike } from './api-transport.js';
import { retryPolicy, retrySettingProblem, type RetrySetting } from './retry.js';
import { isJsonObject } from '../shared/json-values.js';

/**
 * How the typed wrappers call the API. Every option may be left out or be `undefined` (`{ apiKey: process.env.MY_KEY }`
 * under exactOptionalPropertyTypes): both mean "not set", and the setting comes from the client, else the environment.
 */
export interface ClientOptions {
  /** API base; overrides `<prefix>API_URL`. A bare host means its `/api` form. */
  apiUrl?: string | undefined;
  /** API key; overrides `<prefix>API_KEY`. Surrounding whitespace is trimmed; a blank one means no key. */
  apiKey?: string | undefined;
  /** Per-attempt timeout; overrides `<prefix>MCP_TIMEOUT_MS`. Past 2,147,483,647 ms (about 24 days), that many. */
  timeoutMs?: number | undefined;
  /**
   * Retries of a failed run (429, 5xx, a reset connection, a timeout), with exponential backoff and jitter. By default 2,
   * and only for tools annotated read-only or idempotent (`{ tools: "always" }` for every tool); `false` or 0: none.
   */
  retries?: RetrySetting;
  /** Sends requests through this fetch instead of node:http (proxies, tracing, tests). */
  fetch?: FetchLike | undefined;
  /** Cancels the call (a client's signal cancels every call it makes). */
  signal?: AbortSignal | undefined;
  /** Headers sent with every request; per-call headers add to the client's. */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Where the other settings are read from; process.env by default. */
  env?: EnvironmentVariables | undefined;
}

/** Per-call options: the same as a client's, overriding them for one call. */
export type CallOptions = ClientOptions;

/** The stable error codes a wrapper may throw. */
export type ToolCallErrorCode = ErrorCode;

/**
 * A failed tool call: the stable code and retryable flag of the failure envelope, as an Error. `code` narrows it:
 * `if (error instanceof ToolCallError && error.is("VALIDATION_ERROR")) error.pointer`.
 */
export class ToolCallError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  /** Whether calling again may succeed (after the automatic retries, when there were any). */
  readonly retryable: boolean;
  /** The HTTP status the API answered with, when it answered. */
  readonly status: number | undefined;
  /** The tool's slug, when the failure is about one tool. */
  readonly slug: string | undefined;
  /** For a validation failure: the JSON pointer of the first offending field (`/items/0/name`). */
  readonly pointer: string | undefined;
  /** How many times the call was sent (1 unless it was retried). */
  readonly attempts: number;
  readonly details?: JsonObject;

  constructor(failure: ToolFailure & { code: C }, slug?: string) {
    super(failure.error);
    this.name = 'ToolCallError';
    this.code = failure.code;
    this.retryable = failure.retryable;
    const details = failure.details;
    this.status = typeof details?.status === 'number' ? details.status : undefined;
    this.slug = slug ?? (typeof details?.slug === 'string' ? details.slug : undefined);
    const first = Array.isArray(details?.errors) ? details.errors[0] : undefined;
    this.pointer = isJsonObject(first) && typeof first.pointer === 'string' ? first.pointer : undefined;
    this.attempts = typeof details?.attempts === 'number' ? details.attempts : 1;
    if (details !== undefined) this.details = details;
  }

  /** Whether this failure has `code`, narrowing the error to it. */
  is<K extends ErrorCode>(code: K): this is ToolCallError<K> {
    return (this.code as ErrorCode) === code;
  }

  toJSON(): ToolFailure {
    return toolFailure(this.code, this.message, this.details);
  }
}

/** A ToolCallError as a union by `code`, for a `switch (error.code)` that narrows the error in each case. */
export type AnyToolCallError = { [K in ErrorCode]: ToolCallError<K> }[ErrorCode];

export interface BoundSdk {
  invoke<TOutput>(slug: string, input: unknown, options?: CallOptions): Promise<TOutput>;
  /** The same SDK with `options` under every call's own (a client). */
  withOptions(options: ClientOptions): BoundSdk;
}

export interface BindSdkOptions {
  names: ServerNames;
  catalogueUrl: URL;
}

export function bindSdk(options: BindSdkOptions): BoundSdk {
  const { names } = options;
  const stderrLog = createStderrLog(names.packageName);
  // Settings notes and the local-execution warning belong once per process, not once per call.
  const noteOnce = onceLog(stderrLog);
  let validator: InputValidator | undefined;
  let catalogue: Promise<ServedCatalogueFile> | undefined;

  function loadCatalogue(): Promise<ServedCatalogueFile> {
    if (catalogue === undefined) {
      catalogue = loadServedCatalogue(options.catalogueUrl).catch((error: unknown) => {
        // A failed read is not cached, so a later call can succeed once the file is there.
        catalogue = undefined;
        throw unreadableCatalogue(names, options.catalogueUrl, error);
      });
    }
    return catalogue;
  }

  function settingsFor(callOptions: CallOptions): Settings {
    const settings = readSettings(names, callOptions.env ?? process.env, noteOnce);
    const overridden: Settings = { ...settings };
    // An option set to undefined is not set (CallOptions); only a value given overrides the environment.
    if (callOptions.apiUrl !== undefined) {
      const apiBase = parseApiUrl(callOptions.apiUrl.trim());
      if (apiBase === null) {
        const shown =
          callOptions.apiUrl.trim() === ''
            ? 'options.apiUrl is empty'
            : `options.apiUrl ${JSON.stringify(redactUrlCredentials(callOptions.apiUrl))} is not an http(s) URL`;
        throw new ToolCallError(
          toolFailure(
            'CONFIG_ERROR',
            `${shown}, so no API request is sent. Give the API's http:// or https:// ` +
              `URL, or leave apiUrl out to use ${settings.vars.apiUrl} (or the default ${names.defaultApiUrl}).`,
            { option: 'apiUrl' },
          ),
        );
      }
      overridden.apiUrl = apiBase.url;
      overridden.apiUrlProblem = null;
      overridden.apiBasicAuth = apiBase.basicAuth;
      // Messages advise fixing the setting that was used: the option, not the environment variable.
      overridden.vars = { ...overridden.vars, apiUrl: 'options.apiUrl' };
    }
    if (callOptions.apiKey !== undefined) {
      const key = readApiKey(callOptions.apiKey, 'options.apiKey');
      if (key.apiKeyProblem !== null) throw new ToolCallError(toolFailure('CONFIG_ERROR', key.apiKeyProblem, { option: 'apiKey' }));
      overridden.apiKey = key.apiKey;
      overridden.apiKeyProblem = null;
      overridden.vars = { ...overridden.vars, apiKey: 'options.apiKey' };
    }
    if (callOptions.timeoutMs !== undefined) {
      if (!Number.isSafeInteger(callOptions.timeoutMs) || callOptions.timeoutMs < 1) {
        throw new ToolCallError(
          toolFailure(
            'VALIDATION_ERROR',
            `options.timeoutMs must be a positive whole number of milliseconds, got ${String(callOptions.timeoutMs)}.`,
          ),
        );
      }
      // Longer than a Node.js timer can wait would fire at once: the longest wait stands for "as long as it takes".
      overridden.timeoutMs = Math.min(callOptions.timeoutMs, MAX_TIMEOUT_MS);
      overridden.vars = { ...overridden.vars, timeoutMs: 'options.timeoutMs' };
    }
    return overridden;
  }

  async function run<TOutput>(slug: string, input: unknown, clientOptions: ClientOptions, ownOptions: CallOptions): Promise<TOutput> {
    const callOptions = mergedOptions(clientOptions, ownOptions);
    const settings = settingsFor(callOptions);
    for (const setting of [clientOptions.retries, ownOptions.retries]) {
      const problem = retrySettingProblem(setting, 'options.retries');
      if (problem !== null) throw new ToolCallError(toolFailure('CONFIG_ERROR', `${problem}.`, { option: 'retries' }), slug);
    }
    const served = await loadCatalogue();
    const tool: ServedTool | undefined = served.tools.find((candidate) => candidate.slug === slug);
    if (tool === undefined) {
      throw new ToolCallError(toolFailure('TOOL_NOT_FOUND', `${names.packageName} has no tool ${JSON.stringify(slug)}.`, { slug }));
    }
    validator ??= createValidator(noteOnce);
    // `undefined` members are dropped as JSON would drop them, into a copy: the caller's input is never changed.
    const asJson = withoutUndefinedMembers(input === undefined || input === null ? {} : input, slug);
    if (!asJson.ok) throw new ToolCallError(asJson.failure);
    const params = asJson.value;
    const invalid = validator.validateInput(tool, params);
    if (invalid !== null) throw new ToolCallError(invalid, slug);

    if (settings.execution !== 'remote') noteOnce(localExecutionWarning(names, settings.execution));
    const apiClient = createApiClient(names, settings, stderrLog, { fetch: callOptions.fetch, headers: callOptions.headers });
    const retry = { policy: retryPolicy(clientOptions.retries, ownOptions.retries, tool.manifest.annotations) };
    // The server's runner, with this call's retries: only the SDK retries on its own, the server leaves that to its client.
    const retryingClient: typeof apiClient = {
      ...apiClient,
      runTool: (toolSlug, toolParams, signal) => apiClient.runTool(toolSlug, toolParams, signal, retry),
    };
    const localExecutor = createLocalExecutor({
      timeoutMs: settings.timeoutMs,
      log: stderrLog,
      env: callOptions.env ?? process.env,
      executionVar: settings.vars.execution,
      apiUrlVar: settings.vars.apiUrl,
    });
    const operations = createOperationCaller({
      names,
      env: callOptions.env ?? process.env,
      timeoutMs: settings.timeoutMs,
      debug: settings.debug,
      log: stderrLog,
    });
    const runner = createRunner(settings, retryingClient, localExecutor, stderrLog, operations);
    const outcome = await runner.run(tool, params as JsonObject, callOptions.signal);
    if (!outcome.ok) throw new ToolCallError(outcome.failure, slug);
    const mismatch = validator.validateOutput(tool, outcome.result);
    if (mismatch !== null) throw new ToolCallError(mismatch, slug);
    return outcome.result as TOutput;
  }

  /** Every failure of a wrapper is a ToolCallError, so a caller can rely on `code` and `retryable`; a bug is one too. */
  function bound(clientOptions: ClientOptions): BoundSdk {
    async function invoke<TOutput>(slug: string, input: unknown, callOptions: CallOptions = {}): Promise<TOutput> {
      try {
        return await run<TOutput>(slug, input, clientOptions, callOptions);
      } catch (error) {
        if (error instanceof ToolCallError) throw error;
        const reason = error instanceof Error ? error.message : String(error);
        throw new ToolCallError(
          toolFailure('EXECUTION_ERROR', `Calling ${JSON.stringify(slug)} failed unexpectedly: ${reason}`, { slug }),
          slug,
        );
      }
    }
    return { invoke, withOptions: (options) => bound(mergedOptions(clientOptions, options)) };
  }

  return bound({});
}

/**
 * A call's options over its client's: a value set wins, `undefined` leaves the client's; headers add up, and either
 * signal cancels the call. (Retries are merged field by field where the policy is decided, see retryPolicy.)
 */
export function mergedOptions(client: ClientOptions, call: CallOptions): ClientOptions {
  const merged: ClientOptions = { ...client };
  for (const [key, value] of Object.entries(call) as Array<[keyof ClientOptions, unknown]>) {
    if (value !== undefined) Object.assign(merged, { [key]: value });
  }
  if (client.headers !== undefined && call.headers !== undefined) merged.headers = { ...client.headers, ...call.headers };
  if (client.signal !== undefined && call.signal !== undefined && client.signal !== call.signal)
    merged.signal = anySignal([client.signal, call.signal]);
  return merged;
}

/** A signal that aborts when any of `signals` does (AbortSignal.any, Node 20.3+). */
function anySignal(signals: AbortSignal[]): AbortSignal {
  return (AbortSignal as unknown as { any(signals: AbortSignal[]): AbortSignal }).any(signals);
}

/**
 * The catalogue is read from `data/` beside the package's `dist/`, found from the module's own URL. A consumer that
 * bundles the package moves that module into its bundle, where `../data/` is somewhere else: say so, and what to do.
 */
function unreadableCatalogue(names: ServerNames, url: URL, error: unknown): ToolCallError {
  const path = url.protocol === 'file:' ? fileURLToPath(url) : url.href;
  // The reason names the file already ("Cannot read the tool catalogue at …: ENOENT …").
  const reason = (error instanceof Error ? error.message : String(error)).replace(/\.?$/, '.');
  return new ToolCallError(
    toolFailure(
      'CONFIG_ERROR',
      `${reason} ${names.packageName} reads it from the data/ folder beside its dist/ folder. If your app is bundled ` +
        `(esbuild, webpack, rollup, …), keep ${names.packageName} external to the bundle (esbuild: --external:${names.packageName}) ` +
        `so it loads from node_modules, or ship the package's data/ folder so that it sits at ${dirname(path)}; ` +
        'otherwise reinstall the package.',
      { path },
    ),
  );
}
