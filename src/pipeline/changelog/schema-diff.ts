// Field-by-field comparison of two JSON Schemas (a tool's input or output, before and after): what changed, where
// (JSON pointer of the schema node), and whether the set of values the schema accepts got smaller or larger.

import { isDeepStrictEqual } from 'node:util';
import { pointerSegment } from '../problems.js';

/** What a change does to the set of values the schema accepts; `annotation` changes no value's validity. */
export type Effect = 'tightened' | 'loosened' | 'changed' | 'annotation';

export type SchemaChangeKind =
  | 'property-added'
  | 'property-removed'
  | 'required-added'
  | 'required-removed'
  | 'type-changed'
  | 'enum-added'
  | 'enum-removed'
  | 'enum-values-added'
  | 'enum-values-removed'
  | 'format-changed'
  | 'pattern-changed'
  | 'constraint-changed'
  | 'additional-properties-changed'
  | 'variant-added'
  | 'variant-removed'
  | 'default-changed'
  | 'description-changed'
  | 'deprecated-added'
  | 'deprecated-removed'
  | 'keyword-changed';

export interface SchemaChange {
  kind: SchemaChangeKind;
  /** JSON pointer of the schema node the change sits on: `/properties/tasks/items/properties/cli`, '' for the root. */
  pointer: string;
  /** The JSON Schema keyword that changed (`type`, `enum`, `required`, `maxLength`, …). */
  keyword: string;
  effect: Effect;
  /** For property-added/removed: whether the property is (was) required. */
  required?: boolean;
  before?: unknown;
  after?: unknown;
}

type SchemaNode = Record<string, unknown>;

/** Keywords that only document; a change to them never changes which values are valid. */
const ANNOTATION_KEYWORDS = new Set(['title', 'description']);
/** Validation keywords without a finer rule: any change is reported as `changed`. Keywords not named anywhere here
 * (`examples`, `$comment`, `$defs`, which is compared through its $refs, …) are not compared. Those holding a schema
 * are compared through their $refs (the same schema spelled inline or through a ref is no change); the others as text. */
const OTHER_SCHEMA_KEYWORDS = ['not', 'if', 'then', 'else', 'propertyNames', 'contains', 'unevaluatedItems', 'contentSchema'];
const OTHER_VALUE_KEYWORDS = ['contentEncoding', 'contentMediaType', '$dynamicRef', '$recursiveRef', '$ref'];
const LOWER_BOUNDS = ['minLength', 'minItems', 'minProperties', 'minContains'];
const UPPER_BOUNDS = ['maxLength', 'maxItems', 'maxProperties', 'maxContains'];
/** A number's lower and upper bound, each spelled by an inclusive and an exclusive keyword that together make one bound. */
const NUMERIC_BOUNDS = [
  ['lower', 'minimum', 'exclusiveMinimum'],
  ['upper', 'maximum', 'exclusiveMaximum'],
] as const;
const ALL_TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];

const isObject = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && !Array.isArray(value);
const has = (node: SchemaNode, key: string): boolean => Object.prototype.hasOwnProperty.call(node, key);
const get = (node: SchemaNode, key: string): unknown => (has(node, key) ? node[key] : undefined);

/** `true` accepts everything, `false` nothing; both become objects so every rule below sees one shape. */
function asNode(schema: unknown): SchemaNode {
  if (schema === false) return { type: [] };
  return isObject(schema) ? schema : {};
}

/** Follows an internal `#...` pointer within the root schema; undefined when it does not resolve. */
function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isObject(node) && has(node, segment)) node = node[segment];
    else return undefined;
  }
  return node;
}

