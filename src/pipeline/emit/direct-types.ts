// Declarations for the common simple schema shapes, printed directly: the same unformatted text json-schema-to-typescript
// gives for them under schema-types.ts's options, at a small fraction of its cost (it clones, dereferences, normalizes
// and parses every schema). The cover is narrow on purpose: a schema with any keyword or shape outside it (an allOf
// other than of one bare reference, tuples, patternProperties, schema-valued additionalProperties, a `$ref` beside
// other keywords, a `nullable` keyword, a oneOf beside other keywords or with titled branches, …) gives null, and the
// caller asks the library. Each rule below mirrors the library's normalizer, parser or generator for the shapes it
// admits; test/pipeline/direct-types.test.ts holds the two to the same text.

import { isJsonObject } from '../../runtime/shared/json-values.js';
import { CONSTRAINT_KEYWORDS } from './constraint-keywords.js';

/** A type as the library's generator sees it: named nodes are declared once and referred to by name. */
type TypeNode =
  | { kind: 'word'; text: string; comment?: string; name?: string }
  | { kind: 'literal'; text: string }
  | { kind: 'union'; members: TypeNode[]; comment?: string; name?: string }
  | { kind: 'array'; element: TypeNode; comment?: string; name?: string }
  | { kind: 'interface'; members: Member[]; index: boolean; comment?: string; name?: string };

interface Member {
  key: string;
  required: boolean;
  type: TypeNode;
}

/** Thrown on anything outside the cover; caught once, at the top. Made once: a stack trace per fallback costs more than the walk. */
class OutsideCover extends Error {}
const OUTSIDE = new OutsideCover("outside the direct printer's cover");

const outside = (): never => {
  throw OUTSIDE;
};

/** Keywords a covered schema may carry besides the ignored ones; `$defs`, `definitions` and `$schema` only at the root. */
const KNOWN = new Set([
  'description',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'minItems',
  'maxItems',
]);

/**
 * Keywords the library reads nothing from: the constraints schema-types.ts puts in doc comments but the item counts
 * (the library notes those itself, see arrayComment), and annotations.
 */
const IGNORED = new Set([
  ...CONSTRAINT_KEYWORDS.filter((keyword) => !KNOWN.has(keyword)),
  'readOnly',
  'writeOnly',
  'contentEncoding',
  'contentMediaType',
]);

const PRIMITIVE_WORDS: Readonly<Record<string, string>> = {
  string: 'string',
  number: 'number',
  integer: 'number',
  boolean: 'boolean',
  null: 'null',
};

/** Type names the library prints as they are (its `toSafeString` leaves them unchanged). */
const SAFE_NAME = /^[A-Z](?:[A-Za-z]|\d+(?=[A-Z]|$))*$/;

class Reader {
  private readonly defs = new Map<string, TypeNode>();
  private readonly names = new Set<string>();

  constructor(
    private readonly definitions: Record<string, unknown>,
    private readonly refPrefix: string,
    /** The library's `additionalProperties` option: what an object that does not say allows. */
    private readonly openByDefault: boolean,
    rootName: string,
  ) {
    this.names.add(rootName);
  }

  /** Every definition, referenced or not: the library validates them all (minItems ≤ maxItems, …). */
  readDefinitions(): void {
    for (const key of Object.keys(this.definitions)) this.definition(key);
  }

  private definition(key: string): TypeNode {
    const known = this.defs.get(key);
    if (known !== undefined) return known;
    const schema = this.definitions[key];
    // A definition that is itself a `$ref` is merged into a copy by the library's resolver: not covered.
    if (
      !isJsonObject(schema) ||
      '$ref' in schema ||
      typeof schema.title !== 'string' ||
      !SAFE_NAME.test(schema.title) ||
      this.names.has(schema.title)
    )
      outside();
    const title = (schema as { title: string }).title;
    this.names.add(title);
    // Registered before it is read, filled in place after: a definition may refer to itself.
    const node = { kind: 'word', text: '' } as TypeNode;
    this.defs.set(key, node);
    const { title: _title, ...rest } = schema as Record<string, unknown>;
    Object.assign(node, this.node(rest, false), { name: title });
    return node;
  }

