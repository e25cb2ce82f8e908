// Every exported type name of the package, decided once: a tool's input and output types, its `$defs` (and draft-07
// `definitions`) and its titled `oneOf`/`anyOf` branches, each from the tool's type name and the schema's JSON pointer.
// Names that two schemas would share, in one tool or across tools, get a suffix from a hash of slug and pointer, so no
// name depends on the order of tools, properties or definitions.

import { createHash } from 'node:crypto';
import type { Manifest } from '../../runtime/contracts.js';
import { PipelineError } from '../problems.js';
import { slugHash, slugWords, typeNameOf } from './naming.js';

/** JSON pointer from the manifest's root (`/input_schema/$defs/item-x`) → the exported type name of that schema. */
export type TypeNames = Record<string, string>;

export interface TypeNamedTool {
  slug: string;
  /** The tool's own type name (from the slug, collisions already resolved). */
  typeName: string;
  manifest: Manifest;
}

/** The schema fields that get types, and the suffix of their root type. */
export const TYPED_FIELDS = [['input_schema', 'Input'], ['output_schema', 'Output']] as const;

// The same walk as emit's cleaning (schema-types.ts): these keywords hold catalogue data, not subschemas.
const NOT_SUBSCHEMAS = new Set(['tsType', 'tsEnumNames', 'title', '$id', 'id', 'x-tsType', '$comment', 'examples', 'default', 'deprecated', 'description', 'enum', 'const', 'required']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const DEFINITION_MAPS = new Set(['$defs', 'definitions']);
const BRANCH_LISTS = new Set(['oneOf', 'anyOf']);

const escapeSegment = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');
const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/** PascalCase from a key's or title's ASCII words (at most 8); empty when it has none. */
function pascalWords(text: string): string {
  return slugWords(text).slice(0, 8).map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
}

interface Wanted {
  slug: string;
  pointer: string;
  base: string;
  /** A tool's root type keeps its name: the slug plan already made those unique. */
  root: boolean;
}

/** The type names a schema asks for, below `pointer`; `owner` is the name of the nearest named schema above. */
function collect(node: unknown, slug: string, pointer: string, owner: string, out: Wanted[]): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => collect(item, slug, `${pointer}/${index}`, owner, out));
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (NOT_SUBSCHEMAS.has(key)) continue;
    const here = `${pointer}/${escapeSegment(key)}`;
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      for (const [name, child] of Object.entries(value)) {
        const at = `${here}/${escapeSegment(name)}`;
        let childOwner = owner;
        if (DEFINITION_MAPS.has(key) && isObject(child)) {
          childOwner = `${owner}${pascalWords(name) || 'Def'}`;
          out.push({ slug, pointer: at, base: childOwner, root: false });
        }
        collect(child, slug, at, childOwner, out);
      }
      continue;
    }
    if (BRANCH_LISTS.has(key) && Array.isArray(value)) {
      value.forEach((branch, index) => {
        const at = `${here}/${index}`;
        let branchOwner = owner;
        // A `$ref` branch is named by its definition; a titled inline branch gets a type of its own.
        if (isObject(branch) && typeof branch.title === 'string' && branch.$ref === undefined && pascalWords(branch.title) !== '') {
          branchOwner = `${owner}${pascalWords(branch.title)}`;
          out.push({ slug, pointer: at, base: branchOwner, root: false });
        }
        collect(branch, slug, at, branchOwner, out);
      });
      continue;
    }
    collect(value, slug, here, owner, out);
  }
}

/** The hash-suffixed form of a name: the suffix comes from the slug and the pointer, never from an order. */
function hashed(base: string, slug: string, pointer: string): string {
  return typeNameOf(`${base}_${slugHash(`${slug}\u0000${pointer}`)}`);
}

/**
 * Type names for every tool, keyed by slug. A name wanted by more than one schema (compared case-insensitively, as
 * file systems and some tools fold case) is given to none of them plainly: each gets its hash suffix, except a tool's
 * root type, whose name the slug plan has already made unique.
 */
export function planTypeNames(tools: readonly TypeNamedTool[]): Map<string, TypeNames> {
  const wanted: Wanted[] = [];
  for (const tool of tools) {
    for (const [field, suffix] of TYPED_FIELDS) {
      const root = `${tool.typeName}${suffix}`;
      wanted.push({ slug: tool.slug, pointer: `/${field}`, base: root, root: true });
      collect(tool.manifest[field], tool.slug, `/${field}`, root, wanted);
    }
  }
  const claims = new Map<string, number>();
  for (const entry of wanted) {
    const key = typeNameOf(entry.base).toLowerCase();
    claims.set(key, (claims.get(key) ?? 0) + 1);
  }
  const rootNames = new Set(wanted.filter((entry) => entry.root).map((entry) => typeNameOf(entry.base).toLowerCase()));
  const byTool = new Map<string, TypeNames>(tools.map((tool) => [tool.slug, {}]));
  const taken = new Map<string, Wanted>();
  for (const entry of wanted) {
    const plain = typeNameOf(entry.base);
    const clash = !entry.root && ((claims.get(plain.toLowerCase()) ?? 0) > 1 || rootNames.has(plain.toLowerCase()));
    const name = clash ? hashed(entry.base, entry.slug, entry.pointer) : plain;
    const other = taken.get(name.toLowerCase());
    if (other !== undefined) {
      throw new PipelineError(`schemas ${JSON.stringify(`${other.slug}${other.pointer}`)} and ${JSON.stringify(`${entry.slug}${entry.pointer}`)} map to the same type name ${name}`, [
        { severity: 'error', slug: entry.slug, pointer: entry.pointer, message: `type name ${name} is also taken by ${JSON.stringify(other.slug)} at ${other.pointer}`, hint: 'rename one of the definitions' },
      ]);
    }
    taken.set(name.toLowerCase(), entry);
    Object.defineProperty(byTool.get(entry.slug), entry.pointer, { value: name, enumerable: true, writable: true, configurable: true });
  }
  return byTool;
}

