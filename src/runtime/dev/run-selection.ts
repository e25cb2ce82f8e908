// Which tools catalogue-check (and `nexusbloom-gen verify`) runs against the API: --only-read-only and --allow.
// No imports beyond a type, so the generator's verify command reads the flags the same way without loading a server.

import type { ServedTool } from '../shared/contracts.js';

/**
 * Which tools are run against the API: against a real one, only tools that say they change nothing, or that someone
 * named, should run (a refund or a reminder e-mail must not go out from CI). The other checks cover every tool.
 */
export interface RunSelection {
  /** Tools annotated readOnlyHint: true. */
  readOnly: boolean;
  /** Tools named by slug, whatever their annotations. */
  allow: string[];
}

/** Whether `tool` is run under `selection` (every tool when there is none). */
export function isRunSelected(tool: ServedTool, selection: RunSelection | null): boolean {
  if (selection === null) return true;
  return (selection.readOnly && tool.manifest.annotations?.readOnlyHint === true) || selection.allow.includes(tool.slug);
}

/** --only-read-only and --allow (repeatable, comma-separated) as a selection; null when neither was given. */
export function runSelectionOf(onlyReadOnly: boolean, allow: readonly string[]): RunSelection | null {
  const slugs = [
    ...new Set(
      allow
        .flatMap((entry) => entry.split(','))
        .map((slug) => slug.trim())
        .filter((slug) => slug !== ''),
    ),
  ].sort();
  return onlyReadOnly || slugs.length > 0 ? { readOnly: onlyReadOnly, allow: slugs } : null;
}

/** `read-only tools and "a", "b"`: what a run selection lets run. */
export function selectionText(selection: RunSelection | null): string {
  if (selection === null) return 'every tool';
  const named = selection.allow.map((slug) => JSON.stringify(slug)).join(', ');
  return [selection.readOnly ? 'read-only tools' : '', named].filter((part) => part !== '').join(' and ');
}

/** `; 3 not run against the API (run: read-only tools)`, or '' when every tool ran. */
export function notRunText(report: { notRun: number; runSelection: RunSelection | null }): string {
  return report.runSelection === null ? '' : `; ${report.notRun} not run against the API (run: ${selectionText(report.runSelection)})`;
}
