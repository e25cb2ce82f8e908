// TypeScript types for one tool's input and output, from its JSON Schemas, via json-schema-to-typescript.
// The schema is first cleaned so that no catalogue text can become code or a type name: only descriptions survive,
// and they reach the output as escaped comments.

import type { Options } from 'json-schema-to-typescript';
import type { SharedType } from '../plan/type-names.js';
import { commentText } from './text.js';
import { CONSTRAINT_KEYWORDS } from './constraint-keywords.js';
import { directDeclarations } from './direct-types.js';
import { prettierDeclarations } from './type-printer.js';
import { SCHEMA_MAP_KEYWORDS } from '../../runtime/schema/schema-transform.js';
import { defineOwn, isJsonObject, pointerToken } from '../../runtime/shared/json-values.js';

const J2TS_OPTIONS: Partial<Options> = {
  bannerComment: '',
  format: false,
  additionalProperties: false,
  strictIndexSignatures: true,
  declareExternallyReferenced: true,
  enableConstEnums: false,
  unknownAny: true,
  ignoreMinAndMaxItems: true,
};

// Keywords json-schema-to-typescript reads as instructions (raw TypeScript, enum names, type names, ids).
const CODE_KEYWORDS = new Set(['tsType', 'tsEnumNames', 'title', '$id', 'id', 'x-tsType', '$comment', 'examples', 'default', 'deprecated']);
const MAP_KEYWORDS: ReadonlySet<string> = new Set(SCHEMA_MAP_KEYWORDS);

/**
 * Map keys json-schema-to-typescript cannot hold: it calls `node.hasOwnProperty(...)` on every object it walks, so a
 * property or definition of that name would stand where the method should. Such a key travels under a placeholder.
 */
const METHOD_KEYS = new Set(['hasOwnProperty']);

/** What cleaning moved: `$ref` targets to point elsewhere, and map keys hidden behind placeholders. */
interface Rewrites {
  /** Old JSON pointer → new, for definitions moved or renamed; applied to every `$ref` by longest prefix. */
  pointers: Map<string, string>;
  /** `$anchor` name → the JSON pointer of its schema in the cleaned copy. */
  anchors: Map<string, string>;
  /** Placeholder → original key. */
  keys: Map<string, string>;
  /** Starts every placeholder; chosen on the first hidden key so that it occurs nowhere in `source`. */
  placeholderPrefix: string | null;
  source: unknown;
  /** Whether the root schema may hold any JSON value (an output), not only an object (an input). */
  rootAnyValue: boolean;
  /** The plan's type names, by JSON pointer from the schema's own root (`/$defs/item-x`). */
  typeNames: ReadonlyMap<string, string>;
  /**
   * Definitions typed elsewhere (the shared types module), by JSON pointer from the schema's root → the type name a
   * `$ref` to one becomes; they are left out of the copy.
   */
  shared: ReadonlyMap<string, string>;
}

/** A JSON pointer as a URI fragment: characters a fragment cannot hold raw are percent-encoded. */
const pointerFragment = (pointer: string): string =>
  `#${pointer.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/gu, (c) => encodeURIComponent(c))}`;

/**
 * A deep copy fit for json-schema-to-typescript. Every schema the plan named (`$defs`, titled `oneOf`/`anyOf` branches)
 * carries its planned name as its title, the only title left: json-schema-to-typescript declares a type by that name.
 */
export function cleanSchema(node: unknown, typeNames: ReadonlyMap<string, string> = new Map(), rootAnyValue = false): unknown {
  return cleanForTypes(node, typeNames, rootAnyValue).schema;
}

/** The cleaned copy, with the placeholders that stand for keys json-schema-to-typescript cannot hold. */
function cleanForTypes(
  node: unknown,
  typeNames: ReadonlyMap<string, string>,
  rootAnyValue: boolean,
  shared: ReadonlyMap<string, string> = new Map(),
): { schema: unknown; keys: Map<string, string>; placeholderPrefix: string | null } {
  const rewrites: Rewrites = {
    pointers: new Map(),
    anchors: new Map(),
    keys: new Map(),
    placeholderPrefix: null,
    source: node,
    rootAnyValue,
    typeNames,
    shared,
  };
  const cleaned = cleanNode(node, null, '', '', rewrites);
  const schema = rewrites.pointers.size + rewrites.anchors.size + shared.size === 0 ? cleaned : rewriteRefs(cleaned, rewrites);
  return { schema, keys: rewrites.keys, placeholderPrefix: rewrites.placeholderPrefix };
}

