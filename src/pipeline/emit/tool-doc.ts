// The JSDoc of a tool's wrapper and client method: title, description, annotations, an example call, what it throws.
// Catalogue text reaches it only as comment text (docComment escapes it) and the example's input only as JSON.

import type { ToolAnnotations } from '../../runtime/shared/contracts.js';
import type { PlannedTool } from '../plan/plan-package.js';
import { acceptsEmptyInput } from './sample-input.js';

const ANNOTATION_WORDS: Array<[keyof ToolAnnotations, string, string]> = [
  ['readOnlyHint', 'read-only', 'changes nothing'],
  ['destructiveHint', 'destructive', 'may delete or overwrite data'],
  ['idempotentHint', 'idempotent', 'calling it again with the same input has no further effect'],
  ['openWorldHint', 'open world', 'reaches systems outside the API'],
];

/** One line for the annotations a manifest sets to true, or none. */
function annotationLine(annotations: ToolAnnotations | undefined): string[] {
  if (annotations === undefined) return [];
  const set = ANNOTATION_WORDS.filter(([key]) => annotations[key] === true).map(([, word, meaning]) => `${word} (${meaning})`);
  return set.length === 0 ? [] : [`Annotations: ${set.join('; ')}.`];
}

/**
 * JSON text that stays one value inside a comment: the line separators a comment would break on become escapes (JSON
 * leaves U+2028/U+2029 raw); a `*\/` in a string becomes `*\\/` in the comment, the same string in JavaScript.
 */
export function exampleJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\u2028\u2029\u0085]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `callee` is how the example calls the tool: the wrapper's name, or `client.` and the method. */
function exampleLines(tool: PlannedTool, callee: string): string[] {
  const example = tool.manifest.examples?.[0];
  if (example === undefined) return [];
  const params = example.params;
  const empty = Object.keys(params).length === 0 && acceptsEmptyInput(tool.manifest.input_schema);
  return ['', '@example', '```ts', `const result = await ${callee}(${empty ? '' : exampleJson(params)});`, '```'];
}

/** Whether a call of this tool is retried by default (see src/runtime/execution/retry.ts). */
const retriedByDefault = (annotations: ToolAnnotations | undefined): boolean =>
  annotations?.readOnlyHint === true || annotations?.idempotentHint === true;

/** The doc text (not yet a comment) of the wrapper (`callee` its name) or of a client's method. */
export function toolDoc(tool: PlannedTool, callee: string): string {
  const { manifest } = tool;
  const parts = [manifest.name.trim() === '' ? tool.slug : manifest.name, '', manifest.description];
  const annotations = annotationLine(manifest.annotations);
  if (annotations.length > 0) parts.push('', ...annotations);
  if (tool.withheldReason !== null)
    parts.push('', `Not advertised in tools/list (slug ${tool.withheldReason}); the meta-tool's run command reaches it.`);
  parts.push(...exampleLines(tool, callee));
  // ASCII only, as all the text a module's template adds: one character past Latin-1 makes V8 hold the whole module
  // as two-byte text, which doubles a large catalogue's emitted source in memory (12 MB of modules took 24 MB at 3,000).
  parts.push(
    '',
    '@throws {ToolCallError} `VALIDATION_ERROR` (with `pointer`) when the input does not match the schema, before any ' +
      "request; the API's failures by `code` (`TIMEOUT`, `RATE_LIMITED`, `UPSTREAM_ERROR`, `AUTH_ERROR` and the rest), " +
      (retriedByDefault(manifest.annotations)
        ? 'after the retries the `retries` option allows (by default 2: this tool is safe to repeat).'
        : 'without retries unless `retries: { tools: "always" }` asks (this tool is not annotated read-only or idempotent).'),
  );
  if (manifest.deprecated !== undefined) parts.push('', `@deprecated ${manifest.deprecated}`);
  return parts.join('\n');
}
