// One line of prose per change, for the --json `message` and the markdown report. Catalogue text (values,
// property names) passes through `quote` so each output format can make it safe in its own way.

import { toolModulePath } from '../plan/layout.js';
import type { ChangelogChange } from './changes.js';

type Describable = Omit<ChangelogChange, 'message'>;
export type Quote = (text: string) => string;

const MAX_VALUE_CHARS = 80;

/** Control characters and line/paragraph separators as `\uXXXX`, so one change stays one line. */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A value as short JSON (cut by code point, never inside a surrogate pair). */
export function formatValue(value: unknown): string {
  if (value === undefined) return 'none';
  const json = printable(JSON.stringify(value) ?? String(value));
  const chars = Array.from(json);
  return chars.length > MAX_VALUE_CHARS ? `${chars.slice(0, MAX_VALUE_CHARS - 1).join('')}…` : json;
}

function listValues(values: unknown, quote: Quote): string {
  return (Array.isArray(values) ? values : [values]).map((v) => quote(formatValue(v))).join(', ');
}

const verbOf = (effect: Describable['effect'], words: { tightened: string; loosened: string; changed: string }): string =>
  effect === 'tightened' ? words.tightened : effect === 'loosened' ? words.loosened : words.changed;

function typeText(type: unknown): string {
  if (type === undefined) return 'any';
  if (Array.isArray(type)) return type.length === 0 ? 'nothing' : type.join(' | ');
  return String(type);
}

function fromTo(change: Describable, quote: Quote): string {
  return `${quote(formatValue(change.before))} → ${quote(formatValue(change.after))}`;
}

/** What changed, without where. */
export function describeWhat(change: Describable, quote: Quote = (text) => text): string {
  switch (change.kind) {
    case 'tool-added': {
      const withheld = (change.after as { withheld?: string | null } | undefined)?.withheld;
      return withheld ? `tool added (withheld from tools/list: ${printable(withheld)})` : 'tool added';
    }
    case 'tool-removed':
      return 'tool removed';
    case 'tool-withheld':
      return `withheld from tools/list: ${printable(String(change.after))} (still callable through the meta-tool and the SDK)`;
    case 'tool-advertised':
      return 'now advertised in tools/list';
    case 'tool-renamed':
      return `slug renamed: ${quote(formatValue(change.before))} → ${quote(formatValue(change.after))}${change.pairedBy === 'schemas' ? ' (same input and output schemas)' : ' (the SDK wrapper keeps its name)'}`;
    case 'identifier-changed':
      return `SDK wrapper renamed: ${quote(String(change.before))} → ${quote(String(change.after))}`;
    case 'file-changed':
      return `module file renamed: ${quote(toolModulePath(String(change.before)))} → ${quote(toolModulePath(String(change.after)))}`;
    case 'tool-deprecated':
      return `deprecated: ${quote(formatValue(change.after))}`;
    case 'tool-metadata-changed':
      return `${change.keyword} changed: ${fromTo(change, quote)}`;
    case 'annotation-changed':
      return `annotation ${change.keyword}: ${quote(formatValue(change.before))} → ${quote(formatValue(change.after))}${change.mcp === 'breaking' ? ' (trust-gating hosts may now deny the tool)' : ''}`;
    case 'property-added':
      return `${change.required ? 'required' : 'optional'} field added`;
    case 'property-removed':
      return `${change.required ? 'required' : 'optional'} field removed`;
    case 'required-added':
      return 'field became required';
    case 'required-removed':
      return 'field became optional';
    case 'type-changed':
      return `type ${verbOf(change.effect, { tightened: 'narrowed', loosened: 'widened', changed: 'changed' })}: ${quote(typeText(change.before))} → ${quote(typeText(change.after))}`;
    case 'enum-added':
      return `now limited to ${change.keyword} ${listValues(change.after, quote)}`;
    case 'enum-removed':
      return `${change.keyword} removed (was ${listValues(change.before, quote)})`;
    case 'enum-values-added':
      return `${change.keyword} values added: ${listValues(change.after, quote)}`;
    case 'enum-values-removed':
      return `${change.keyword} values removed: ${listValues(change.before, quote)}`;
    case 'format-changed':
    case 'pattern-changed':
      return `${change.keyword} ${verbOf(change.effect, { tightened: 'added', loosened: 'removed', changed: 'changed' })}: ${fromTo(change, quote)}`;
    case 'constraint-changed':
    case 'additional-properties-changed':
      return `${change.keyword} ${verbOf(change.effect, { tightened: 'tightened', loosened: 'loosened', changed: 'changed' })}: ${fromTo(change, quote)}`;
    case 'variant-added':
      return `${change.keyword} variant added: ${quote(formatValue(change.after))}`;
    case 'variant-removed':
      return `${change.keyword} variant removed: ${quote(formatValue(change.before))}`;
    case 'default-changed':
      return `default changed: ${fromTo(change, quote)}`;
    case 'description-changed':
      return `${change.keyword} changed: ${fromTo(change, quote)}`;
    case 'deprecated-added':
      return 'marked deprecated';
    case 'deprecated-removed':
      return 'no longer deprecated';
    case 'keyword-changed':
      return `${change.keyword} changed: ${fromTo(change, quote)}`;
  }
}

/** Where the change is: `input /properties/mode`, `output /`, or '' for the tool itself. */
export function describeWhere(change: Describable): string {
  return change.schema === null ? '' : `${change.schema} ${printable(change.pointer || '/')}`;
}

export function describeChange(change: Describable): string {
  const where = describeWhere(change);
  return where === '' ? describeWhat(change) : `${where}: ${describeWhat(change)}`;
}