  node(schema: unknown, root: boolean): TypeNode {
    if (!isJsonObject(schema)) return outside();
    for (const key of Object.keys(schema)) {
      if (IGNORED.has(key) || KNOWN.has(key)) continue;
      if (key === '$ref' || key === 'tsType' || key === 'oneOf' || key === 'anyOf' || key === 'allOf') continue;
      if (root && (key === '$defs' || key === 'definitions' || key === '$schema')) continue;
      outside();
    }
    checkItemCounts(schema);
    if (schema.description !== undefined && typeof schema.description !== 'string') outside();
    const description = schema.description as string | undefined;
    if ('$ref' in schema) return this.reference(schema, root);
    if ('allOf' in schema) return withComment(this.intersection(schema), description);
    if ('tsType' in schema) {
      if (
        typeof schema.tsType !== 'string' ||
        hasAny(schema, ['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'oneOf', 'anyOf'])
      )
        outside();
      return withComment({ kind: 'word', text: schema.tsType as string }, description);
    }
    if ('oneOf' in schema || 'anyOf' in schema) return withComment(this.alternatives(schema), description);
    if ('enum' in schema || 'const' in schema) return withComment(this.literals(schema), description);
    let type = schema.type;
    if (Array.isArray(type) && type.length === 1) type = type[0];
    if (Array.isArray(type)) return withComment(this.typeUnion(schema, type), description);
    if (typeof type === 'string' && Object.hasOwn(PRIMITIVE_WORDS, type)) {
      if (hasAny(schema, ['properties', 'required', 'additionalProperties', 'items'])) outside();
      return withComment({ kind: 'word', text: PRIMITIVE_WORDS[type]! }, description);
    }
    if (type === 'array' || (type === undefined && 'items' in schema)) {
      if (hasAny(schema, ['properties', 'required', 'additionalProperties'])) outside();
      const element: TypeNode = 'items' in schema ? this.node(schema.items, false) : { kind: 'word', text: 'unknown' };
      return withComment({ kind: 'array', element }, arrayComment(schema));
    }
    if (type === 'object' || (type === undefined && 'properties' in schema)) return withComment(this.object(schema), description);
    return outside();
  }

  private reference(schema: Record<string, unknown>, root: boolean): TypeNode {
    const ref = schema.$ref;
    // A `$ref` beside other keywords is merged into a copy of its target by the library's resolver: not covered.
    if (root || Object.keys(schema).length !== 1 || typeof ref !== 'string' || !ref.startsWith(this.refPrefix)) return outside();
    const key = ref.slice(this.refPrefix.length);
    if (!/^[A-Za-z_$][\w$]*$/.test(key) || !Object.hasOwn(this.definitions, key)) outside();
    return this.definition(key);
  }

  /**
   * `allOf` of one bare reference, a description beside it: what schema-types.ts makes of a `$ref` at the root (a
   * definition, or a type of the shared module). The library's intersection of one member prints as that member.
   */
  private intersection(schema: Record<string, unknown>): TypeNode {
    const { allOf } = schema;
    if (!Array.isArray(allOf) || allOf.length !== 1) return outside();
    // Beside it only what the library reads nothing from (the root's definitions are already taken off, see directDeclarations).
    if (Object.keys(schema).some((key) => key !== 'allOf' && key !== 'description' && !IGNORED.has(key))) outside();
    const member: unknown = allOf[0];
    if (!isJsonObject(member) || Object.keys(member).length !== 1 || !('$ref' in member || 'tsType' in member)) return outside();
    return { kind: 'union', members: [this.node(member, false)] };
  }

  /**
   * `oneOf` or `anyOf` alone (a description and ignored keywords beside it): a union of its branches, which the
   * library's optimizer dedupes by their text, keeping the named one of branches that differ only by a name.
   */
  private alternatives(schema: Record<string, unknown>): TypeNode {
    const branches = schema.oneOf ?? schema.anyOf;
    if (('oneOf' in schema && 'anyOf' in schema) || !Array.isArray(branches) || branches.length === 0) return outside();
    if (Object.keys(schema).some((key) => KNOWN.has(key) && key !== 'description')) outside();
    let members = branches.map((branch) => this.node(branch, false));
    const bare = members.map((member) => typeText(member, false));
    if (bare.every((text) => text === bare[0]) && members.some((member) => member.kind !== 'literal' && member.name !== undefined))
      members = members.filter((member) => member.kind !== 'literal' && member.name !== undefined);
    const texts = new Set<string>();
    return { kind: 'union', members: members.filter((member) => !texts.has(typeText(member)) && texts.add(typeText(member))) };
  }

  /**
   * `type: ["string", "null"]`, or `["object", "null"]` with properties (OpenAPI's nullable, converted): one member a
   * type, each the schema read with that type alone and without its description (the union carries it), repeats
   * (integer and number) dropped as the library's optimizer does. At most one member is an object or an array.
   */
  private typeUnion(schema: Record<string, unknown>, types: unknown[]): TypeNode {
    const object = types.includes('object');
    const array = types.includes('array');
    if (object && array) outside();
    if (!object && hasAny(schema, ['properties', 'required', 'additionalProperties'])) outside();
    // Item counts would go into a comment of the union the library writes otherwise: not covered.
    if ((!array && 'items' in schema) || hasAny(schema, ['minItems', 'maxItems'])) outside();
    const { description: _description, ...member } = schema;
    const members = types.map((type): TypeNode => {
      if (type === 'object') return this.object(member);
      if (type === 'array')
        return { kind: 'array', element: 'items' in member ? this.node(member.items, false) : { kind: 'word', text: 'unknown' } };
      return typeof type === 'string' && Object.hasOwn(PRIMITIVE_WORDS, type) ? { kind: 'word', text: PRIMITIVE_WORDS[type]! } : outside();
    });
    const texts = new Set<string>();
    return { kind: 'union', members: members.filter((node) => !texts.has(typeText(node)) && texts.add(typeText(node))) };
  }

  private literals(schema: Record<string, unknown>): TypeNode {
    if ('enum' in schema && 'const' in schema) outside();
    if (hasAny(schema, ['properties', 'required', 'additionalProperties', 'items', 'minItems', 'maxItems'])) outside();
    // The library reads an enum as literals only beside no type or a primitive one (not `null`). Its normalizer first
    // drops `null` from a type list when the enum holds null (OpenAPI's nullable enum, converted), and reads a list
    // of one as that type.
    let { type } = schema;
    if (Array.isArray(type) && Array.isArray(schema.enum) && schema.enum.includes(null) && type.includes('null'))
      type = type.filter((name) => name !== 'null');
    if (Array.isArray(type) && type.length === 1) type = type[0];
    if (type !== undefined && type !== 'string' && type !== 'number' && type !== 'integer' && type !== 'boolean') outside();
    const values = 'const' in schema ? [schema.const] : schema.enum;
    if (!Array.isArray(values) || values.length === 0) return outside();
    const texts = values.map((value) => {
      if (
        value === null ||
        typeof value === 'string' ||
        typeof value === 'boolean' ||
        (typeof value === 'number' && Number.isFinite(value))
      )
        return JSON.stringify(value);
      return outside();
    });
    return { kind: 'union', members: [...new Set(texts)].map((text) => ({ kind: 'literal', text })) };
  }

  private object(schema: Record<string, unknown>): TypeNode {
    if (hasAny(schema, ['items', 'minItems', 'maxItems'])) outside();
    const { properties, required = [], additionalProperties = this.openByDefault } = schema;
    if (properties !== undefined && !isJsonObject(properties)) outside();
    if (!Array.isArray(required) || !required.every((name) => typeof name === 'string')) outside();
    if (typeof additionalProperties !== 'boolean') outside();
    const members: Member[] = [];
    for (const [key, value] of Object.entries(properties ?? {})) {
      // A property's own `required: true` is the draft-3 flag the library also reads; `__proto__` does not survive its
      // copy, and a property named `$ref` is one its resolver might follow.
      if (key === '__proto__' || key === '$ref' || (isJsonObject(value) && 'required' in value && !Array.isArray(value.required)))
        outside();
      members.push({ key, required: (required as string[]).includes(key), type: this.node(value, false) });
    }
    return { kind: 'interface', members, index: additionalProperties as boolean };
  }
}

const hasAny = (schema: Record<string, unknown>, keys: readonly string[]): boolean => keys.some((key) => key in schema);

/** The library refuses (and schema-types.ts then writes a loose type for) item counts it finds inconsistent. */
function checkItemCounts(schema: Record<string, unknown>): void {
  const { minItems, maxItems } = schema;
  if (minItems !== undefined && (typeof minItems !== 'number' || !Number.isInteger(minItems) || minItems < 0)) outside();
  if (maxItems !== undefined && (typeof maxItems !== 'number' || !Number.isInteger(maxItems) || maxItems < 0)) outside();
  if (typeof minItems === 'number' && typeof maxItems === 'number' && maxItems < minItems) outside();
}

/** An array's description, with the `@minItems`/`@maxItems` lines the library's normalizer appends to it. */
function arrayComment(schema: Record<string, unknown>): string | undefined {
  const description = schema.description as string | undefined;
  const counts = [
    'minItems' in schema ? `@minItems ${String(schema.minItems)}` : '',
    'maxItems' in schema ? `@maxItems ${String(schema.maxItems)}` : '',
  ].filter(Boolean);
  if (counts.length === 0) return description;
  return description ? `${description}\n\n${counts.join('\n')}` : counts.join('\n');
}

function withComment(node: TypeNode, comment: string | undefined): TypeNode {
  // The library escapes a comment's end in every description; schema-types.ts has already escaped it its own way.
  if (comment !== undefined && comment !== '' && node.kind !== 'literal') node.comment = comment.replace(/\*\//g, '* /');
  return node;
}

// The generator: the library's declareNamedTypes, declareNamedInterfaces and generateType, for the nodes above.

function typeText(node: TypeNode, named = true): string {
  if (named && 'name' in node && node.name !== undefined) return node.name;
  switch (node.kind) {
    case 'word':
    case 'literal':
      return node.text;
    case 'array': {
      const element = typeText(node.element);
      return element.endsWith('"') ? `(${element})[]` : `${element}[]`;
    }
    case 'union': {
      const members = node.members.map((member) => typeText(member));
      return members.length === 1 ? members[0]! : `(${members.join(' | ')})`;
    }
    case 'interface':
      return interfaceText(node);
  }
}

function interfaceText(node: TypeNode & { kind: 'interface' }): string {
  const lines = node.members.map((member) => {
    const comment = member.type.kind === 'literal' || member.type.name !== undefined ? undefined : commentWithItems(member.type);
    return `${comment === undefined ? '' : `${docComment(comment)}\n`}${keyText(member.key)}${member.required ? '' : '?'}: ${typeText(member.type)}`;
  });
  if (node.index) lines.push('[k: string]: unknown | undefined');
  return `{\n${lines.join('\n')}\n}`;
}

/** An array's comment, and its unnamed items' description under "Items:" (the library's withItemsComment). */
function commentWithItems(node: TypeNode): string | undefined {
  const own = 'comment' in node ? node.comment : undefined;
  if (node.kind !== 'array') return own;
  const { element } = node;
  const items = element.kind === 'literal' || element.kind === 'array' || element.name !== undefined ? undefined : element.comment;
  if (items === undefined || /(^|\s)@\w/.test(items)) return own;
  return own ? `${own}\n\nItems: ${items}` : `Items: ${items}`;
}

const docComment = (comment: string): string => ['/**', ...comment.split('\n').map((line) => ` * ${line}`), ' */'].join('\n');

const keyText = (key: string): string => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key));

function namedTypes(node: TypeNode, seen: Set<TypeNode>): string {
  if (seen.has(node)) return '';
  seen.add(node);
  const own = (): string | undefined => {
    if (node.kind === 'literal' || node.name === undefined) return undefined;
    const comment = commentWithItems(node);
    return `${comment === undefined ? '' : `${docComment(comment)}\n`}export type ${node.name} = ${typeText(node, false)}`;
  };
  const join = (parts: (string | undefined)[]): string => parts.filter(Boolean).join('\n');
  switch (node.kind) {
    case 'array':
      return join([namedTypes(node.element, seen), own()]);
    case 'interface':
      return join(node.members.map((member) => namedTypes(member.type, seen)));
    case 'union':
      return join([own(), join(node.members.map((member) => namedTypes(member, seen)))]);
    default:
      return own() ?? '';
  }
}

function namedInterfaces(node: TypeNode, seen: Set<TypeNode>): string {
  if (seen.has(node)) return '';
  seen.add(node);
  const join = (parts: (string | undefined | false)[]): string => parts.filter(Boolean).join('\n');
  switch (node.kind) {
    case 'array':
      return namedInterfaces(node.element, seen);
    case 'interface': {
      const own =
        node.name !== undefined &&
        `${node.comment === undefined ? '' : `${docComment(node.comment)}\n`}export interface ${node.name} ${interfaceText(node)}`;
      return join([own, join(node.members.map((member) => namedInterfaces(member.type, seen)))]);
    }
    case 'union':
      return join(node.members.map((member) => namedInterfaces(member, seen)));
    default:
      return '';
  }
}

/**
 * The declarations json-schema-to-typescript gives for `schema` (a copy cleaned by schema-types.ts) under `rootName`,
 * byte for byte, or null when the schema has a shape this printer does not cover. `openByDefault` is the library's
 * `additionalProperties` option.
 */
export function directDeclarations(schema: unknown, rootName: string, openByDefault: boolean): string | null {
  if (!isJsonObject(schema) || !SAFE_NAME.test(rootName)) return null;
  const hasDefs = '$defs' in schema;
  const definitions = hasDefs ? schema.$defs : (schema.definitions ?? {});
  if (!isJsonObject(definitions) || (hasDefs && 'definitions' in schema)) return null;
  try {
    const reader = new Reader(definitions, hasDefs || !('definitions' in schema) ? '#/$defs/' : '#/definitions/', openByDefault, rootName);
    const { $defs: _defs, definitions: _definitions, $schema: _schema, ...rest } = schema;
    reader.readDefinitions();
    const root = reader.node(rest, true);
    if (root.kind === 'literal') return null;
    root.name = rootName;
    const parts = [namedTypes(root, new Set()), namedInterfaces(root, new Set())].filter(Boolean);
    return `${parts.join('\n\n')}\n`;
  } catch (error) {
    if (error instanceof OutsideCover) return null;
    throw error;
  }
}