/** The node with its internal $ref chain followed (siblings of $ref kept) and the refs it went through. */
function dereference(root: unknown, schema: unknown): { node: SchemaNode; refs: string[] } {
  let node = asNode(schema);
  const refs: string[] = [];
  while (typeof node.$ref === 'string') {
    const ref = node.$ref;
    const target = resolvePointer(root, ref);
    // An unresolvable or cyclic ref-to-ref chain stays as written; its $ref text is then compared like a keyword.
    if (target === undefined || refs.includes(ref)) break;
    refs.push(ref);
    // Keywords beside $ref win over the target's same keywords: a simplification (2020-12 applies both), enough to
    // compare two versions of one schema.
    const { $ref: _followed, ...siblings } = node;
    node = { ...asNode(target), ...siblings };
  }
  return { node, refs };
}

function typeSet(node: SchemaNode): Set<string> | null {
  const type = get(node, 'type');
  if (typeof type === 'string') return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((t): t is string => typeof t === 'string'));
  return null;
}

/** The JSON Schema type of a value (`integer` for whole numbers). */
function typeOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * The types a node can accept: its `type`, narrowed to the types of its `enum`/`const` values when it lists them, so
 * `{type: "string", enum: ["a"]}` and `{enum: ["a"]}` accept the same type (null = any type).
 */
function acceptedTypes(node: SchemaNode): Set<string> | null {
  const declared = typeSet(node);
  const values = allowedValues(node);
  if (values === null) return declared;
  const valueTypes = new Set(values.values.map(typeOfValue));
  return new Set([...valueTypes].filter((t) => coversTypes(declared, new Set([t]))));
}

/** Every type of `inner` is accepted by `outer` (null = any type; `number` accepts integers). */
function coversTypes(outer: Set<string> | null, inner: Set<string> | null): boolean {
  if (outer === null) return true;
  const innerTypes = inner ?? new Set(ALL_TYPES);
  return [...innerTypes].every((t) => outer.has(t) || (t === 'integer' && outer.has('number')));
}

function allowedValues(node: SchemaNode): { keyword: string; values: unknown[] } | null {
  if (has(node, 'const')) return { keyword: 'const', values: [node.const] };
  if (Array.isArray(node.enum)) return { keyword: 'enum', values: node.enum };
  return null;
}

const containsValue = (values: readonly unknown[], value: unknown): boolean => values.some((v) => isDeepStrictEqual(v, value));

function requiredNames(node: SchemaNode): Set<string> {
  return new Set(Array.isArray(node.required) ? node.required.filter((r): r is string => typeof r === 'string') : []);
}

/** How `additionalProperties` (or `unevaluatedProperties`) limits unlisted properties. */
function extraPropertiesRule(value: unknown): 'open' | 'closed' | 'schema' {
  if (value === undefined || value === true || (isObject(value) && Object.keys(value).length === 0)) return 'open';
  if (value === false) return 'closed';
  return 'schema';
}

const RULE_OPENNESS = { closed: 0, schema: 1, open: 2 } as const;

interface NumericBound {
  value: number;
  exclusive: boolean;
}

/**
 * The bound a node puts on numbers on one side: the stricter of its inclusive and exclusive keyword (null: none);
 * undefined when a keyword is not a number (draft-04's boolean `exclusiveMinimum`), which is compared keyword by keyword.
 */
function numericBound(node: SchemaNode, side: 'lower' | 'upper', inclusive: string, exclusive: string): NumericBound | null | undefined {
  const candidates: NumericBound[] = [];
  for (const [keyword, isExclusive] of [
    [inclusive, false],
    [exclusive, true],
  ] as const) {
    const value = get(node, keyword);
    if (value === undefined) continue;
    if (typeof value !== 'number') return undefined;
    candidates.push({ value, exclusive: isExclusive });
  }
  const stricter = (x: NumericBound, y: NumericBound): NumericBound => {
    if (x.value !== y.value) return (side === 'lower') === x.value > y.value ? x : y;
    return x.exclusive ? x : y;
  };
  return candidates.length === 0 ? null : candidates.reduce(stricter);
}

