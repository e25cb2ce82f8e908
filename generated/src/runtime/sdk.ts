// The typed SDK behind a generated package's per-tool functions: validates, runs and returns a tool's result,
// sharing settings, API client, runner and validation with the server.

import type { ErrorCode, InputValidator, JsonObject, ServedCatalogueFile, ServedTool, ServerNames, ToolFailure } from './contracts.js';
import { toolFailure } from './contracts.js';
import { createApiClient } from './api-client.js';
import { loadServedCatalogue } from './catalogue-store.js';
import { createStderrLog, onceLog, parseApiUrl, readSettings, type Settings } from './config.js';
import { createLocalExecutor, localExecutionWarning } from './local-exec.js';
import { redactUrlCredentials } from './redact.js';
import { createRunner } from './runner.js';
import { createValidator } from './validation.js';

export interface CallOptions {
  /** API base; overrides `<prefix>API_URL`. A bare host means its `/api` form. */
  apiUrl?: string;
  /** API key; overrides `<prefix>API_KEY`. */
  apiKey?: string;
  /** Per-request timeout; overrides `<prefix>MCP_TIMEOUT_MS`. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Where the other settings are read from; process.env by default. */
  env?: NodeJS.ProcessEnv;
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
      catalogue = loadServedCatalogue(options.catalogueUrl);
      // A failed read is not cached, so a later call can succeed once the file is there.
      catalogue.catch(() => {
        catalogue = undefined;
      });
    }
    return catalogue;
  }

  function settingsFor(callOptions: CallOptions): Settings {
    const settings = readSettings(names, callOptions.env ?? process.env, noteOnce);
    const overridden: Settings = { ...settings };
    if (callOptions.apiUrl !== undefined) {
      const apiBase = parseApiUrl(callOptions.apiUrl);
      if (apiBase === null) {
        throw new ToolCallError(toolFailure('VALIDATION_ERROR', `options.apiUrl ${JSON.stringify(redactUrlCredentials(callOptions.apiUrl))} is not an http(s) URL.`));
      }
      overridden.apiUrl = apiBase.url;
      overridden.apiUrlProblem = null;
      overridden.apiBasicAuth = apiBase.basicAuth;
    }
    if (callOptions.apiKey !== undefined) overridden.apiKey = callOptions.apiKey === '' ? null : callOptions.apiKey;
    if (callOptions.timeoutMs !== undefined) {
      if (!Number.isSafeInteger(callOptions.timeoutMs) || callOptions.timeoutMs < 1) {
        throw new ToolCallError(toolFailure('VALIDATION_ERROR', `options.timeoutMs must be a positive whole number of milliseconds, got ${String(callOptions.timeoutMs)}.`));
      }
      overridden.timeoutMs = callOptions.timeoutMs;
    }
    return overridden;
  }

  async function invoke<TOutput>(slug: string, input: unknown, callOptions: CallOptions = {}): Promise<TOutput> {
    const settings = settingsFor(callOptions);
    const served = await loadCatalogue();
    const tool: ServedTool | undefined = served.tools.find((candidate) => candidate.slug === slug);
    if (tool === undefined) {
      throw new ToolCallError(toolFailure('TOOL_NOT_FOUND', `${names.packageName} has no tool ${JSON.stringify(slug)}.`, { slug }));
    }
    validator ??= createValidator(noteOnce);
    const params = input === undefined || input === null ? {} : input;
    const invalid = validator.validateInput(tool, params);
    if (invalid !== null) throw new ToolCallError(invalid);

    if (settings.execution !== 'remote') noteOnce(localExecutionWarning(names, settings.execution));
    const apiClient = createApiClient(names, settings, stderrLog);
    const localExecutor = createLocalExecutor({
      timeoutMs: settings.timeoutMs, log: stderrLog, env: callOptions.env ?? process.env, executionVar: settings.vars.execution,
    });
    const runner = createRunner(settings, apiClient, localExecutor, stderrLog);
    const outcome = await runner.run(tool, params as JsonObject, callOptions.signal);
    if (!outcome.ok) throw new ToolCallError(outcome.failure);
    const mismatch = validator.validateOutput(tool, outcome.result);
    if (mismatch !== null) throw new ToolCallError(mismatch);
    return outcome.result as TOutput;
  }

  return { invoke };
}
