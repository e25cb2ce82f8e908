// Turns run outcomes into MCP CallToolResults: JSON text plus structuredContent, failures as isError envelopes.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolFailure, type InputValidator, type RunOutcome, type ServedTool, type ToolFailure } from '../shared/contracts.js';
import { safeStringify } from '../secrets/redact.js';
import { isJsonObject } from '../shared/json-values.js';

/** structuredContent must be an object: a plain-object result is used as is, anything else is wrapped. */
export function structuredResult(result: unknown): Record<string, unknown> {
  return isJsonObject(result) ? result : { result: result === undefined ? null : result };
}

export function successResult(result: unknown): CallToolResult {
  const structuredContent = structuredResult(result);
  return { content: [{ type: 'text', text: safeStringify(result === undefined ? null : result) }], structuredContent };
}

export function failureResult(failure: ToolFailure): CallToolResult {
  return {
    content: [{ type: 'text', text: safeStringify(failure) }],
    structuredContent: failure as unknown as Record<string, unknown>,
    isError: true,
  };
}

/**
 * A successful result that does not match the tool's output schema becomes an OUTPUT_MISMATCH failure carrying
 * the payload, never a protocol error: the agent still sees what came back.
 */
export function checkOutput(tool: ServedTool, outcome: RunOutcome, validator: InputValidator): RunOutcome {
  if (!outcome.ok) return outcome;
  const mismatch = validator.validateOutput(tool, outcome.result);
  if (mismatch === null) return outcome;
  const failure = toolFailure(
    'OUTPUT_MISMATCH',
    `Tool "${tool.slug}" returned a result that does not match its output_schema: ${mismatch.error}`,
    { ...(mismatch.details ?? {}), result: outcome.result === undefined ? null : outcome.result },
  );
  return { ok: false, failure, durationMs: outcome.durationMs };
}

export function outcomeResult(outcome: RunOutcome): CallToolResult {
  return outcome.ok ? successResult(outcome.result) : failureResult(outcome.failure);
}