/** The module of the generated package that declares every shared definition's type (`src/<name>.ts`). */
export const SHARED_TYPES_MODULE = 'shared-types';

/** A definition that more than one tool schema holds byte for byte: its type is declared once, in SHARED_TYPES_MODULE. */
export interface SharedType {
  /** Its exported name in the shared module. */
  name: string;
  /** Which side's typing it takes: inputs are closed objects, outputs open (see schema-types.ts). */
  field: 'input_schema' | 'output_schema';
  /** The definition's own schema, as every schema that shares it holds it. */
  schema: Record<string, unknown>;
  /** `$ref` target inside it (a JSON pointer from the holding schema's root, `/$defs/b`) → the shared name to use. */
  refs: Record<string, string>;
}

export interface SharedTypesPlan {
  /** Sorted by name. */
  types: SharedType[];
  /** Per slug: the JSON pointer of a shared definition from the manifest's root (`/input_schema/$defs/money`) → its shared name. */
  byTool: Map<string, Record<string, string>>;
}

/** Keywords below which a definition's type would depend on more than its own text and the definitions it names. */
const CONTEXT_KEYWORDS = new Set(['$id', 'id', '$anchor', '$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor', '$defs', 'definitions']);

/** `#/$defs/<key>` or `#/definitions/<key>` as a JSON pointer (`/$defs/key`), or null for any other reference. */
function definitionTarget(ref: string): string | null {
  if (!ref.startsWith('#/')) return null;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return null;
  }
  return /^\/(\$defs|definitions)\/[^/]*$/.test(pointer) ? pointer : null;
}

/** The root definitions a definition refers to, or null when its type depends on anything else (see CONTEXT_KEYWORDS). */
function definitionRefs(node: unknown, defined: ReadonlySet<string>, out: Set<string>): boolean {
  if (Array.isArray(node)) return node.every((item) => definitionRefs(item, defined, out));
  if (!isObject(node)) return true;
  for (const [key, value] of Object.entries(node)) {
    if (CONTEXT_KEYWORDS.has(key) && (key !== 'id' || typeof value === 'string')) return false;
    if (key === '$ref' && typeof value === 'string') {
      const target = definitionTarget(value);
      if (target === null || !defined.has(target)) return false;
      out.add(target);
      continue;
    }
    if (!definitionRefs(value, defined, out)) return false;
  }
  return true;
}

/** Every `$ref` target of a schema as a JSON pointer, for references that point inside a definition rather than at it. */
function refPointers(node: unknown, out: string[]): void {
  if (Array.isArray(node)) {
    for (const item of node) refPointers(item, out);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#')) {
      try {
        out.push(decodeURIComponent(value.slice(1)));
      } catch {
        // Not a pointer: the check stage reports it.
      }
    } else refPointers(value, out);
  }
}

const digests = new WeakMap<object, string>();

/** The hash of a definition's text, once per object: a definition is part of the identity of every one that names it. */
function digestOf(schema: Record<string, unknown>): string {
  let digest = digests.get(schema);
  if (digest === undefined) digests.set(schema, (digest = createHash('sha256').update(JSON.stringify(schema)).digest('hex')));
  return digest;
}

interface Candidate {
  slug: string;
  field: 'input_schema' | 'output_schema';
  pointer: string;
  key: string;
  schema: Record<string, unknown>;
  refs: string[];
  identity: string;
}

/**
 * The root definitions (`$defs`, `definitions`) that two or more tool schemas hold with the same text, under the same
 * key, naming the same definitions in turn: each is typed once. A definition is shared only when its type depends on
 * nothing but that text (no ids, anchors, nested definitions or named branches, no reference other than to another
 * root definition, and none pointing inside it). Names come from the definition's key and the side (`MoneyIn`,
 * `MoneyOut`), with a hash of its content where two would share one or a tool's type has it: never from an order.
 */