/** How a bound changed: null when it means the same, undefined when it cannot be told (compare the keywords instead). */
function numericBoundEffect(
  side: 'lower' | 'upper',
  before: NumericBound | null | undefined,
  after: NumericBound | null | undefined,
): Effect | null | undefined {
  if (before === undefined || after === undefined) return undefined;
  if (before === null && after === null) return null;
  if (before === null) return 'tightened';
  if (after === null) return 'loosened';
  if (before.value === after.value) return before.exclusive === after.exclusive ? null : after.exclusive ? 'tightened' : 'loosened';
  return (side === 'lower') === after.value > before.value ? 'tightened' : 'loosened';
}

/**
 * An array schema's tuple and the schema for the items after it, whichever draft spells them: draft-07's `items`
 * array and `additionalItems`, or 2020-12's `prefixItems` and `items`.
 */
function arrayForm(node: SchemaNode): { tuple?: unknown[]; tupleKeyword: string; rest: unknown; restKeyword: string } {
  if (Array.isArray(node.items))
    return { tuple: node.items, tupleKeyword: 'items', rest: get(node, 'additionalItems'), restKeyword: 'additionalItems' };
  const tuple = Array.isArray(node.prefixItems) ? node.prefixItems : undefined;
  return { ...(tuple === undefined ? {} : { tuple }), tupleKeyword: 'prefixItems', rest: get(node, 'items'), restKeyword: 'items' };
}

/**
 * Property dependencies, whichever draft spells them: draft-07's `dependencies` holds both the names a property
 * requires (an array) and the schema it brings (a schema), which 2020-12 splits into `dependentRequired` and
 * `dependentSchemas`. Required names are sorted: their order means nothing.
 */
function dependencyForm(node: SchemaNode): { required: Record<string, string[]>; schemas: Record<string, unknown> } {
  const required: Record<string, string[]> = {};
  const schemas: Record<string, unknown> = {};
  const addRequired = (name: string, names: unknown[]) => {
    required[name] = [...new Set([...(required[name] ?? []), ...names.filter((n): n is string => typeof n === 'string')])].sort();
  };
  if (isObject(node.dependencies)) {
    for (const [name, value] of Object.entries(node.dependencies)) {
      if (Array.isArray(value)) addRequired(name, value);
      else schemas[name] = value;
    }
  }
  if (isObject(node.dependentRequired))
    for (const [name, value] of Object.entries(node.dependentRequired)) if (Array.isArray(value)) addRequired(name, value);
  if (isObject(node.dependentSchemas)) for (const [name, value] of Object.entries(node.dependentSchemas)) schemas[name] = value;
  return { required, schemas };
}

/** Of the keywords that may spell a thing, the one `node` uses (the first one when it uses none). */
const spelledAs = (node: SchemaNode, keywords: readonly string[]): string => keywords.find((k) => has(node, k)) ?? keywords[0]!;

class SchemaComparison {
  readonly changes: SchemaChange[] = [];
  /** Pairs of $ref chains being compared on the current path: a recursive schema is compared once per path. */
  private readonly activeRefPairs = new Set<string>();

  constructor(
    private readonly rootBefore: unknown,
    private readonly rootAfter: unknown,
  ) {}

  private add(change: SchemaChange): void {
    this.changes.push(change);
  }

  /**
   * Whether two subschemas accept the same values as far as this comparison can tell: no change between them, with
   * their $refs followed (text equality would miss a changed definition behind an unchanged `$ref`). The $ref chains
   * on the current path stay in force, so a recursive schema still ends.
   */
  private equivalent(beforeSchema: unknown, afterSchema: unknown): boolean {
    const probe = new SchemaComparison(this.rootBefore, this.rootAfter);
    for (const pair of this.activeRefPairs) probe.activeRefPairs.add(pair);
    probe.compare(beforeSchema, afterSchema, '');
    return probe.changes.length === 0;
  }

  compare(beforeSchema: unknown, afterSchema: unknown, pointer: string): void {
    const before = dereference(this.rootBefore, beforeSchema);
    const after = dereference(this.rootAfter, afterSchema);
    const refPair = before.refs.length + after.refs.length > 0 ? `${before.refs.join(' ')}\u0000${after.refs.join(' ')}` : null;
    if (refPair !== null) {
      if (this.activeRefPairs.has(refPair)) return;
      this.activeRefPairs.add(refPair);
    }
    this.compareNodes(before.node, after.node, pointer);
    if (refPair !== null) this.activeRefPairs.delete(refPair);
  }

