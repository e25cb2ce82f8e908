// Problems found while reading or checking a catalogue, each naming the tool (slug) and a JSON pointer.

import { pointerToken } from '../runtime/shared/json-values.js';

export type Severity = 'error' | 'warning';

export interface Problem {
  severity: Severity;
  /** The tool the problem belongs to, or null for the catalogue as a whole. */
  slug: string | null;
  /** JSON pointer into the tool's manifest (or into the bundle when slug is null). */
  pointer: string;
  /**
   * The same place as a JSON pointer into the whole bundle (`/tools/2/input_schema/properties/name/type`), whose
   * indices are the bundle's own; set by the check stage on every problem it finds.
   */
  bundlePointer?: string;
  message: string;
  /** What to do about it. */
  hint?: string;
}

/** A failure that stops a stage; carries every problem found so far so none is lost. */
export class PipelineError extends Error {
  constructor(
    message: string,
    readonly problems: readonly Problem[] = [],
  ) {
    super(message);
    this.name = 'PipelineError';
  }
}

/** One line per problem; where the bundle pointer is known, it is the place named (it also finds the tool). */
export function formatProblem(problem: Problem): string {
  const at = problem.bundlePointer ?? problem.pointer;
  const where = problem.slug === null ? `catalogue ${at || '/'}` : `tool ${JSON.stringify(problem.slug)} at ${at || '/'}`;
  const hint = problem.hint ? ` (${problem.hint})` : '';
  return `${problem.severity}: ${where}: ${problem.message}${hint}`;
}

export function hasErrors(problems: readonly Problem[]): boolean {
  return problems.some((p) => p.severity === 'error');
}

/** JSON pointer escaping (RFC 6901). */
export function pointerSegment(segment: string | number): string {
  return pointerToken(String(segment));
}

export function joinPointer(...segments: Array<string | number>): string {
  return segments.map((s) => `/${pointerSegment(s)}`).join('');
}

/** Throws a PipelineError listing every error among `problems`, under `what`; warnings alone pass. */
export function failOnErrors(problems: readonly Problem[], what: string): void {
  if (!hasErrors(problems)) return;
  const errors = problems.filter((p) => p.severity === 'error');
  throw new PipelineError(`${what}: ${errors.length} error(s)\n${errors.map(formatProblem).join('\n')}`, problems);
}
