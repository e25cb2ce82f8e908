// Chooses where a validated call runs (the API, or the tool's source on this machine) by the execution mode.

import type { DiagnosticLog, JsonObject, RunOutcome, ServedTool, ToolRunner } from '../shared/contracts.js';
import { toolFailure } from '../shared/contracts.js';
import type { ApiClient } from './api-client.js';
import type { Settings } from '../settings/config.js';
import type { LocalExecutor } from './local-exec.js';
import { operationOf } from './operation.js';
import type { OperationCaller } from './openapi-call.js';

export function hasLocalSource(tool: ServedTool): boolean {
  const source = tool.manifest.source;
  return source !== null && source !== undefined && source.runtime === 'node' && typeof source.code === 'string';
}

export function createRunner(
  settings: Pick<Settings, 'execution'>,
  apiClient: ApiClient,
  localExecutor: LocalExecutor,
  log: DiagnosticLog,
  operations?: OperationCaller,
): ToolRunner {
  async function remote(tool: ServedTool, params: JsonObject, signal?: AbortSignal): Promise<RunOutcome> {
    // A tool converted from an OpenAPI operation is that operation, called on the API it describes.
    const operation = operations === undefined ? null : operationOf(tool.manifest);
    if (operation !== null) return operations!.call(tool, operation, params, signal);
    const started = Date.now();
    const answer = await apiClient.runTool(tool.slug, params, signal);
    const durationMs = Date.now() - started;
    return answer.ok ? { ok: true, result: answer.value, durationMs } : { ok: false, failure: answer.failure, durationMs };
  }

  async function run(tool: ServedTool, params: JsonObject, signal?: AbortSignal): Promise<RunOutcome> {
    try {
      switch (settings.execution) {
        case 'local':
          return await localExecutor.run(tool, params, signal);
        case 'auto':
          return hasLocalSource(tool) ? await localExecutor.run(tool, params, signal) : await remote(tool, params, signal);
        default:
          return await remote(tool, params, signal);
      }
    } catch (error) {
      // Both paths promise never to reject; this keeps the runner's own promise if one of them ever does.
      const reason = error instanceof Error ? error.message : String(error);
      log(`Unexpected failure running ${JSON.stringify(tool.slug)}: ${reason}`);
      return {
        ok: false,
        durationMs: 0,
        failure: toolFailure('EXECUTION_ERROR', `Running ${JSON.stringify(tool.slug)} failed unexpectedly: ${reason}`),
      };
    }
  }

  return { run };
}
