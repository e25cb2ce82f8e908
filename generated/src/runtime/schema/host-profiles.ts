// Host profiles: what each MCP host accepts in a tool's inputSchema, as data, plus the transform that makes a schema
// acceptable to a host, the checker that lists what a host would reject, and the mapping of aliased argument keys back.

import { createHash } from 'node:crypto';
import type { JsonObject } from '../shared/contracts.js';
import {
  NAMED_SCHEMA_KEYWORDS,
  namedBooleanSubschemasAsObjects,
  copyOwn,
  forEachSchema,
  inlineRefs,
  inlineRefsExactly,
  mapSubschemas,
  type InlineOptions,
  type SchemaNode,
} from './schema-transform.js';
import { defineOwn, isJsonObject, pointerToken } from '../shared/json-values.js';

export const HOST_PROFILE_NAMES = ['spec', 'claude', 'openai', 'gemini', 'cursor'] as const;
export type HostProfileName = (typeof HOST_PROFILE_NAMES)[number];
export const DEFAULT_HOST_PROFILE: HostProfileName = 'spec';

/** One host's limits on an input schema. Every profile also gets a top-level object with properties. */
export interface HostRules {
  /**
   * A recursive schema keeps its `$ref`s and `$defs` (JSON Schema 2020-12, which MCP 2025-11-25 and 2026-07-28 take):
   * spelled out to a depth it would accept deeper instances the manifest rejects. Refs that can be inlined exactly
   * still are, for hosts that resolve none. False: refs are always inlined, recursion to a depth.
   */
  keepsRecursiveRefs: boolean;
  /** Top-level `oneOf`/`anyOf`/`allOf` are lifted into one object whose properties are the union of the branches'. */
  liftTopLevelUnions: boolean;
  /** Further keywords refused at the top level; dropped there and named in the description. */
  topLevelForbidden: readonly string[];
  /** Top-level property keys must match this; others are advertised under safe aliases and mapped back. */
  propertyKey: RegExp | null;
  /** The only string formats kept; any other `format` is dropped and named in the description. null: all kept. */
  formats: readonly string[] | null;
  /** The only keywords kept anywhere; null: any keyword. */
  keywords: readonly string[] | null;
  /** Keywords removed everywhere. */
  dropped: readonly string[];
  /** `allOf` below the top is merged into the schema that holds it. */
  mergeAllOf: boolean;
  /** `oneOf` is advertised as `anyOf` (the server still checks "exactly one"). */
  oneOfAsAnyOf: boolean;
  /** `const: x` is advertised as `enum: [x]` (same meaning). */
  constAsEnum: boolean;
  /** `type` is one name; `["x", "null"]` becomes `type: "x", nullable: true`, other lists are dropped. */
  singleType: boolean;
  /** An object below the top with no declared properties loses `type` (accepts any value) instead of being rejected. */
  objectsNeedProperties: boolean;
}

/** Formats Anthropic's and OpenAI's structured-output modes document as supported (the smaller of the two lists). */
const COMMON_FORMATS = ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'] as const;

/**
 * Gemini function declarations take an OpenAPI 3.0 `Schema` subset (ai.google.dev API reference, "Schema"): these
 * fields and no others ("Invalid JSON payload received. Unknown name "additionalProperties"").
 */
const GEMINI_KEYWORDS = [
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
] as const;

/**
 * Top-level property keys every profile aliases: the MCP TypeScript SDK (1.32, zod 4) rejects a whole tools/list whose
 * inputSchema.properties has a key `constructor` ("expected record, received object"), and silently drops `__proto__`,
 * so every SDK-based host would lose every tool, or never see that field.
 */
export const SDK_UNSAFE_KEYS: readonly string[] = ['constructor', '__proto__'];

/** Anthropic's Messages API error text: "Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'" (top level only). */
const ANTHROPIC_PROPERTY_KEY = /^[a-zA-Z0-9_.-]{1,64}$/;

