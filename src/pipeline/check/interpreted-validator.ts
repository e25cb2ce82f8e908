// A validator for a tool schema built as a tree of closures, without ajv's code generation, for the schemas whose every
// keyword it knows to mean exactly what ajv (with the server's options) makes of it. Building it is also the proof that
// ajv compiles the schema: anything it is not sure of (an unknown ajv keyword, a reference it cannot follow, a pattern
// the linear engine refuses, `nullable` without `type`…) makes it give up, and the caller compiles with ajv as before.

import equalModule from 'ajv/dist/runtime/equal.js';
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import { linearRegExp } from '../../runtime/schema/linear-regexp.js';
import { isJsonObject } from '../../runtime/shared/json-values.js';
import type { Draft } from './schema-compiler.js';

/** ajv's runtime helpers are CommonJS; under NodeNext their default import is the module object, holding `default`. */
const cjsDefault = <T>(module: unknown): T => (module as { default?: T }).default ?? (module as T);
/** The deep equality ajv's `enum`, `const` and `uniqueItems` use, and the length its `minLength` counts (code points). */
const equal = cjsDefault<(a: unknown, b: unknown) => boolean>(equalModule);
const ucs2length = cjsDefault<(text: string) => number>(ucs2lengthModule);

/** Whether a value satisfies a schema. */
export type Accepts = (value: unknown) => boolean;

/** What the ajv instance of the schema's draft knows. */
export interface Dialect {
  draft: Draft;
  /** ajv's `RULES.all`: every keyword it acts on. Any other key is ignored, as ajv does without strict mode. */
  keywords: Readonly<Record<string, unknown>>;
  /** ajv's formats by name (`ajv.formats`). */
  formats: Readonly<Record<string, unknown>>;
}

/** Thrown while building: the schema holds something this validator does not know ajv's exact reading of. */
class Unproven extends Error {}

const unproven = (): never => {
  throw new Unproven();
};

/**
 * Text that changes how ajv resolves or registers schemas anywhere in the document, even under keywords it ignores
 * (ids, anchors), `$async` (a subschema's fails the compile, the root's makes validation a promise), and own
 * `__proto__` keys, which ajv's maps read in more than one way.
 */
const CONTEXT_KEYS = /"(\$id|\$anchor|\$dynamicAnchor|\$recursiveAnchor|\$async|__proto__)":/;

/** The ajv keywords each draft's validator acts on here (the rest of `RULES.all` makes it give up). */
const HANDLED = new Set([
  '$ref',
  'type',
  'nullable',
  'enum',
  'const',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'multipleOf',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'maxItems',
  'minItems',
  'uniqueItems',
  'items',
  'prefixItems',
  'maxProperties',
  'minProperties',
  'required',
  'properties',
  'patternProperties',
  'additionalProperties',
  'propertyNames',
]);

/** A `$ref` this validator follows: the root or a JSON pointer of plain tokens, which URI resolution leaves as written. */
const PLAIN_REF = /^#(\/([A-Za-z0-9_.$-]|~[01])*)*$/;

const JSON_TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'integer', 'string']);

/** ajv's test of a JSON type (checkDataType), for finite JSON numbers. */
function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'object':
      return isJsonObject(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return typeof value === 'number' && !(value % 1) && !Number.isNaN(value);
    default:
      return typeof value === type;
  }
}

/** A value ajv would store as it is in JSON: anything else (undefined, NaN, class instances) is left to ajv. */
function isJsonValue(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonValue);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(isJsonValue);
}

/**
 * The validator of `schema` (the very object ajv would compile), or null when this one cannot be sure it reads the
 * schema as ajv does, or that ajv compiles it: the schema is then for ajv to compile.
 */
export function interpretedValidator(schema: Record<string, unknown>, dialect: Dialect): Accepts | null {
  if (CONTEXT_KEYS.test(JSON.stringify(schema))) return null;
  try {
    const accepts = new SchemaInterpreter(dialect).root(schema);
    return (value) => isJsonValue(value) && accepts(value);
  } catch (error) {
    if (error instanceof Unproven) return null;
    throw error;
  }
}

/** A numeric bound's failure: the measure of a value against the keyword's number. */
type Exceeds = (measured: number, bound: number) => boolean;

/**
 * The checks of a schema's numeric-bound keywords (`maximum`, `minLength`, `maxItems`, …), each of `measure(value)`
 * against its bound; a bound that is not a number is one ajv refuses to compile.
 */