/** One placeholder per hidden key, wherever it stands: a property, a definition, or an entry of `required`. */
function placeholderFor(key: string, rewrites: Rewrites): string {
  for (const [placeholder, original] of rewrites.keys) if (original === key) return placeholder;
  if (rewrites.placeholderPrefix === null) {
    const json = JSON.stringify(rewrites.source) ?? '';
    let prefix = 'nbgenKey';
    while (json.includes(prefix)) prefix += 'X';
    rewrites.placeholderPrefix = prefix;
  }
  const placeholder = `${rewrites.placeholderPrefix}${rewrites.keys.size}`;
  rewrites.keys.set(placeholder, key);
  return placeholder;
}

/** `pointer` with one more token; `newPointer` is `pointer` itself (the same string) while nothing above it moved. */
const below = (pointer: string, token: string): string => `${pointer}/${token}`;

/**
 * `oldPointer`/`newPointer` locate `node` in the catalogue's schema and in the copy. They differ under moved or renamed
 * definitions only; elsewhere they are one string, made once (most nodes of most schemas: a large schema's pointers
 * are long, and building, comparing and hashing each twice was most of the cleaning).
 */
function cleanNode(node: unknown, mapKeyword: string | null, oldPointer: string, newPointer: string, rewrites: Rewrites): unknown {
  const moved = oldPointer !== newPointer;
  if (Array.isArray(node))
    return node.map((item, index) => {
      const here = below(oldPointer, String(index));
      return cleanNode(item, null, here, moved ? below(newPointer, String(index)) : here, rewrites);
    });
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  if (mapKeyword !== null) {
    for (const [key, value] of Object.entries(node)) {
      // Keys here are property or definition names, not keywords: keep them all, clean each subschema.
      const isDefinition = mapKeyword === '$defs' || mapKeyword === 'definitions';
      const from = below(oldPointer, pointerToken(key));
      if (isDefinition && rewrites.shared.has(from)) continue;
      // A definition is keyed by its planned name in the copy: json-schema-to-typescript names parts of a schema after
      // its key (the own properties beside an allOf), and a catalogue's keys repeat across tools (`DscNode` in many).
      const planned = isDefinition ? rewrites.typeNames.get(from) : undefined;
      const outKey = planned ?? (METHOD_KEYS.has(key) ? placeholderFor(key, rewrites) : key);
      const to = moved || outKey !== key ? below(newPointer, pointerToken(outKey)) : from;
      if (to !== from) rewrites.pointers.set(from, to);
      const cleaned = cleanNode(value, null, from, to, rewrites);
      if (isDefinition && isJsonObject(cleaned) && cleaned.title === undefined) {
        throw new Error(`the plan has no type name for the definition at ${from}`);
      }
      defineOwn(out, outKey, cleaned);
    }
    return out;
  }
  const record = node as Record<string, unknown>;
  if (typeof record.$anchor === 'string' && !rewrites.anchors.has(record.$anchor)) rewrites.anchors.set(record.$anchor, newPointer);
  // json-schema-to-typescript refuses a schema with both; the draft-07 ones join `$defs` (renamed on a clash).
  const bothDefinitionKinds = isJsonObject(record.definitions) && isJsonObject(record.$defs);
  for (const [key, value] of Object.entries(node)) {
    if (CODE_KEYWORDS.has(key)) continue;
    if (key === 'description') {
      if (typeof value === 'string') out.description = commentText(value);
      continue;
    }
    if (key === 'enum' || key === 'const') {
      defineOwn(out, key, value);
      continue;
    }
    if (key === 'required' && Array.isArray(value)) {
      out.required = value.map((name: unknown) =>
        typeof name === 'string' && METHOD_KEYS.has(name) ? placeholderFor(name, rewrites) : name,
      );
      continue;
    }
    if (bothDefinitionKinds && key === 'definitions') continue;
    // A plain value is kept as it is: most keys of a schema hold one, and its pointers would never be read.
    if (value === null || typeof value !== 'object') {
      defineOwn(out, key, value);
      continue;
    }
    const here = below(oldPointer, pointerToken(key));
    defineOwn(
      out,
      key,
      cleanNode(value, MAP_KEYWORDS.has(key) ? key : null, here, moved ? below(newPointer, pointerToken(key)) : here, rewrites),
    );
  }
  if (bothDefinitionKinds) {
    const defs = out.$defs as Record<string, unknown>;
    const joined = cleanNode(
      record.definitions,
      'definitions',
      below(oldPointer, 'definitions'),
      below(newPointer, '$defs'),
      rewrites,
    ) as Record<string, unknown>;
    // Definitions are keyed by their planned names, unique across the package, so the two kinds never share a key.
    for (const [key, value] of Object.entries(joined)) defineOwn(defs, key, value);
  }
  const constraints = constraintLines(record);
  if (constraints.length > 0)
    out.description = [...(typeof out.description === 'string' ? [out.description] : []), ...constraints].join('\n');
  saySchemaMeaning(out, oldPointer === '' ? (rewrites.rootAnyValue ? 'any-value root' : 'object root') : 'subschema');
  // Set after the rewrite above, so that the name stays on this schema rather than move into an allOf member.
  const planned = oldPointer === '' || rewrites.typeNames.size === 0 ? undefined : rewrites.typeNames.get(oldPointer);
  if (planned !== undefined) out.title = planned;
  return out;
}