export const HOST_RULES: Readonly<Record<HostProfileName, HostRules>> = {
  // The MCP spec (2025-11-25, Tool.inputSchema; 2026-07-28 allows any 2020-12 keyword): any JSON Schema whose top level
  // is `type: "object"`. Only changes that keep meaning: refs inlined unless recursive (see inlineRefsExactly), boolean property schemas spelled as objects, `type`/
  // `properties` added at the top, and the SDK_UNSAFE_KEYS aliased (mapped back before validation, so calls mean the
  // same).
  spec: {
    keepsRecursiveRefs: true,
    liftTopLevelUnions: false,
    topLevelForbidden: [],
    propertyKey: null,
    formats: null,
    keywords: null,
    dropped: [],
    mergeAllOf: false,
    oneOfAsAnyOf: false,
    constAsEnum: false,
    singleType: false,
    objectsNeedProperties: false,
  },
  claude: {
    keepsRecursiveRefs: false,
    // Anthropic Messages API 400: "input_schema does not support oneOf, allOf, or anyOf at the top level"
    // (anthropics/claude-code#5319 and duplicates).
    liftTopLevelUnions: true,
    topLevelForbidden: [],
    // Anthropic Messages API 400: "tools.N.custom.input_schema.properties: Property keys should match pattern …".
    propertyKey: ANTHROPIC_PROPERTY_KEY,
    // Anthropic structured outputs docs ("JSON Schema limitations"): supported string formats; others are refused
    // under strict tool use, and unknown ones are a common source of silent argument mangling.
    formats: [...COMMON_FORMATS, 'uri'],
    keywords: null,
    dropped: [],
    mergeAllOf: false,
    oneOfAsAnyOf: false,
    constAsEnum: false,
    singleType: false,
    objectsNeedProperties: false,
  },
  openai: {
    keepsRecursiveRefs: false,
    // OpenAI 400: "Invalid schema for function 'x': schema must have type 'object' and not have
    // 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level" (langchain-ai/langchainjs#9804).
    liftTopLevelUnions: true,
    topLevelForbidden: ['enum', 'not'],
    // OpenAI documents no property-key limit; Codex and ChatGPT pass the keys through, so none is applied.
    propertyKey: null,
    // OpenAI structured outputs docs, "Supported properties": these string formats; "'uri' is not a valid format"
    // otherwise (posit-dev/chatlas#255).
    formats: COMMON_FORMATS,
    keywords: null,
    dropped: [],
    // OpenAI 400: "In context=('properties', 'data'), 'allOf' is not permitted" (makenotion/notion-mcp-server#102).
    mergeAllOf: true,
    oneOfAsAnyOf: false,
    constAsEnum: false,
    singleType: false,
    objectsNeedProperties: false,
  },
  gemini: {
    keepsRecursiveRefs: false,
    // Gemini function declarations: top-level unions are not an object schema; `anyOf` is the only combinator.
    liftTopLevelUnions: true,
    topLevelForbidden: [],
    // Gemini function-calling docs: parameter names follow the function-name grammar (letters, digits, `_`, `.`,
    // `-`, at most 64); the Anthropic pattern is that grammar.
    propertyKey: ANTHROPIC_PROPERTY_KEY,
    // Gemini API reference, Schema.format: "for STRING type: enum, date-time" (NUMBER: float, double; INTEGER:
    // int32, int64).
    formats: ['enum', 'date-time', 'float', 'double', 'int32', 'int64'],
    keywords: GEMINI_KEYWORDS,
    // promptfoo/promptfoo#6902 ("Unknown name additionalProperties"), google-gemini/gemini-cli#13326 ($defs/$ref).
    dropped: ['additionalProperties', '$schema'],
    mergeAllOf: true,
    oneOfAsAnyOf: true,
    constAsEnum: true,
    // OpenAPI 3.0 Schema: `type` is one name and nullability is `nullable: true`.
    singleType: true,
    // Gemini 400: "properties: should be non-empty for OBJECT type".
    objectsNeedProperties: true,
  },
  // Cursor sends one tool list to whichever model the user picked (Anthropic, OpenAI or Google), so it gets every
  // limit of the three.
  cursor: {
    keepsRecursiveRefs: false,
    liftTopLevelUnions: true,
    topLevelForbidden: ['enum', 'not'],
    propertyKey: ANTHROPIC_PROPERTY_KEY,
    formats: ['date-time'],
    keywords: GEMINI_KEYWORDS,
    dropped: ['additionalProperties', '$schema'],
    mergeAllOf: true,
    oneOfAsAnyOf: true,
    constAsEnum: true,
    singleType: true,
    objectsNeedProperties: true,
  },
};

