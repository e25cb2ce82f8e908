// What every part of the agent surface is handed (names, tools, search, runner, history, policy), and the names and
// URIs they all spell alike: the meta-tool's runner and a tool's resource.

import type { DiagnosticLog, InputValidator, ServerNames, ToolFailure, ToolRunner } from '../shared/contracts.js';
import type { RunHistory } from '../history/history.js';
import type { ConfirmationChannel, ConfirmMode, SurfaceMode } from '../policy/index.js';
import type { ToolSearch } from '../search/index.js';
import type { ToolList } from '../catalogue/slug-index.js';

export interface SurfaceContext {
  names: ServerNames;
  /** Every tool, advertised and withheld, sorted by slug; may change between calls (live refresh). */
  getTools(): ToolList;
  /** Search over getTools(), one index per list: meta-tool search, prompts, completions and not-found hints rank alike. */
  search: ToolSearch;
  runner: ToolRunner;
  validator: InputValidator;
  history: RunHistory;
  startedAt: Date;
  log: DiagnosticLog;
  /** `<prefix>MCP_CATALOGUE` while the server serves the list pinned at build time (see ResolveOptions); else absent. */
  pinnedCatalogueVar?: string;
  /**
   * TOOL_NOT_ALLOWED for a name that did not resolve among `getTools()` because its tool is outside the operator's
   * policy (see policy/catalogue-view.ts); absent or null: answer not-found as usual.
   */
  refusal?(wanted: string, exactOnly?: boolean): ToolFailure | null;
  /** The confirmation rule for runs through the meta-tool (see policy/confirmation.ts); absent: none. */
  confirmation?: { mode: ConfirmMode; confirmVar: string };
  /** One meta-tool (default) or a discovery tool and a separate runner. */
  surfaceMode?: SurfaceMode;
  /** The operator policy in words, for the guide. */
  policySummary?: string;
}

export interface CallExtra {
  signal: AbortSignal;
  progressToken?: string | number;
  sendProgress(progress: number, total?: number, message?: string): Promise<void>;
  /** How this call can ask the user to confirm runs (elicitation when the client declares it); absent: it cannot. */
  confirmationChannel?: ConfirmationChannel;
}

/** The runner's name in the split surface. */
export function runnerToolName(metaToolName: string): string {
  return `${metaToolName}-run`;
}

/** The resource URI of one tool's manifest. */
export function toolUri(ctx: Pick<SurfaceContext, 'names'>, slug: string): string {
  return `${ctx.names.uriScheme}://tools/${encodeURIComponent(slug)}`;
}
