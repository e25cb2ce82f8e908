// Every exported type name of the package, decided once: a tool's input and output types, its `$defs` (and draft-07
// `definitions`) and its titled `oneOf`/`anyOf` branches, each from the tool's type name and the schema's JSON pointer.
// Names that two schemas would share, in one tool or across tools, get a suffix from a hash of slug and pointer, so no
// name depends on the order of tools, properties or definitions.

import type { Manifest } from '../../runtime/shared/contracts.js';
import { selfContainedDefinitions } from '../check/self-contained-definitions.js';
import { PipelineError } from '../problems.js';
import { slugHash, slugWords, typeNameOf } from './naming.js';
import { defineOwn, isJsonObject, pointerToken } from '../../runtime/shared/json-values.js';
import { contentKey } from '../cache/build-cache.js';
import type { ToolJob } from '../parallel/work.js';

/** JSON pointer from the manifest's root (`/input_schema/$defs/item-x`) → the exported type name of that schema. */
export type TypeNames = Record<string, string>;

export interface TypeNamedTool {
  slug: string;
  /** The tool's own type name (from the slug, collisions already resolved). */
  typeName: string;
  manifest: Manifest;
}

/** The schema fields that get types, and the suffix of their root type. */
export const TYPED_FIELDS = [
  ['input_schema', 'Input'],
  ['output_schema', 'Output'],
] as const;

// The same walk as emit's cleaning (schema-types.ts): these keywords hold catalogue data, not subschemas.
const NOT_SUBSCHEMAS = new Set([
  'tsType',
  'tsEnumNames',
  'title',
  '$id',
  'id',
  'x-tsType',
  '$comment',
  'examples',
  'default',
  'deprecated',
  'description',
  'enum',
  'const',
  'required',
]);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const DEFINITION_MAPS = new Set(['$defs', 'definitions']);
const BRANCH_LISTS = new Set(['oneOf', 'anyOf']);

/** PascalCase from a key's or title's ASCII words (at most 8); empty when it has none. */
function pascalWords(text: string): string {
  return slugWords(text)
    .slice(0, 8)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

interface Wanted {
  slug: string;
  pointer: string;
  base: string;
  /** A tool's root type keeps its name: the slug plan already made those unique. */
  root: boolean;
}

/** A named schema below a typed field's root: its JSON pointer from the manifest's root, and what its type's name adds to the root type's. */
export type NamedSchema = [pointer: string, rest: string];

/** A self-contained root definition (selfContainedDefinitions) as plan keeps it: by its map and key, without its schema. */
export interface OutlinedDefinition {
  map: '$defs' | 'definitions';
  key: string;
  refs: string[];
  identity: string;
}

/**
 * What plan reads of one tool's typed schemas, per field of TYPED_FIELDS: the schemas that ask for a type name, and the
 * self-contained root definitions. A function of the schemas alone, never of the tool's names, so the build cache
 * keeps it by their content (SCHEMA_OUTLINE_JOB): a rebuild walks only the schemas that changed.
 */
export interface SchemaOutline {
  named: NamedSchema[][];
  definitions: OutlinedDefinition[][];
}

/** The type names a schema asks for, below `pointer`; `owner` is what the nearest named schema above adds to the root's name. */
function collect(node: unknown, pointer: string, owner: string, out: NamedSchema[]): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => collect(item, `${pointer}/${index}`, owner, out));
    return;
  }
  if (!isJsonObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    // A keyword's plain value ("type": "string") holds no schema: no pointer is made for it.
    if (NOT_SUBSCHEMAS.has(key) || value === null || typeof value !== 'object') continue;
    const here = `${pointer}/${pointerToken(key)}`;
    if (SCHEMA_MAPS.has(key) && isJsonObject(value)) {
      for (const [name, child] of Object.entries(value)) {
        const at = `${here}/${pointerToken(name)}`;
        let childOwner = owner;
        if (DEFINITION_MAPS.has(key) && isJsonObject(child)) {
          childOwner = `${owner}${pascalWords(name) || 'Def'}`;
          out.push([at, childOwner]);
        }
        collect(child, at, childOwner, out);
      }
      continue;
    }
    if (BRANCH_LISTS.has(key) && Array.isArray(value)) {
      value.forEach((branch, index) => {
        const at = `${here}/${index}`;
        let branchOwner = owner;
        // A `$ref` branch is named by its definition; a titled inline branch gets a type of its own.
        if (isJsonObject(branch) && typeof branch.title === 'string' && branch.$ref === undefined && pascalWords(branch.title) !== '') {
          branchOwner = `${owner}${pascalWords(branch.title)}`;
          out.push([at, branchOwner]);
        }
        collect(branch, at, branchOwner, out);
      });
      continue;
    }
    collect(value, here, owner, out);
  }
}

