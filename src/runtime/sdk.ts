// The typed SDK behind a generated package's per-tool functions: validates, runs and returns a tool's result,
// sharing settings, API client, runner and validation with the server.

import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { EnvironmentVariables, ErrorCode, InputValidator, JsonObject, ServedCatalogueFile, ServedTool, ServerNames, ToolFailure } from './contracts.js';
import { toolFailure } from './contracts.js';
import { createApiClient } from './api-client.js';
import { loadServedCatalogue } from './catalogue-store.js';
import { createStderrLog, MAX_TIMEOUT_MS, onceLog, parseApiUrl, readApiKey, readSettings, type Settings } from './config.js';
import { withoutUndefinedMembers } from './json-arguments.js';
import { createLocalExecutor, localExecutionWarning } from './local-exec.js';
import { redactUrlCredentials } from './redact.js';
import { createOperationCaller } from './execution/openapi-call.js';
import { createRunner } from './runner.js';
import { createValidator } from './validation.js';

/**
 * Every option may be left out or be `undefined` (`{ apiKey: process.env.MY_KEY }` under exactOptionalPropertyTypes):
 * both mean "not set", and the setting comes from the environment.
 */
export interface CallOptions {
  /** API base; overrides `<prefix>API_URL`. A bare host means its `/api` form. */
  apiUrl?: string | undefined;
  /** API key; overrides `<prefix>API_KEY`. Surrounding whitespace is trimmed; a blank one means no key. */
  apiKey?: string | undefined;
  /** Per-request timeout; overrides `<prefix>MCP_TIMEOUT_MS`. Past 2,147,483,647 ms (about 24 days), that many. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Where the other settings are read from; process.env by default. */
  env?: EnvironmentVariables | undefined;
}

/** A failed tool call: the stable code and retryable flag of the failure envelope, as an Error. */
export class ToolCallError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details?: JsonObject;

  constructor(failure: ToolFailure) {
    super(failure.error);
    this.name = 'ToolCallError';
    this.code = failure.code;
    this.retryable = failure.retryable;
    if (failure.details !== undefined) this.details = failure.details;
  }

  toJSON(): ToolFailure {
    return toolFailure(this.code, this.message, this.details);
  }
}

export interface BoundSdk {
  invoke<TOutput>(slug: string, input: unknown, options?: CallOptions): Promise<TOutput>;
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
        const shown = callOptions.apiUrl.trim() === '' ? 'options.apiUrl is empty' : `options.apiUrl ${JSON.stringify(redactUrlCredentials(callOptions.apiUrl))} is not an http(s) URL`;
        throw new ToolCallError(toolFailure('CONFIG_ERROR', `${shown}, so no API request is sent. Give the API's http:// or https:// `
          + `URL, or leave apiUrl out to use ${settings.vars.apiUrl} (or the default ${names.defaultApiUrl}).`, { option: 'apiUrl' }));
      }
      overridden.apiUrl = apiBase.url;
      overridden.apiUrlProblem = null;
      overridden.apiBasicAuth = apiBase.basicAuth;
    }
    if (callOptions.apiKey !== undefined) {
      const key = readApiKey(callOptions.apiKey, 'options.apiKey');
      if (key.apiKeyProblem !== null) throw new ToolCallError(toolFailure('CONFIG_ERROR', key.apiKeyProblem, { option: 'apiKey' }));
      overridden.apiKey = key.apiKey;
      overridden.apiKeyProblem = null;
    }
    if (callOptions.timeoutMs !== undefined) {
      if (!Number.isSafeInteger(callOptions.timeoutMs) || callOptions.timeoutMs < 1) {
        throw new ToolCallError(toolFailure('VALIDATION_ERROR', `options.timeoutMs must be a positive whole number of milliseconds, got ${String(callOptions.timeoutMs)}.`));
      }
      // Longer than a Node.js timer can wait would fire at once: the longest wait stands for "as long as it takes".
      overridden.timeoutMs = Math.min(callOptions.timeoutMs, MAX_TIMEOUT_MS);
    }
    return overridden;
  }

  async function run<TOutput>(slug: string, input: unknown, callOptions: CallOptions): Promise<TOutput> {
    const settings = settingsFor(callOptions);
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
    if (invalid !== null) throw new ToolCallError(invalid);

    if (settings.execution !== 'remote') noteOnce(localExecutionWarning(names, settings.execution));
    const apiClient = createApiClient(names, settings, stderrLog);
    const localExecutor = createLocalExecutor({
      timeoutMs: settings.timeoutMs, log: stderrLog, env: callOptions.env ?? process.env, executionVar: settings.vars.execution,
      apiUrlVar: settings.vars.apiUrl,
    });
    const operations = createOperationCaller({ names, env: callOptions.env ?? process.env, timeoutMs: settings.timeoutMs, debug: settings.debug, log: stderrLog });
    const runner = createRunner(settings, apiClient, localExecutor, stderrLog, operations);
    const outcome = await runner.run(tool, params as JsonObject, callOptions.signal);
    if (!outcome.ok) throw new ToolCallError(outcome.failure);
    const mismatch = validator.validateOutput(tool, outcome.result);
    if (mismatch !== null) throw new ToolCallError(mismatch);
    return outcome.result as TOutput;
  }

  /** Every failure of a wrapper is a ToolCallError, so a caller can rely on `code` and `retryable`; a bug is one too. */
  async function invoke<TOutput>(slug: string, input: unknown, callOptions: CallOptions = {}): Promise<TOutput> {
    try {
      return await run<TOutput>(slug, input, callOptions);
    } catch (error) {
      if (error instanceof ToolCallError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new ToolCallError(toolFailure('EXECUTION_ERROR', `Calling ${JSON.stringify(slug)} failed unexpectedly: ${reason}`, { slug }));
    }
  }

  return { invoke };
}

/**
 * The catalogue is read from `data/` beside the package's `dist/`, found from the module's own URL. A consumer that
 * bundles the package moves that module into its bundle, where `../data/` is somewhere else: say so, and what to do.
 */
function unreadableCatalogue(names: ServerNames, url: URL, error: unknown): ToolCallError {
  const path = url.protocol === 'file:' ? fileURLToPath(url) : url.href;
  // The reason names the file already ("Cannot read the tool catalogue at …: ENOENT …").
  const reason = (error instanceof Error ? error.message : String(error)).replace(/\.?$/, '.');
  return new ToolCallError(toolFailure('CONFIG_ERROR',
    `${reason} ${names.packageName} reads it from the data/ folder beside its dist/ folder. If your app is bundled `
    + `(esbuild, webpack, rollup, …), keep ${names.packageName} external to the bundle (esbuild: --external:${names.packageName}) `
    + `so it loads from node_modules, or ship the package's data/ folder so that it sits at ${dirname(path)}; `
    + 'otherwise reinstall the package.',
    { path }));
}