const CONSTRAINT_ORDER: ReadonlyMap<string, number> = new Map(CONSTRAINT_KEYWORDS.map((keyword, index) => [keyword, index]));

/** `@minimum 1`, `@pattern "^[a-z]+$"`, …: each value as JSON, escaped for a comment, so no catalogue text is code. */
function constraintLines(record: Record<string, unknown>): string[] {
  // The schema's own keys, fewer than the keywords in most schemas, are looked up rather than every keyword in each.
  const present: string[] = [];
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (CONSTRAINT_ORDER.has(key) && (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean'))
      present.push(key);
  }
  if (present.length === 0) return present;
  return present
    .sort((a, b) => CONSTRAINT_ORDER.get(a)! - CONSTRAINT_ORDER.get(b)!)
    .map((keyword) =>
      commentText(
        `@${keyword} ${JSON.stringify(record[keyword])}`.replace(
          /[\u2028\u2029\u0085]/g,
          (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
        ),
      ),
    );
}

/** Keywords that give an object schema a shape of its own, beyond "any object". */
const OBJECT_SHAPING = [
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'allOf',
  'anyOf',
  'oneOf',
  '$ref',
  'if',
  'not',
  'dependentSchemas',
];

/** Keywords from which json-schema-to-typescript derives a type; a schema with none of them admits any value. */
const TYPE_DEFINING = [
  'type',
  'enum',
  'const',
  'properties',
  'patternProperties',
  'additionalProperties',
  'required',
  'items',
  'prefixItems',
  'additionalItems',
  'allOf',
  'anyOf',
  'oneOf',
  '$ref',
  'tsType',
];

/** Keywords that stay beside a `$ref` moved into `allOf`: a description, and definitions, which refs point into. */
const STAYING_BESIDE_REF = new Set(['description', '$defs', 'definitions']);

const admitsObjects = (type: unknown): boolean => type === 'object' || (Array.isArray(type) && type.includes('object'));

type SchemaPlace = 'object root' | 'any-value root' | 'subschema';

/**
 * Where json-schema-to-typescript would type a schema otherwise than the schema means, or stricter, the cleaned copy
 * says the same thing its way (our own keywords and constants only, never catalogue text):
 * - a `$ref` with sibling keywords, or at the root, becomes `allOf` of the target and the siblings: the library would
 *   drop the target, or (at the root) declare only the definition;
 * - a tuple (`prefixItems`, or draft-07 `items: [...]`) becomes an array of any of its members, since the library reads
 *   one keyword and ignores the other (fixed-length tuples, or `never[]`), and the types ignore lengths anyway;
 * - a name in `required` without a `properties` entry is still required: it gets an entry that admits anything;
 * - an object schema that shapes nothing admits any object, where the closed objects asked for in J2TS_OPTIONS would
 *   make it `{}`; `patternProperties` do not close an object either, so other keys stay open;
 * - a schema with no keyword that fixes a type (a description, a format, a minimum alone) admits any value, where the
 *   library would read an object. An input's root is an object by contract.
 */
function saySchemaMeaning(out: Record<string, unknown>, place: SchemaPlace): void {
  if (typeof out.$ref === 'string') {
    // `type` alone beside a ref repeats what the target says; as an allOf member it would only open the object.
    const siblings = Object.keys(out).filter((key) => key !== '$ref' && !STAYING_BESIDE_REF.has(key));
    if (siblings.length === 1 && siblings[0] === 'type') {
      delete out.type;
      siblings.length = 0;
    }
    if (place !== 'subschema' || siblings.length > 0) {
      const rest: Record<string, unknown> = {};
      for (const key of siblings) {
        defineOwn(rest, key, out[key]);
        delete out[key];
      }
      if (siblings.length > 0) saySchemaMeaning(rest, 'subschema');
      out.allOf = [{ $ref: out.$ref }, ...(siblings.length > 0 ? [rest] : [])];
      delete out.$ref;
      return;
    }
  }
  const tuple = Array.isArray(out.prefixItems)
    ? { members: out.prefixItems, rest: out.items }
    : Array.isArray(out.items)
      ? { members: out.items, rest: out.additionalItems }
      : null;
  if (tuple !== null) {
    delete out.prefixItems;
    delete out.additionalItems;
    if (tuple.rest === undefined || tuple.rest === true) delete out.items;
    else out.items = { anyOf: tuple.rest === false ? tuple.members : [...tuple.members, tuple.rest] };
    if (out.type === undefined) out.type = 'array';
  }
  if (Array.isArray(out.required) && (out.type === undefined || admitsObjects(out.type))) {
    const properties = isJsonObject(out.properties) ? out.properties : (out.properties = {});
    for (const name of out.required) {
      if (typeof name === 'string' && !Object.hasOwn(properties, name)) defineOwn(properties, name, {});
    }
  }
  if (admitsObjects(out.type) && !OBJECT_SHAPING.some((keyword) => keyword in out)) out.additionalProperties = true;
  if ('patternProperties' in out && !('additionalProperties' in out)) out.additionalProperties = true;
  if (place !== 'object root' && !TYPE_DEFINING.some((keyword) => keyword in out)) out.tsType = 'unknown';
}

/** Points every `$ref` of the copy at where its target now stands: anchors become JSON pointers, moved paths follow. */
function rewriteRefs(node: unknown, rewrites: Rewrites): unknown {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, rewrites));
  if (!isJsonObject(node)) return node;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') {
      const typedElsewhere = rewrites.shared.get(refPointer(value) ?? '');
      if (typedElsewhere === undefined) node.$ref = rewrittenRef(value, rewrites);
      else {
        // A plan-made name, never catalogue text: json-schema-to-typescript prints it as the type.
        delete node.$ref;
        node.tsType = typedElsewhere;
      }
    } else if (value && typeof value === 'object') rewriteRefs(value, rewrites);
  }
  return node;
}