/** A tool's SchemaOutline. */
export function schemaOutline(manifest: Manifest): SchemaOutline {
  const named = TYPED_FIELDS.map(([field]) => {
    const out: NamedSchema[] = [];
    collect(manifest[field], `/${field}`, '', out);
    return out;
  });
  const pointers = named.flat().map(([pointer]) => pointer);
  const definitions = TYPED_FIELDS.map(([field]) => {
    // A definition with named schemas inside (titled branches) keeps them in the tool's module.
    const holdsNamed = (pointer: string): boolean => pointers.some((at) => at.startsWith(`/${field}${pointer}/`));
    return [...selfContainedDefinitions(manifest[field], holdsNamed)].map(([pointer, def]): OutlinedDefinition => ({
      map: pointer.startsWith('/$defs/') ? '$defs' : 'definitions',
      key: def.key,
      refs: def.refs,
      identity: def.identity,
    }));
  });
  return { named, definitions };
}

/** Outlines are kept by the schemas' content; the plan code that makes them is in the cache's fingerprint. */
export const SCHEMA_OUTLINE_JOB: ToolJob<Manifest, SchemaOutline> = {
  kind: 'schema-outline',
  key: (manifest) => contentKey(manifest.input_schema, manifest.output_schema ?? null),
  run: schemaOutline,
  threads: false,
};

/** The hash-suffixed form of a name: the suffix comes from the slug and the pointer, never from an order. */
function hashed(base: string, slug: string, pointer: string): string {
  return typeNameOf(`${base}_${slugHash(`${slug}\u0000${pointer}`)}`);
}

/**
 * Type names for every tool, keyed by slug. A name wanted by more than one schema (compared case-insensitively, as
 * file systems and some tools fold case) is given to none of them plainly: each gets its hash suffix, except a tool's
 * root type, whose name the slug plan has already made unique.
 */
