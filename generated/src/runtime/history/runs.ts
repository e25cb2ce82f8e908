// The one path every tool execution takes: validate (no API call when invalid), run, check output, record in history.
import {
  toolFailure,
  type InputValidator,
  type JsonObject,
  type RunOutcome,
  type ServedTool,
  type ToolFailure,
  type ToolRunner,
} from '../shared/contracts.js';
import type { RunHistory, RunRecord } from './history.js';
import { withoutUndefinedMembers } from '../schema/json-arguments.js';
import { checkOutput } from './results.js';

export interface RunDependencies {
  runner: ToolRunner;
  validator: InputValidator;
  history: RunHistory;
}

export type CheckedParams = { ok: true; params: JsonObject } | { ok: false; failure: ToolFailure };

/**
 * Arguments as the tool's own schema sees them: absent means `{}`; anything but an object is rejected; `undefined`
 * members are dropped as JSON would drop them (an in-process client can send them; see schema/json-arguments.ts).
 */
export function checkParams(validator: InputValidator, tool: ServedTool, params: unknown): CheckedParams {
  const candidate = params === undefined || params === null ? {} : params;
  if (typeof candidate !== 'object' || Array.isArray(candidate)) {
    return {
      ok: false,
      failure: toolFailure(
        'VALIDATION_ERROR',
        `Arguments for "${tool.slug}" must be a JSON object, not ${Array.isArray(candidate) ? 'an array' : typeof candidate}.`,
        { pointer: '' },
      ),
    };
  }
  const cleaned = withoutUndefinedMembers(candidate, tool.slug);
  if (!cleaned.ok) return { ok: false, failure: cleaned.failure };
  const failure = validator.validateInput(tool, cleaned.value);
  return failure === null ? { ok: true, params: cleaned.value as JsonObject } : { ok: false, failure };
}

export interface CompletedRun {
  outcome: RunOutcome;
  /** Absent when the call was cancelled before this run was sent: history holds the runs that happened. */
  record?: RunRecord;
}

/**
 * Runs already validated params. A runner that breaks its never-throw promise still yields an outcome. A call the client
 * already cancelled (say, mid-batch) is not started, and so not recorded.
 */
export async function executeRun(deps: RunDependencies, tool: ServedTool, params: JsonObject, signal: AbortSignal): Promise<CompletedRun> {
  if (signal.aborted) {
    const failure = toolFailure(
      'CANCELLED',
      `${JSON.stringify(tool.slug)} was not run: the client cancelled the call before it was sent.`,
      { cancelled: true, sent: false },
    );
    return { outcome: { ok: false, failure, durationMs: 0 } };
  }
  const started = Date.now();
  let outcome: RunOutcome;
  try {
    outcome = await deps.runner.run(tool, params, signal);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    outcome = {
      ok: false,
      failure: toolFailure('EXECUTION_ERROR', `Running "${tool.slug}" failed: ${message}`),
      durationMs: Date.now() - started,
    };
  }
  outcome = checkOutput(tool, outcome, deps.validator);
  const record = deps.history.record(tool.slug, params, outcome);
  return { outcome, record };
}

/** Validates then runs; an invalid call returns its failure without reaching the runner or the history. */
export async function validateAndRun(
  deps: RunDependencies,
  tool: ServedTool,
  params: unknown,
  signal: AbortSignal,
): Promise<{ outcome: RunOutcome; record?: RunRecord }> {
  const checked = checkParams(deps.validator, tool, params);
  if (!checked.ok) return { outcome: { ok: false, failure: checked.failure, durationMs: 0 } };
  return executeRun(deps, tool, checked.params, signal);
}