/** A local `$ref` as the JSON pointer or anchor name it stands for, or null (external, or not decodable). */
function refPointer(ref: string): string | null {
  if (!ref.startsWith('#')) return null;
  try {
    return decodeURIComponent(ref.slice(1));
  } catch {
    return null;
  }
}

function rewrittenRef(ref: string, rewrites: Rewrites): string {
  const pointer = refPointer(ref);
  if (pointer === null) return ref;
  if (!pointer.startsWith('/') && pointer !== '') {
    const target = rewrites.anchors.get(pointer);
    return target === undefined ? ref : pointerFragment(target);
  }
  // The longest moved prefix wins: a definition renamed inside a moved one is found under its new parent.
  let best: [string, string] | undefined;
  for (const [from, to] of rewrites.pointers) {
    if ((pointer === from || pointer.startsWith(`${from}/`)) && (best === undefined || from.length > best[0].length)) best = [from, to];
  }
  return best === undefined ? ref : pointerFragment(`${best[1]}${pointer.slice(best[0].length)}`);
}

let library: Promise<typeof import('json-schema-to-typescript')> | undefined;

/** Loaded on first use, once: a rebuild whose tool modules all come from the cache never needs it. */
const loadJsonSchemaToTypescript = (): Promise<typeof import('json-schema-to-typescript')> =>
  (library ??= import('json-schema-to-typescript'));

/**
 * json-schema-to-typescript's unformatted declarations for a cleaned copy. Inputs are closed objects, so that a misspelt
 * field does not compile; a result may carry fields its schema does not name (unless it says additionalProperties:
 * false), and its type lets the caller read them.
 */
export async function libraryDeclarations(cleaned: unknown, rootName: string, isOutput: boolean): Promise<string> {
  const { compile } = await loadJsonSchemaToTypescript();
  return compile(cleaned as never, rootName, { ...J2TS_OPTIONS, additionalProperties: isOutput, cwd: '/' });
}

/** Marks, for a reader of the module, a type looser than its schema (the build warns of it from SchemaTypes.loose). */
export const LOOSE_TYPE_MARK = '// loose type for ';

/** A schema's declarations, and why they are looser than the schema when they are (null: they are exact). */
export interface SchemaTypes {
  code: string;
  loose: string | null;
}