export function planTypeNames(
  tools: readonly TypeNamedTool[],
  outlines: readonly SchemaOutline[] = tools.map((tool) => schemaOutline(tool.manifest)),
): Map<string, TypeNames> {
  const wanted: Wanted[] = [];
  tools.forEach((tool, index) => {
    TYPED_FIELDS.forEach(([field, suffix], at) => {
      const root = `${tool.typeName}${suffix}`;
      wanted.push({ slug: tool.slug, pointer: `/${field}`, base: root, root: true });
      for (const [pointer, rest] of outlines[index]!.named[at]!)
        wanted.push({ slug: tool.slug, pointer, base: `${root}${rest}`, root: false });
    });
  });
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
      throw new PipelineError(
        `schemas ${JSON.stringify(`${other.slug}${other.pointer}`)} and ${JSON.stringify(`${entry.slug}${entry.pointer}`)} map to the same type name ${name}`,
        [
          {
            severity: 'error',
            slug: entry.slug,
            pointer: entry.pointer,
            message: `type name ${name} is also taken by ${JSON.stringify(other.slug)} at ${other.pointer}`,
            hint: 'rename one of the definitions',
          },
        ],
      );
    }
    taken.set(name.toLowerCase(), entry);
    defineOwn(byTool.get(entry.slug)!, entry.pointer, name);
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
export function planSharedTypes(
  tools: readonly TypeNamedTool[],
  typeNames: ReadonlyMap<string, TypeNames>,
  outlines: readonly SchemaOutline[] = tools.map((tool) => schemaOutline(tool.manifest)),
): SharedTypesPlan {
  const candidates: Candidate[] = [];
  tools.forEach((tool, index) => {
    TYPED_FIELDS.forEach(([field], at) => {
      for (const def of outlines[index]!.definitions[at]!) {
        const schema = (tool.manifest[field] as Record<string, Record<string, Record<string, unknown>>>)[def.map]![def.key]!;
        candidates.push({
          slug: tool.slug,
          field,
          pointer: `/${def.map}/${pointerToken(def.key)}`,
          key: def.key,
          schema,
          refs: def.refs,
          identity: `${field}:${def.identity}`,
        });
      }
    });
  });
  const holders = new Map<string, Set<string>>();
  for (const candidate of candidates) {
    const set = holders.get(candidate.identity) ?? new Set<string>();
    set.add(`${candidate.slug}\u0000${candidate.field}`);
    holders.set(candidate.identity, set);
  }
  const shared = candidates.filter((candidate) => (holders.get(candidate.identity)?.size ?? 0) > 1);
  const first = new Map<string, Candidate>();
  for (const candidate of shared) if (!first.has(candidate.identity)) first.set(candidate.identity, candidate);
  const baseOf = (candidate: Candidate): string =>
    typeNameOf(`${pascalWords(candidate.key) || 'Def'}${candidate.field === 'input_schema' ? 'In' : 'Out'}`);
  const taken = new Set<string>();
  for (const names of typeNames.values()) for (const name of Object.values(names)) taken.add(name.toLowerCase());
  const claims = new Map<string, number>();
  for (const candidate of first.values())
    claims.set(baseOf(candidate).toLowerCase(), (claims.get(baseOf(candidate).toLowerCase()) ?? 0) + 1);
  const nameOf = new Map<string, string>();
  const given = new Map<string, string>();
  for (const [identity, candidate] of first) {
    const base = baseOf(candidate);
    const plain = (claims.get(base.toLowerCase()) ?? 0) === 1 && !taken.has(base.toLowerCase());
    const name = plain ? base : typeNameOf(`${base}_${identity.slice(identity.indexOf(':') + 1, identity.indexOf(':') + 7)}`);
    const other = given.get(name.toLowerCase());
    if (other !== undefined || taken.has(name.toLowerCase())) {
      throw new PipelineError(
        `shared definitions ${JSON.stringify(other ?? name)} and ${JSON.stringify(`${candidate.slug}/${candidate.field}${candidate.pointer}`)} map to the same type name ${name}`,
        [
          {
            severity: 'error',
            slug: candidate.slug,
            pointer: `/${candidate.field}${candidate.pointer}`,
            message: `the shared type name ${name} is taken`,
            hint: 'rename one of the definitions',
          },
        ],
      );
    }
    given.set(name.toLowerCase(), `${candidate.slug}/${candidate.field}${candidate.pointer}`);
    nameOf.set(identity, name);
  }
  const byTool = new Map<string, Record<string, string>>();
  for (const candidate of shared) {
    const own = byTool.get(candidate.slug) ?? {};
    defineOwn(own, `/${candidate.field}${candidate.pointer}`, nameOf.get(candidate.identity)!);
    byTool.set(candidate.slug, own);
  }
  // What a shared definition names is shared with it: its references resolve among the same holder's candidates.
  const types: SharedType[] = [...first].map(([identity, candidate]) => {
    const own = byTool.get(candidate.slug)!;
    const refs: Record<string, string> = {};
    for (const target of candidate.refs) defineOwn(refs, target, own[`/${candidate.field}${target}`]!);
    return { name: nameOf.get(identity)!, field: candidate.field, schema: candidate.schema, refs };
  });
  types.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { types, byTool };
}