function boundChecks<T>(node: Record<string, unknown>, measure: (value: T) => number, bounds: Bounds): Array<(value: T) => boolean> {
  const checks: Array<(value: T) => boolean> = [];
  for (const [keyword, exceeds] of bounds) {
    const bound = node[keyword];
    if (bound === undefined) continue;
    if (typeof bound !== 'number') unproven();
    checks.push((value) => !exceeds(measure(value), bound as number));
  }
  return checks;
}

type Bounds = ReadonlyArray<readonly [keyword: string, exceeds: Exceeds]>;

/** Each type's numeric-bound keywords and how a measure exceeds one; made once, not at every node. */
const NUMBER_BOUNDS: Bounds = [
  ['maximum', (value, bound) => value > bound],
  ['minimum', (value, bound) => value < bound],
  ['exclusiveMaximum', (value, bound) => value >= bound],
  ['exclusiveMinimum', (value, bound) => value <= bound],
  // ajv's own test (multipleOf.ts), parseInt of the quotient's text included.
  ['multipleOf', (value, bound) => bound === 0 || value / bound !== parseInt(String(value / bound))],
];
const LENGTH_BOUNDS: Bounds = [
  ['maxLength', (chars, bound) => chars > bound],
  ['minLength', (chars, bound) => chars < bound],
];
const ITEMS_BOUNDS: Bounds = [
  ['maxItems', (length, bound) => length > bound],
  ['minItems', (length, bound) => length < bound],
];
const PROPERTIES_BOUNDS: Bounds = [
  ['maxProperties', (size, bound) => size > bound],
  ['minProperties', (size, bound) => size < bound],
];

class SchemaInterpreter {
  /** Every subschema built, by identity: where a `$ref` may lead (the same object means the same schema anywhere). */
  private readonly built = new Map<unknown, Accepts>();
  private readonly refs: Array<{ ref: string; bind: (accepts: Accepts) => void }> = [];

  constructor(private readonly dialect: Dialect) {}

  root(schema: Record<string, unknown>): Accepts {
    const accepts = this.schema(schema, true);
    for (const { ref, bind } of this.refs) bind(this.built.get(this.target(schema, ref)) ?? unproven());
    return accepts;
  }

  /** What ajv's JSON-pointer resolution finds for a plain `$ref` (own properties only, nothing past a boolean). */
  private target(root: Record<string, unknown>, ref: string): unknown {
    let node: unknown = root;
    for (const token of ref.slice(1).split('/').slice(1)) {
      const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
      if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return unproven();
      node = (node as Record<string, unknown>)[key];
    }
    return node;
  }

  private schema(node: unknown, root = false): Accepts {
    if (typeof node === 'boolean') return this.remember(node, () => node);
    if (!isJsonObject(node)) return unproven();
    for (const key of Object.keys(node)) {
      if (Object.hasOwn(this.dialect.keywords, key) && !HANDLED.has(key)) unproven();
    }
    if (!root && node.$schema !== undefined) unproven();
    this.definitions(node);
    const checks = [this.typeCheck(node), ...this.anyTypeChecks(node), ...this.typedChecks(node)].filter(
      (check): check is Accepts => check !== null,
    );
    return this.remember(node, (value) => checks.every((check) => check(value)));
  }

  private remember(node: unknown, accepts: Accepts): Accepts {
    this.built.set(node, accepts);
    return accepts;
  }

  /** Definitions are compiled by ajv only where referenced; each is built so a `$ref` can find it. */
  private definitions(node: Record<string, unknown>): void {
    // draft-07's meta-schema does not hold `$defs` as schemas: a reference into them is left to ajv.
    for (const keyword of this.dialect.draft === '2020-12' ? ['$defs', 'definitions'] : ['definitions']) {
      const map = node[keyword];
      if (map === undefined) continue;
      if (!isJsonObject(map)) unproven();
      for (const sub of Object.values(map as Record<string, unknown>)) this.schema(sub);
    }
  }

  /** `type` with ajv's `nullable` (getSchemaTypes), and its compile errors as a refusal. */
  private typeCheck(node: Record<string, unknown>): Accepts | null {
    const declared = node.type === undefined ? [] : Array.isArray(node.type) ? [...(node.type as unknown[])] : [node.type];
    if (!declared.every((type) => typeof type === 'string' && JSON_TYPES.has(type))) unproven();
    const types = declared as string[];
    const nullable = node.nullable;
    if (nullable !== undefined && typeof nullable !== 'boolean') unproven();
    if (types.includes('null') ? nullable === false : types.length === 0 && nullable !== undefined) unproven();
    if (nullable === true && !types.includes('null')) types.push('null');
    if (types.length === 0) return null;
    return (value) => types.some((type) => hasType(type, value));
  }