/**
 * Declarations for `rootName` (and its named `$defs`). A null schema gives the permissive type the server accepts.
 * `typeNames` are the plan's names of the tool (JSON pointer from the manifest → name): the root's is at `/<field>`,
 * every named schema's below it. `shared` are its definitions typed in the shared types module (pointer → shared
 * name): each is declared here as an alias of that type, under the tool's own name for it.
 */
export async function schemaTypes(
  schema: Record<string, unknown> | null | undefined,
  typeNames: Readonly<Record<string, string>>,
  fallback: string,
  field: 'input_schema' | 'output_schema',
  shared: Readonly<Record<string, string>> = {},
): Promise<SchemaTypes> {
  const rootName = typeNames[`/${field}`];
  if (rootName === undefined) throw new Error(`the plan has no type name for /${field}`);
  if (!schema) return { code: `export type ${rootName} = ${fallback};\n`, loose: null };
  const isOutput = field === 'output_schema';
  const own = new Map<string, string>();
  for (const [pointer, name] of Object.entries(typeNames))
    if (pointer.startsWith(`/${field}/`)) own.set(pointer.slice(field.length + 1), name);
  const aliases = new Map<string, string>();
  const aliasLines: string[] = [];
  for (const [pointer, sharedName] of Object.entries(shared)) {
    if (!pointer.startsWith(`/${field}/`)) continue;
    const local = typeNames[pointer] ?? sharedName;
    aliases.set(pointer.slice(field.length + 1), local);
    if (local !== sharedName) {
      const alias = `export type ${local} = ${sharedName};\n`;
      aliasLines.push(prettierDeclarations(alias) ?? alias);
    }
  }
  const declarations = await typeDeclarations(cleanForTypes(schema, own, isOutput, aliases), rootName, isOutput, field, fallback);
  return { code: `${declarations.code}${aliasLines.sort().join('')}`, loose: declarations.loose };
}

/** The declarations of one definition typed once for every schema that holds it (see plan/type-names.ts). */
export async function sharedTypeDeclarations(type: SharedType): Promise<string> {
  const isOutput = type.field === 'output_schema';
  return (
    await typeDeclarations(
      cleanForTypes(type.schema, new Map(), true, new Map(Object.entries(type.refs))),
      type.name,
      isOutput,
      type.field,
      'unknown',
    )
  ).code;
}

async function typeDeclarations(
  clean: ReturnType<typeof cleanForTypes>,
  rootName: string,
  isOutput: boolean,
  field: string,
  fallback: string,
): Promise<SchemaTypes> {
  const { schema: cleaned, keys, placeholderPrefix } = clean;
  let code: string;
  try {
    // Most schemas are simple shapes, printed directly as the library would print them; the rest go to the library.
    code = directDeclarations(cleaned, rootName, isOutput) ?? (await libraryDeclarations(cleaned, rootName, isOutput));
  } catch (error) {
    // A schema ajv accepts but json-schema-to-typescript cannot read still makes a working tool: the server validates
    // against the schema itself, so only the static type is looser. The build says so (see looseTypeWarning).
    const reason = commentText(error instanceof Error ? error.message : String(error))
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 300);
    return { code: `${LOOSE_TYPE_MARK}${field}: ${reason}\nexport type ${rootName} = ${fallback};\n`, loose: reason };
  }
  // Every placeholder back to its own key, a plain identifier that json-schema-to-typescript would have printed bare.
  const restored =
    placeholderPrefix === null
      ? code
      : code.replace(new RegExp(`${placeholderPrefix}\\d+\\b`, 'g'), (placeholder) => keys.get(placeholder) ?? placeholder);
  return { code: prettierDeclarations(restored) ?? indentDeclarations(restored), loose: null };
}

/**
 * Indents json-schema-to-typescript's unformatted output by brace depth, two spaces a level, for a shape the
 * Prettier-like printer (type-printer.ts) does not know: readable in review, at a fraction of a Prettier run's cost. Braces inside comments and string literal types do not count.
 */
export function indentDeclarations(code: string): string {
  let depth = 0;
  const out: string[] = [];
  for (const raw of code.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const isComment = line.startsWith('/*') || line.startsWith('*');
    const code = isComment ? '' : line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
    const leadingClose = /^[}\])]/.test(code) ? 1 : 0;
    depth = Math.max(0, depth - leadingClose);
    out.push(`${'  '.repeat(depth)}${isComment && line.startsWith('*') ? ` ${line}` : line}`);
    const opens = (code.match(/[{[(]/g) ?? []).length;
    const closes = (code.match(/[}\])]/g) ?? []).length - leadingClose;
    depth = Math.max(0, depth + opens - closes);
  }
  return `${out.join('\n')}\n`;
}