export function isHostProfileName(value: string): value is HostProfileName {
  return (HOST_PROFILE_NAMES as readonly string[]).includes(value);
}

/** An input schema as one host is shown it, and how to turn that host's arguments back into the manifest's. */
export interface HostInputSchema {
  schema: JsonObject;
  /** Advertised property key → the manifest's key, for the top-level keys that had to be renamed. */
  aliases: Record<string, string>;
}

/** The schema a host is shown for a manifest's input schema (null: no declared parameters). Pure; input untouched. */
export function hostInputSchema(
  input: JsonObject | null | undefined,
  profile: HostProfileName,
  options: InlineOptions = {},
): HostInputSchema {
  const rules = HOST_RULES[profile];
  const inlined = rules.keepsRecursiveRefs ? inlineRefsExactly(input ?? {}, options) : inlineRefs(input ?? {}, options).schema;
  let schema = namedBooleanSubschemasAsObjects(topLevelObject(inlined));
  if (rules.liftTopLevelUnions) schema = liftTopLevelUnions(schema);
  if (rules.topLevelForbidden.length > 0) schema = dropTopLevel(schema, rules.topLevelForbidden);
  if (profile !== 'spec') schema = fitKeywords(schema, rules, true);
  const pattern = rules.propertyKey;
  return aliasPropertyKeys(schema, (key) => !SDK_UNSAFE_KEYS.includes(key) && (pattern === null || pattern.test(key)));
}

/** MCP requires `type: "object"` at the top; `properties` is added because several hosts read it unconditionally. */
function topLevelObject(schema: JsonObject): JsonObject {
  if (schema.type === 'object' && isJsonObject(schema.properties)) return schema;
  return { ...schema, type: 'object', properties: isJsonObject(schema.properties) ? schema.properties : {} };
}

const UNION_KEYWORDS = ['allOf', 'anyOf', 'oneOf'] as const;

/**
 * One object form for a top-level union: the properties of every branch, required only when every form requires
 * them; conditionally required ones say so in their description. Looser than the original: the server validates calls
 * against the original schema.
 */