  private compareNodes(a: SchemaNode, b: SchemaNode, pointer: string): void {
    this.compareAnnotations(a, b, pointer);
    this.compareTypes(a, b, pointer);
    this.compareValues(a, b, pointer);
    for (const keyword of ['format', 'pattern'] as const) this.compareTextConstraint(a, b, pointer, keyword);
    this.compareBounds(a, b, pointer);
    this.compareProperties(a, b, pointer);
    for (const keyword of ['additionalProperties', 'unevaluatedProperties']) this.compareExtraProperties(a, b, pointer, keyword);
    this.compareItems(a, b, pointer);
    this.compareSchemaMaps(a, b, pointer, 'patternProperties');
    for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) this.compareVariants(a, b, pointer, keyword);
    this.compareDependencies(a, b, pointer);
    for (const keyword of OTHER_SCHEMA_KEYWORDS) {
      const before = get(a, keyword);
      const after = get(b, keyword);
      if (before === undefined && after === undefined) continue;
      if (before === undefined || after === undefined || !this.equivalent(before, after)) {
        this.add({ kind: 'keyword-changed', pointer, keyword, effect: 'changed', before, after });
      }
    }
    for (const keyword of OTHER_VALUE_KEYWORDS) {
      if (!isDeepStrictEqual(get(a, keyword), get(b, keyword))) {
        this.add({ kind: 'keyword-changed', pointer, keyword, effect: 'changed', before: get(a, keyword), after: get(b, keyword) });
      }
    }
  }

  /** `dependencies` (draft-07) against `dependentRequired` and `dependentSchemas` (2020-12), by meaning, not spelling. */
  private compareDependencies(a: SchemaNode, b: SchemaNode, pointer: string): void {
    const before = dependencyForm(a);
    const after = dependencyForm(b);
    if (!isDeepStrictEqual(before.required, after.required)) {
      const keyword = spelledAs(b, ['dependentRequired', 'dependencies']);
      this.add({ kind: 'keyword-changed', pointer, keyword, effect: 'changed', before: before.required, after: after.required });
    }
    const names = [...new Set([...Object.keys(after.schemas), ...Object.keys(before.schemas)])];
    const same = names.every(
      (name) => has(before.schemas, name) && has(after.schemas, name) && this.equivalent(before.schemas[name], after.schemas[name]),
    );
    if (!same) {
      const keyword = spelledAs(b, ['dependentSchemas', 'dependencies']);
      this.add({ kind: 'keyword-changed', pointer, keyword, effect: 'changed', before: before.schemas, after: after.schemas });
    }
  }

  private compareAnnotations(a: SchemaNode, b: SchemaNode, pointer: string): void {
    for (const keyword of ANNOTATION_KEYWORDS) {
      if (!isDeepStrictEqual(get(a, keyword), get(b, keyword))) {
        this.add({ kind: 'description-changed', pointer, keyword, effect: 'annotation', before: get(a, keyword), after: get(b, keyword) });
      }
    }
    const wasDeprecated = get(a, 'deprecated') === true;
    const isDeprecated = get(b, 'deprecated') === true;
    if (wasDeprecated !== isDeprecated) {
      this.add({
        kind: isDeprecated ? 'deprecated-added' : 'deprecated-removed',
        pointer,
        keyword: 'deprecated',
        effect: 'annotation',
        before: wasDeprecated,
        after: isDeprecated,
      });
    }
    if (!isDeepStrictEqual(get(a, 'default'), get(b, 'default'))) {
      this.add({
        kind: 'default-changed',
        pointer,
        keyword: 'default',
        effect: 'annotation',
        before: get(a, 'default'),
        after: get(b, 'default'),
      });
    }
  }

  /** A change of `type` that changes the types accepted; one that only the enum values change is their change. */
  private compareTypes(a: SchemaNode, b: SchemaNode, pointer: string): void {
    const before = typeSet(a);
    const after = typeSet(b);
    if (coversTypes(after, before) && coversTypes(before, after)) return;
    const widened = coversTypes(acceptedTypes(b), acceptedTypes(a));
    const narrowed = coversTypes(acceptedTypes(a), acceptedTypes(b));
    if (widened && narrowed) return;
    const effect: Effect = widened ? 'loosened' : narrowed ? 'tightened' : 'changed';
    this.add({
      kind: 'type-changed',
      pointer,
      keyword: 'type',
      effect,
      before: before === null ? undefined : (get(a, 'type') ?? []),
      after: after === null ? undefined : (get(b, 'type') ?? []),
    });
  }

  private compareValues(a: SchemaNode, b: SchemaNode, pointer: string): void {
    const before = allowedValues(a);
    const after = allowedValues(b);
    if (before === null && after === null) return;
    if (before === null && after !== null) {
      this.add({ kind: 'enum-added', pointer, keyword: after.keyword, effect: 'tightened', after: after.values });
      return;
    }
    if (before !== null && after === null) {
      this.add({ kind: 'enum-removed', pointer, keyword: before.keyword, effect: 'loosened', before: before.values });
      return;
    }
    const added = after!.values.filter((v) => !containsValue(before!.values, v));
    const removed = before!.values.filter((v) => !containsValue(after!.values, v));
    const keyword = after!.keyword;
    if (added.length > 0) this.add({ kind: 'enum-values-added', pointer, keyword, effect: 'loosened', after: added });
    if (removed.length > 0) this.add({ kind: 'enum-values-removed', pointer, keyword, effect: 'tightened', before: removed });
  }

  private compareTextConstraint(a: SchemaNode, b: SchemaNode, pointer: string, keyword: 'format' | 'pattern'): void {
    const before = get(a, keyword);
    const after = get(b, keyword);
    if (isDeepStrictEqual(before, after)) return;
    const effect: Effect = before === undefined ? 'tightened' : after === undefined ? 'loosened' : 'changed';
    this.add({ kind: keyword === 'format' ? 'format-changed' : 'pattern-changed', pointer, keyword, effect, before, after });
  }

  private compareBounds(a: SchemaNode, b: SchemaNode, pointer: string): void {
    const bound = (keyword: string, effectOf: (before: number, after: number) => Effect) => {
      const before = get(a, keyword);
      const after = get(b, keyword);
      if (isDeepStrictEqual(before, after)) return;
      let effect: Effect;
      if (typeof before === 'number' && typeof after === 'number') effect = effectOf(before, after);
      else if (before === undefined && typeof after === 'number') effect = 'tightened';
      else if (typeof before === 'number' && after === undefined) effect = 'loosened';
      else effect = 'changed'; // draft-04 boolean exclusiveMinimum and the like
      this.add({ kind: 'constraint-changed', pointer, keyword, effect, before, after });
    };
    for (const [side, inclusive, exclusive] of NUMERIC_BOUNDS) {
      const effect = numericBoundEffect(side, numericBound(a, side, inclusive, exclusive), numericBound(b, side, inclusive, exclusive));
      if (effect === undefined) {
        for (const keyword of [inclusive, exclusive])
          bound(keyword, (before, after) => ((side === 'lower' ? after > before : after < before) ? 'tightened' : 'loosened'));
        continue;
      }
      // The same bound respelled (`minimum` beside a weaker `exclusiveMinimum`, say) is no change.
      if (effect === null) continue;
      for (const keyword of [inclusive, exclusive]) {
        const before = get(a, keyword);
        const after = get(b, keyword);
        if (!isDeepStrictEqual(before, after)) this.add({ kind: 'constraint-changed', pointer, keyword, effect, before, after });
      }
    }
    for (const keyword of LOWER_BOUNDS) bound(keyword, (before, after) => (after > before ? 'tightened' : 'loosened'));
    for (const keyword of UPPER_BOUNDS) bound(keyword, (before, after) => (after < before ? 'tightened' : 'loosened'));
    // Multiples of 4 are multiples of 2 (tightened), multiples of 2 include those of 4 (loosened); 2 and 3 each let in
    // numbers the other rejects.
    bound('multipleOf', (before, after) =>
      Number.isInteger(after / before) ? 'tightened' : Number.isInteger(before / after) ? 'loosened' : 'changed',
    );
    const uniqueBefore = get(a, 'uniqueItems') === true;
    const uniqueAfter = get(b, 'uniqueItems') === true;
    if (uniqueBefore !== uniqueAfter) {
      this.add({
        kind: 'constraint-changed',
        pointer,
        keyword: 'uniqueItems',
        effect: uniqueAfter ? 'tightened' : 'loosened',
        before: uniqueBefore,
        after: uniqueAfter,
      });
    }
  }

  private compareProperties(a: SchemaNode, b: SchemaNode, pointer: string): void {
    const before = isObject(a.properties) ? a.properties : {};
    const after = isObject(b.properties) ? b.properties : {};
    const requiredBefore = requiredNames(a);
    const requiredAfter = requiredNames(b);
    for (const name of Object.keys(after)) {
      const at = `${pointer}/properties/${pointerSegment(name)}`;
      if (!has(before, name)) {
        this.add({
          kind: 'property-added',
          pointer: at,
          keyword: 'properties',
          effect: requiredAfter.has(name) ? 'tightened' : 'loosened',
          required: requiredAfter.has(name),
        });
        continue;
      }
      this.compareRequired(requiredBefore.has(name), requiredAfter.has(name), at);
      this.compare(before[name], after[name], at);
    }
    for (const name of Object.keys(before)) {
      if (has(after, name)) continue;
      const at = `${pointer}/properties/${pointerSegment(name)}`;
      this.add({ kind: 'property-removed', pointer: at, keyword: 'properties', effect: 'changed', required: requiredBefore.has(name) });
    }
    // Required names with no declared property on either side (a bare `required: ["x"]`).
    const undeclared = [...new Set([...requiredAfter, ...requiredBefore])].filter((name) => !has(before, name) && !has(after, name));
    for (const name of undeclared)
      this.compareRequired(requiredBefore.has(name), requiredAfter.has(name), `${pointer}/properties/${pointerSegment(name)}`);
  }

  private compareRequired(wasRequired: boolean, isRequired: boolean, pointer: string): void {
    if (wasRequired === isRequired) return;
    this.add({
      kind: isRequired ? 'required-added' : 'required-removed',
      pointer,
      keyword: 'required',
      effect: isRequired ? 'tightened' : 'loosened',
    });
  }

  private compareExtraProperties(a: SchemaNode, b: SchemaNode, pointer: string, keyword: string): void {
    const before = get(a, keyword);
    const after = get(b, keyword);
    const ruleBefore = extraPropertiesRule(before);
    const ruleAfter = extraPropertiesRule(after);
    if (ruleBefore === 'schema' && ruleAfter === 'schema') {
      this.compare(before, after, `${pointer}/${keyword}`);
      return;
    }
    if (ruleBefore === ruleAfter) return;
    const effect: Effect = RULE_OPENNESS[ruleAfter] < RULE_OPENNESS[ruleBefore] ? 'tightened' : 'loosened';
    this.add({ kind: 'additional-properties-changed', pointer, keyword, effect, before, after });
  }

  /**
   * Tuple and rest items by meaning, so a draft-07 and a 2020-12 spelling of one array schema are no change. A position
   * only one side's tuple names is held by the other side's rest schema there: a tuple item added after open rest items
   * narrows that position, one dropped widens it.
   */
  private compareItems(a: SchemaNode, b: SchemaNode, pointer: string): void {
    const before = arrayForm(a);
    const after = arrayForm(b);
    const tupleBefore = before.tuple ?? [];
    const tupleAfter = after.tuple ?? [];
    for (let index = 0; index < Math.max(tupleBefore.length, tupleAfter.length); index++) {
      const keyword = index < tupleAfter.length ? after.tupleKeyword : before.tupleKeyword;
      const itemBefore = index < tupleBefore.length ? tupleBefore[index] : (before.rest ?? true);
      const itemAfter = index < tupleAfter.length ? tupleAfter[index] : (after.rest ?? true);
      this.compare(itemBefore, itemAfter, `${pointer}/${keyword}/${index}`);
    }
    if (before.rest !== undefined || after.rest !== undefined) {
      this.compare(
        before.rest ?? true,
        after.rest ?? true,
        `${pointer}/${after.rest !== undefined ? after.restKeyword : before.restKeyword}`,
      );
    }
  }

  private compareSchemaMaps(a: SchemaNode, b: SchemaNode, pointer: string, keyword: string): void {
    const before = isObject(a[keyword]) ? (a[keyword] as SchemaNode) : {};
    const after = isObject(b[keyword]) ? (b[keyword] as SchemaNode) : {};
    for (const key of Object.keys(after)) {
      const at = `${pointer}/${keyword}/${pointerSegment(key)}`;
      if (has(before, key)) this.compare(before[key], after[key], at);
      else this.add({ kind: 'keyword-changed', pointer: at, keyword, effect: 'changed', after: after[key] });
    }
    for (const key of Object.keys(before)) {
      if (!has(after, key))
        this.add({
          kind: 'keyword-changed',
          pointer: `${pointer}/${keyword}/${pointerSegment(key)}`,
          keyword,
          effect: 'changed',
          before: before[key],
        });
    }
  }

  /** Variants that accept the same values on both sides ($refs followed) are matched first; the rest are paired in order, leftovers added or removed. */
  private compareVariants(a: SchemaNode, b: SchemaNode, pointer: string, keyword: 'anyOf' | 'oneOf' | 'allOf'): void {
    const before = Array.isArray(a[keyword]) ? (a[keyword] as unknown[]) : [];
    const after = Array.isArray(b[keyword]) ? (b[keyword] as unknown[]) : [];
    const matchedBefore = new Set<number>();
    const unmatchedAfter: number[] = [];
    after.forEach((variant, index) => {
      const match = before.findIndex((candidate, i) => !matchedBefore.has(i) && this.equivalent(candidate, variant));
      if (match >= 0) matchedBefore.add(match);
      else unmatchedAfter.push(index);
    });
    const unmatchedBefore = before.map((_, i) => i).filter((i) => !matchedBefore.has(i));
    const paired = Math.min(unmatchedBefore.length, unmatchedAfter.length);
    for (let i = 0; i < paired; i++)
      this.compare(before[unmatchedBefore[i]!], after[unmatchedAfter[i]!], `${pointer}/${keyword}/${unmatchedAfter[i]}`);
    // One more anyOf/oneOf branch accepts more values; one more allOf member accepts fewer.
    const addedEffect: Effect = keyword === 'allOf' ? 'tightened' : 'loosened';
    const removedEffect: Effect = keyword === 'allOf' ? 'loosened' : 'tightened';
    for (const index of unmatchedAfter.slice(paired))
      this.add({ kind: 'variant-added', pointer: `${pointer}/${keyword}/${index}`, keyword, effect: addedEffect, after: after[index] });
    for (const index of unmatchedBefore.slice(paired))
      this.add({
        kind: 'variant-removed',
        pointer: `${pointer}/${keyword}/${index}`,
        keyword,
        effect: removedEffect,
        before: before[index],
      });
  }
}

/**
 * Every change from `before` to `after`, in the order the schemas are written (properties of `after` first, then the
 * ones only `before` had). Internal `$ref`s are followed on each side; a recursive schema is compared once per path.
 */
export function diffSchemas(before: unknown, after: unknown): SchemaChange[] {
  const comparison = new SchemaComparison(before, after);
  comparison.compare(before, after, '');
  return comparison.changes;
}