  /** Keywords that apply to a value of any type. */
  private anyTypeChecks(node: Record<string, unknown>): Array<Accepts | null> {
    const checks: Array<Accepts | null> = [];
    if (node.$ref !== undefined) checks.push(this.ref(node.$ref));
    if (node.enum !== undefined) {
      const allowed = node.enum;
      if (!Array.isArray(allowed) || allowed.length === 0) unproven();
      checks.push((value) => (allowed as unknown[]).some((item) => equal(value, item)));
    }
    if (node.const !== undefined) {
      const wanted = node.const;
      checks.push((value) => equal(value, wanted));
    }
    const list = (keyword: string): Accepts[] | null => {
      const items = node[keyword];
      if (items === undefined) return null;
      if (!Array.isArray(items) || items.length === 0) return unproven();
      return items.map((sub) => this.schema(sub));
    };
    const allOf = list('allOf');
    if (allOf) checks.push((value) => allOf.every((accepts) => accepts(value)));
    const anyOf = list('anyOf');
    if (anyOf) checks.push((value) => anyOf.some((accepts) => accepts(value)));
    const oneOf = list('oneOf');
    if (oneOf) checks.push((value) => oneOf.filter((accepts) => accepts(value)).length === 1);
    const not = this.sub(node, 'not');
    if (not) checks.push((value) => !not(value));
    const [condition, then, otherwise] = (['if', 'then', 'else'] as const).map((keyword) => this.sub(node, keyword));
    // ajv ignores `if` without `then` and `else`, and `then` or `else` without `if`.
    if (condition && (then || otherwise))
      checks.push((value) => (condition(value) ? (then?.(value) ?? true) : (otherwise?.(value) ?? true)));
    return checks;
  }

  private sub(node: Record<string, unknown>, keyword: string): Accepts | null {
    return node[keyword] === undefined ? null : this.schema(node[keyword]);
  }

  private ref(ref: unknown): Accepts {
    if (typeof ref !== 'string' || !PLAIN_REF.test(ref)) return unproven();
    let target: Accepts | undefined;
    this.refs.push({ ref, bind: (accepts) => (target = accepts) });
    return (value) => target!(value);
  }

  /** Keywords that apply only to a value of their type, as ajv groups them. */
  private typedChecks(node: Record<string, unknown>): Accepts[] {
    const checks: Accepts[] = [];
    const numbers = this.numberChecks(node);
    if (numbers.length > 0) checks.push((value) => typeof value !== 'number' || numbers.every((check) => check(value)));
    const strings = this.stringChecks(node);
    if (strings.length > 0) checks.push((value) => typeof value !== 'string' || strings.every((check) => check(value)));
    const arrays = this.arrayChecks(node);
    if (arrays.length > 0) checks.push((value) => !Array.isArray(value) || arrays.every((check) => check(value)));
    const objects = this.objectChecks(node);
    if (objects.length > 0) checks.push((value) => !isJsonObject(value) || objects.every((check) => check(value)));
    return checks;
  }

  private numberChecks(node: Record<string, unknown>): Array<(value: number) => boolean> {
    const checks = boundChecks<number>(node, (value) => value, NUMBER_BOUNDS);
    const format = this.format(node, 'number');
    if (format) checks.push(format);
    return checks;
  }

  private stringChecks(node: Record<string, unknown>): Array<(value: string) => boolean> {
    const checks = boundChecks<string>(node, ucs2length, LENGTH_BOUNDS);
    if (node.pattern !== undefined) {
      const pattern = this.pattern(node.pattern);
      checks.push((value) => pattern.test(value));
    }
    const format = this.format(node, 'string');
    if (format) checks.push(format);
    return checks;
  }

  /** The pattern as ajv runs it (usePattern: the server's engine, unicode flag); one the engine refuses fails ajv's compile. */
  private pattern(source: unknown): { test(text: string): boolean } {
    if (typeof source !== 'string') return unproven();
    try {
      return linearRegExp(source, 'u');
    } catch {
      return unproven();
    }
  }