export function liftTopLevelUnions(root: JsonObject): JsonObject {
  if (!UNION_KEYWORDS.some((keyword) => Array.isArray(root[keyword]))) return root;
  const base: JsonObject = { ...root };
  for (const keyword of UNION_KEYWORDS) delete base[keyword];
  const properties = copyOwn(isJsonObject(root.properties) ? root.properties : {});
  const required = new Set(stringList(root.required));
  const notes: string[] = [];

  if (Array.isArray(root.allOf)) {
    for (const branch of root.allOf) {
      const lifted = isJsonObject(branch) ? liftTopLevelUnions(branch) : {};
      for (const [key, schema] of Object.entries(isJsonObject(lifted.properties) ? lifted.properties : {})) {
        // Every branch must hold, so any one branch's schema for a key already admits every valid value.
        if (!Object.prototype.hasOwnProperty.call(properties, key)) defineOwn(properties, key, schema);
      }
      for (const key of stringList(lifted.required)) required.add(key);
      if (typeof lifted.description === 'string' && lifted.description !== '') notes.push(lifted.description);
    }
  }

  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = root[keyword];
    if (!Array.isArray(branches)) continue;
    const forms = branches.map((branch) => (isJsonObject(branch) ? liftTopLevelUnions(branch) : {}));
    const variants = new Map<string, SchemaNode[]>();
    const requiredIn = new Map<string, number[]>();
    forms.forEach((form, index) => {
      for (const [key, schema] of Object.entries(isJsonObject(form.properties) ? form.properties : {})) {
        if (typeof schema !== 'boolean' && !isJsonObject(schema)) continue;
        const list = variants.get(key) ?? [];
        if (!list.some((known) => JSON.stringify(known) === JSON.stringify(schema))) list.push(schema);
        variants.set(key, list);
      }
      for (const key of stringList(form.required)) requiredIn.set(key, [...(requiredIn.get(key) ?? []), index + 1]);
    });
    for (const [key, list] of variants) {
      if (Object.prototype.hasOwnProperty.call(properties, key)) continue;
      defineOwn(properties, key, list.length === 1 ? list[0] : { anyOf: list });
    }
    const formNames = forms.map(
      (form, index) => `${index + 1}${typeof form.title === 'string' && form.title !== '' ? ` (${form.title})` : ''}`,
    );
    const needs = forms.map((form, index) => `form ${formNames[index]} needs ${stringList(form.required).join(', ') || 'nothing more'}`);
    notes.push(
      `Takes ${keyword === 'oneOf' ? 'exactly one' : 'at least one'} of ${forms.length} forms: ${needs.join('; ')}. The server checks the full rule.`,
    );
    for (const [key, indexes] of requiredIn) {
      if (required.has(key)) continue;
      if (indexes.length === forms.length) {
        required.add(key);
        continue;
      }
      const existing = properties[key];
      const note = `Required in form${indexes.length === 1 ? '' : 's'} ${indexes.join(', ')}.`;
      if (existing === undefined || existing === true) defineOwn(properties, key, { description: note });
      else if (isJsonObject(existing)) defineOwn(properties, key, withDescription(existing, note));
    }
  }

  const lifted: JsonObject = { ...base, type: 'object', properties };
  if (required.size > 0) lifted.required = [...required];
  else delete lifted.required;
  return notes.length > 0 ? withDescription(lifted, notes.join('\n')) : lifted;
}

function dropTopLevel(schema: JsonObject, keywords: readonly string[]): JsonObject {
  const present = keywords.filter((keyword) => keyword in schema);
  if (present.length === 0) return schema;
  const copy = { ...schema };
  for (const keyword of present) delete copy[keyword];
  return withDescription(copy, `(Also constrained by ${present.join(', ')}; the server checks it.)`);
}

/** Applies the keyword-level rules to `node` and everything below it. */
function fitKeywords(node: JsonObject, rules: HostRules, isTop: boolean): JsonObject {
  let schema = node;
  if (rules.mergeAllOf && Array.isArray(schema.allOf)) schema = mergeAllOf(schema);
  if (rules.oneOfAsAnyOf && Array.isArray(schema.oneOf)) {
    const { oneOf, ...rest } = schema;
    const anyOf = Array.isArray(rest.anyOf) ? [...rest.anyOf, ...oneOf] : oneOf;
    schema = { ...rest, anyOf };
  }
  if (rules.constAsEnum && 'const' in schema) {
    const { const: value, ...rest } = schema;
    schema = { ...rest, enum: [value] };
  }
  if (rules.singleType && Array.isArray(schema.type)) {
    const { type, ...rest } = schema;
    const names = type.filter((name): name is string => typeof name === 'string');
    const nonNull = names.filter((name) => name !== 'null');
    schema =
      nonNull.length === 1
        ? { ...rest, type: nonNull[0], ...(names.includes('null') ? { nullable: true } : {}) }
        : withDescription(rest, `(One of the types ${names.join(', ')}.)`);
  }
  if (typeof schema.format === 'string' && rules.formats !== null && !rules.formats.includes(schema.format)) {
    const { format, ...rest } = schema;
    schema = withDescription(rest, `(Format: ${String(format)}.)`);
  }
  const unwanted = Object.keys(schema).filter(
    (key) => rules.dropped.includes(key) || (rules.keywords !== null && !rules.keywords.includes(key)),
  );
  if (unwanted.length > 0) {
    const copy = { ...schema };
    for (const key of unwanted) delete copy[key];
    schema = copy;
  }
  if (
    !isTop &&
    rules.objectsNeedProperties &&
    schema.type === 'object' &&
    (!isJsonObject(schema.properties) || Object.keys(schema.properties).length === 0)
  ) {
    const { type: _type, properties: _properties, ...rest } = schema;
    schema = withDescription(rest, '(A JSON object.)');
  }
  return mapSubschemas(schema, (sub) => {
    if (typeof sub === 'boolean') return rules.keywords === null ? sub : {};
    return fitKeywords(sub, rules, false);
  });
}

