// What check says of a schema or a value that ajv refused, in prose (describeAjvError, mostTelling), and where a
// schema's references stand (collectRefs). Apart from the compiler (schema-compiler.ts), and free of ajv's code: a
// build whose tools the build cache answers reports a bad bundle without loading ajv.

import type { ErrorObject } from 'ajv';
import { pointerToken } from '../../runtime/shared/json-values.js';

/** Keywords that only say "one of the branches failed": the branch's own error at the same place says what. */
const SUMMARY_KEYWORDS = new Set(['anyOf', 'oneOf', 'if']);
const KEYWORD_PREFERENCE = ['enum', 'const', 'required', 'additionalProperties'];

/** One error per instance path, preferring one that names the allowed values over a branch's bare type mismatch. */
export function mostTelling(errors: readonly ErrorObject[]): ErrorObject[] {
  const byPath = new Map<string, ErrorObject[]>();
  for (const error of errors) byPath.set(error.instancePath, [...(byPath.get(error.instancePath) ?? []), error]);
  return [...byPath.values()].map((candidates) => {
    const rank = (error: ErrorObject): number => {
      const preferred = KEYWORD_PREFERENCE.indexOf(error.keyword);
      return preferred >= 0 ? preferred : SUMMARY_KEYWORDS.has(error.keyword) ? 99 : KEYWORD_PREFERENCE.length;
    };
    return [...candidates].sort((a, b) => rank(a) - rank(b))[0]!;
  });
}

/** The value a JSON pointer names inside `root` (own properties only), or undefined. */
export function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

const MAX_SHOWN_CHARS = 60;

function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  const chars = Array.from(json);
  return chars.length > MAX_SHOWN_CHARS ? `${chars.slice(0, MAX_SHOWN_CHARS - 1).join('')}…` : json;
}

/**
 * An ajv error as prose that never carries ajv's own paths (`data/properties/...`): the place is the problem's
 * pointer. With `root`, the document the error's instancePath points into, the offending value is shown too.
 */
export function describeAjvError(error: ErrorObject, root?: { document: unknown }): string {
  const params = error.params as Record<string, unknown>;
  const value = root === undefined ? undefined : valueAt(root.document, error.instancePath);
  const got = value === undefined ? '' : ` (got ${shown(value)})`;
  switch (error.keyword) {
    case 'required':
      return `missing required field ${JSON.stringify(params.missingProperty)}`;
    case 'additionalProperties':
      return `unexpected field ${JSON.stringify(params.additionalProperty)}`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((allowed) => shown(allowed)).join(', ')}${got}`;
    case 'const':
      return `must be ${shown(params.allowedValue)}${got}`;
    case 'type':
      return `must be ${String(params.type).replace(/,/g, ' or ')}${got}`;
    default:
      return (error.message ?? error.keyword).replace(/\bdata(\/[^\s,]*)?/g, (_, path: string | undefined) => path ?? 'the value');
  }
}

/** Every `$ref` in a schema with the JSON pointer where it stands. */
export function collectRefs(node: unknown, pointer = ''): Array<{ ref: string; pointer: string }> {
  if (Array.isArray(node)) return node.flatMap((item, index) => collectRefs(item, `${pointer}/${index}`));
  if (!node || typeof node !== 'object') return [];
  const found: Array<{ ref: string; pointer: string }> = [];
  for (const [key, value] of Object.entries(node)) {
    const here = `${pointer}/${pointerToken(key)}`;
    if ((key === '$ref' || key === '$dynamicRef') && typeof value === 'string') found.push({ ref: value, pointer: here });
    else found.push(...collectRefs(value, here));
  }
  return found;
}