  /** ajv's format keyword (format.ts): an unknown format is ignored, a known one applies to values of its type. */
  private format<T>(node: Record<string, unknown>, type: 'number' | 'string'): ((value: T) => boolean) | null {
    const name = node.format;
    if (name === undefined) return null;
    if (typeof name !== 'string') return unproven();
    const formats = this.dialect.formats;
    if (!Object.hasOwn(formats, name)) return name in formats ? unproven() : null;
    const definition = formats[name];
    if (definition === true) return null;
    let formatType = 'string';
    let test: unknown = definition;
    if (definition !== null && typeof definition === 'object' && !(definition instanceof RegExp)) {
      const { type: declared, validate, async } = definition as { type?: unknown; validate?: unknown; async?: unknown };
      if (async) return unproven();
      formatType = typeof declared === 'string' && declared !== '' ? declared : 'string';
      test = validate;
    }
    if (formatType !== type) return null;
    if (typeof test === 'function') return (value) => Boolean((test as (value: T) => unknown)(value));
    if (test instanceof RegExp) return (value) => test.test(value as string);
    return unproven();
  }

  private arrayChecks(node: Record<string, unknown>): Array<(value: unknown[]) => boolean> {
    const checks = boundChecks<unknown[]>(node, (value) => value.length, ITEMS_BOUNDS);
    if (node.uniqueItems !== undefined) {
      if (typeof node.uniqueItems !== 'boolean') unproven();
      if (node.uniqueItems) checks.push((value) => value.every((item, at) => value.findIndex((other) => equal(item, other)) === at));
    }
    const tuple = this.dialect.draft === '2020-12' ? node.prefixItems : Array.isArray(node.items) ? node.items : undefined;
    let first = 0;
    if (tuple !== undefined) {
      if (!Array.isArray(tuple)) unproven();
      const positions = (tuple as unknown[]).map((sub) => this.schema(sub));
      first = positions.length;
      checks.push((value) => positions.every((accepts, index) => index >= value.length || accepts(value[index])));
    }
    if (node.items !== undefined && !Array.isArray(node.items)) {
      const each = this.schema(node.items);
      // draft-07 `items` as one schema applies to every item; 2020-12's to the items after `prefixItems`.
      const from = this.dialect.draft === '2020-12' ? first : 0;
      checks.push((value) => value.every((item, index) => index < from || each(item)));
    }
    return checks;
  }

  /** Keys are iterated as ajv does with ownProperties (`Object.keys`). */
  private objectChecks(node: Record<string, unknown>): Array<(value: Record<string, unknown>) => boolean> {
    const checks = boundChecks<Record<string, unknown>>(node, (value) => Object.keys(value).length, PROPERTIES_BOUNDS);
    // ajv's propertyInData with ownProperties: an own property whose value is not undefined.
    const present = (value: Record<string, unknown>, key: string): boolean => value[key] !== undefined && Object.hasOwn(value, key);
    if (node.required !== undefined) {
      const required = node.required;
      if (!Array.isArray(required) || !required.every((key) => typeof key === 'string')) unproven();
      checks.push((value) => (required as string[]).every((key) => present(value, key)));
    }
    const properties = this.schemaMap(node, 'properties');
    if (properties.size > 0) checks.push((value) => [...properties].every(([key, accepts]) => !present(value, key) || accepts(value[key])));
    const patterns = [...this.schemaMap(node, 'patternProperties')].map(([source, accepts]) => ({
      pattern: this.pattern(source),
      accepts,
    }));
    if (patterns.length > 0) {
      checks.push((value) => {
        for (const key of Object.keys(value))
          if (!patterns.every(({ pattern, accepts }) => !pattern.test(key) || accepts(value[key]))) return false;
        return true;
      });
    }
    if (node.additionalProperties !== undefined) {
      const additional = this.schema(node.additionalProperties);
      const isAdditional = (key: string): boolean => !properties.has(key) && !patterns.some(({ pattern }) => pattern.test(key));
      checks.push((value) => {
        for (const key of Object.keys(value)) if (isAdditional(key) && !additional(value[key])) return false;
        return true;
      });
    }
    if (node.propertyNames !== undefined) {
      const names = this.schema(node.propertyNames);
      checks.push((value) => {
        for (const key of Object.keys(value)) if (!names(key)) return false;
        return true;
      });
    }
    return checks;
  }

  private schemaMap(node: Record<string, unknown>, keyword: string): Map<string, Accepts> {
    const map = node[keyword];
    if (map === undefined) return new Map();
    if (!isJsonObject(map)) return unproven();
    return new Map(Object.entries(map).map(([key, sub]) => [key, this.schema(sub)]));
  }
}