/** `allOf` folded into its parent: properties merged (first declaration wins), required united, other keywords first-wins. */
function mergeAllOf(schema: JsonObject): JsonObject {
  const { allOf, ...rest } = schema;
  const merged: JsonObject = { ...rest };
  const properties = copyOwn(isJsonObject(rest.properties) ? rest.properties : {});
  const required = new Set(stringList(rest.required));
  for (const part of Array.isArray(allOf) ? allOf : []) {
    if (!isJsonObject(part)) continue;
    const flat = Array.isArray(part.allOf) ? mergeAllOf(part) : part;
    for (const [key, value] of Object.entries(flat)) {
      if (key === 'properties' && isJsonObject(value)) {
        for (const [name, sub] of Object.entries(value))
          if (!Object.prototype.hasOwnProperty.call(properties, name)) defineOwn(properties, name, sub);
      } else if (key === 'required') {
        for (const name of stringList(value)) required.add(name);
      } else if (!(key in merged)) {
        merged[key] = value;
      }
    }
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

/**
 * Top-level keys that are not `safe` get a safe alias: the key with characters outside `[a-zA-Z0-9_.-]` replaced by
 * `_`, cut to 64; when that is unsafe itself or clashes with another key, the cut base plus 8 hex digits of the key's
 * SHA-256, so an alias depends on its own key and on which keys exist, never on their order.
 */
function aliasPropertyKeys(schema: JsonObject, safe: (key: string) => boolean): HostInputSchema {
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const keys = Object.keys(properties);
  const bad = keys.filter((key) => !safe(key));
  if (bad.length === 0) return { schema, aliases: {} };
  const good = new Set(keys.filter((key) => safe(key)));
  const bases = new Map(bad.map((key) => [key, key.replace(/[^a-zA-Z0-9_.-]/g, '_').slice(0, 64)] as const));
  const baseCounts = new Map<string, number>();
  for (const base of bases.values()) baseCounts.set(base, (baseCounts.get(base) ?? 0) + 1);
  const aliasOf = new Map<string, string>();
  for (const [key, base] of bases) {
    const unique = base !== '' && safe(base) && !good.has(base) && baseCounts.get(base) === 1;
    aliasOf.set(key, unique ? base : `${base.slice(0, 55)}_${createHash('sha256').update(key).digest('hex').slice(0, 8)}`);
  }
  const renamed: JsonObject = {};
  const aliases: Record<string, string> = {};
  for (const key of keys) {
    const alias = aliasOf.get(key);
    const value = properties[key];
    if (alias === undefined) {
      defineOwn(renamed, key, value);
      continue;
    }
    defineOwn(aliases, alias, key);
    const note = `(Stands for the field ${JSON.stringify(key)}.)`;
    defineOwn(
      renamed,
      alias,
      value === true || value === undefined ? { description: note } : isJsonObject(value) ? withDescription(value, note) : value,
    );
  }
  const result: JsonObject = { ...schema, properties: renamed };
  if (Array.isArray(schema.required))
    result.required = schema.required.map((key) => (typeof key === 'string' ? (aliasOf.get(key) ?? key) : key));
  return { schema: result, aliases };
}

/** The manifest's argument keys for arguments a host sent under aliased keys. Pure; anything else is passed as is. */
export function argumentsFromHost(args: unknown, aliases: Readonly<Record<string, string>>): unknown {
  if (!isJsonObject(args) || Object.keys(aliases).length === 0) return args;
  const mapped: JsonObject = {};
  for (const [key, value] of Object.entries(args)) {
    const original = Object.prototype.hasOwnProperty.call(aliases, key) ? aliases[key] : undefined;
    // A key sent both ways keeps the one spelled as the manifest spells it.
    if (original !== undefined && Object.prototype.hasOwnProperty.call(args, original)) continue;
    defineOwn(mapped, original ?? key, value);
  }
  return mapped;
}

/** The reverse of argumentsFromHost: manifest arguments spelled with the keys a host is shown. */
export function argumentsForHost(args: JsonObject, aliases: Readonly<Record<string, string>>): JsonObject {
  const aliasByKey = new Map(Object.entries(aliases).map(([alias, key]) => [key, alias] as const));
  const mapped: JsonObject = {};
  for (const [key, value] of Object.entries(args)) defineOwn(mapped, aliasByKey.get(key) ?? key, value);
  return mapped;
}

/** Every way `schema` breaks `profile`'s rules, as `pointer: problem` lines; empty when the host accepts it. */
export function hostViolations(schema: JsonObject, profile: HostProfileName): string[] {
  const rules = HOST_RULES[profile];
  const problems: string[] = [];
  if (schema.type !== 'object') problems.push(': top-level type is not "object"');
  if (!isJsonObject(schema.properties)) problems.push(': top-level properties missing');
  if (rules.liftTopLevelUnions) {
    for (const keyword of UNION_KEYWORDS) if (keyword in schema) problems.push(`: top-level ${keyword}`);
  }
  for (const keyword of rules.topLevelForbidden) if (keyword in schema) problems.push(`: top-level ${keyword}`);
  if (isJsonObject(schema.properties)) {
    for (const key of Object.keys(schema.properties)) {
      if (rules.propertyKey !== null && !rules.propertyKey.test(key))
        problems.push(`/properties/${pointerToken(key)}: key outside ${String(rules.propertyKey)}`);
      if (SDK_UNSAFE_KEYS.includes(key)) problems.push(`/properties/${pointerToken(key)}: key the MCP SDK rejects or drops`);
    }
  }
  forEachSchema(schema, (node, pointer) => {
    const at = pointer === '' ? '' : pointer;
    if (typeof node === 'boolean') {
      // The MCP SDK rejects a whole tools/list over one boolean under `properties`: every profile spells those as
      // objects; restricted profiles take no boolean schema anywhere.
      if (rules.keywords !== null || NAMED_SCHEMA_KEYWORDS.has(pointer.split('/').at(-2) ?? '')) problems.push(`${at}: boolean schema`);
      return;
    }
    for (const keyword of rules.keepsRecursiveRefs
      ? ['$dynamicRef', '$recursiveRef']
      : ['$ref', '$defs', 'definitions', '$dynamicRef', '$recursiveRef']) {
      if (keyword in node) problems.push(`${at}: ${keyword}`);
    }
    if (typeof node.format === 'string' && rules.formats !== null && !rules.formats.includes(node.format)) {
      problems.push(`${at}: format ${JSON.stringify(node.format)}`);
    }
    for (const key of Object.keys(node)) {
      if (rules.dropped.includes(key)) problems.push(`${at}: ${key}`);
      else if (rules.keywords !== null && !rules.keywords.includes(key)) problems.push(`${at}: keyword ${key}`);
    }
    if (rules.mergeAllOf && 'allOf' in node) problems.push(`${at}: allOf`);
    if (rules.oneOfAsAnyOf && 'oneOf' in node) problems.push(`${at}: oneOf`);
    if (rules.constAsEnum && 'const' in node) problems.push(`${at}: const`);
    if (rules.singleType && node.type !== undefined && typeof node.type !== 'string') problems.push(`${at}: type is not one name`);
    if (
      rules.objectsNeedProperties &&
      at !== '' &&
      node.type === 'object' &&
      (!isJsonObject(node.properties) || Object.keys(node.properties).length === 0)
    ) {
      problems.push(`${at}: object without properties`);
    }
  });
  return problems;
}

function withDescription(schema: JsonObject, note: string): JsonObject {
  const existing = typeof schema.description === 'string' && schema.description !== '' ? `${schema.description}\n` : '';
  return { ...schema, description: `${existing}${note}` };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