export function planSharedTypes(tools: readonly TypeNamedTool[], typeNames: ReadonlyMap<string, TypeNames>): SharedTypesPlan {
  const candidates: Candidate[] = [];
  for (const tool of tools) {
    const names = typeNames.get(tool.slug) ?? {};
    for (const [field] of TYPED_FIELDS) {
      const schema = tool.manifest[field];
      if (!isObject(schema)) continue;
      const defs = new Map<string, { key: string; schema: Record<string, unknown> }>();
      for (const map of DEFINITION_MAPS) {
        const held = schema[map];
        if (!isObject(held)) continue;
        for (const [key, value] of Object.entries(held)) if (isObject(value)) defs.set(`/${map}/${escapeSegment(key)}`, { key, schema: value });
      }
      if (defs.size === 0) continue;
      const defined = new Set(defs.keys());
      const targets: string[] = [];
      refPointers(schema, targets);
      const local = new Map<string, string[]>();
      for (const [pointer, def] of defs) {
        const refs = new Set<string>();
        const inner = `/${field}${pointer}/`;
        const named = Object.keys(names).some((at) => at.startsWith(inner));
        const pointedInto = targets.some((target) => target.startsWith(`${pointer}/`));
        if (!named && !pointedInto && definitionRefs(def.schema, defined, refs)) local.set(pointer, [...refs].sort());
      }
      // A definition is shared with what it names: its identity is its text and theirs, closed over references.
      for (const [pointer, direct] of local) {
        const closure = new Set<string>([pointer]);
        const queue = [...direct];
        let closed = true;
        while (queue.length > 0) {
          const next = queue.pop()!;
          if (closure.has(next)) continue;
          const refs = local.get(next);
          if (refs === undefined) {
            closed = false;
            break;
          }
          closure.add(next);
          queue.push(...refs);
        }
        if (!closed) continue;
        const def = defs.get(pointer)!;
        const parts = [...closure].sort().map((at) => [at, digestOf(defs.get(at)!.schema)]);
        const identity = createHash('sha256').update(JSON.stringify([field, pointer, parts])).digest('hex');
        candidates.push({ slug: tool.slug, field, pointer, key: def.key, schema: def.schema, refs: direct, identity });
      }
    }
  }
  const holders = new Map<string, Set<string>>();
  for (const candidate of candidates) {
    const set = holders.get(candidate.identity) ?? new Set<string>();
    set.add(`${candidate.slug}\u0000${candidate.field}`);
    holders.set(candidate.identity, set);
  }
  const shared = candidates.filter((candidate) => (holders.get(candidate.identity)?.size ?? 0) > 1);
  const first = new Map<string, Candidate>();
  for (const candidate of shared) if (!first.has(candidate.identity)) first.set(candidate.identity, candidate);
  const baseOf = (candidate: Candidate): string => typeNameOf(`${pascalWords(candidate.key) || 'Def'}${candidate.field === 'input_schema' ? 'In' : 'Out'}`);
  const taken = new Set<string>();
  for (const names of typeNames.values()) for (const name of Object.values(names)) taken.add(name.toLowerCase());
  const claims = new Map<string, number>();
  for (const candidate of first.values()) claims.set(baseOf(candidate).toLowerCase(), (claims.get(baseOf(candidate).toLowerCase()) ?? 0) + 1);
  const nameOf = new Map<string, string>();
  const given = new Map<string, string>();
  for (const [identity, candidate] of first) {
    const base = baseOf(candidate);
    const plain = (claims.get(base.toLowerCase()) ?? 0) === 1 && !taken.has(base.toLowerCase());
    const name = plain ? base : typeNameOf(`${base}_${identity.slice(0, 6)}`);
    const other = given.get(name.toLowerCase());
    if (other !== undefined || taken.has(name.toLowerCase())) {
      throw new PipelineError(`shared definitions ${JSON.stringify(other ?? name)} and ${JSON.stringify(`${candidate.slug}/${candidate.field}${candidate.pointer}`)} map to the same type name ${name}`, [
        { severity: 'error', slug: candidate.slug, pointer: `/${candidate.field}${candidate.pointer}`, message: `the shared type name ${name} is taken`, hint: 'rename one of the definitions' },
      ]);
    }
    given.set(name.toLowerCase(), `${candidate.slug}/${candidate.field}${candidate.pointer}`);
    nameOf.set(identity, name);
  }
  const byTool = new Map<string, Record<string, string>>();
  for (const candidate of shared) {
    const own = byTool.get(candidate.slug) ?? {};
    Object.defineProperty(own, `/${candidate.field}${candidate.pointer}`, { value: nameOf.get(candidate.identity)!, enumerable: true, writable: true, configurable: true });
    byTool.set(candidate.slug, own);
  }
  // What a shared definition names is shared with it: its references resolve among the same holder's candidates.
  const types: SharedType[] = [...first].map(([identity, candidate]) => {
    const own = byTool.get(candidate.slug)!;
    const refs: Record<string, string> = {};
    for (const target of candidate.refs) Object.defineProperty(refs, target, { value: own[`/${candidate.field}${target}`]!, enumerable: true, writable: true, configurable: true });
    return { name: nameOf.get(identity)!, field: candidate.field, schema: candidate.schema, refs };
  });
  types.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { types, byTool };
}
