// Every exported type name of the package, decided once: a tool's input and output types, its `$defs` (and draft-07
// `definitions`) and its titled `oneOf`/`anyOf` branches, each from the tool's type name and the schema's JSON pointer.
// Names that two schemas would share, in one tool or across tools, get a suffix from a hash of slug and pointer, so no
// name depends on the order of tools, properties or definitions.

import type { Manifest } from '../../runtime/shared/contracts.js';
import { PipelineError } from '../problems.js';
import { slugHash, slugWords, typeNameOf } from './naming.js';
import { isJsonObject, pointerToken } from '../../runtime/shared/json-values.js';

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
  if (!isJsonObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (NOT_SUBSCHEMAS.has(key)) continue;
    const here = `${pointer}/${pointerToken(key)}`;
    if (SCHEMA_MAPS.has(key) && isJsonObject(value)) {
      for (const [name, child] of Object.entries(value)) {
        const at = `${here}/${pointerToken(name)}`;
        let childOwner = owner;
        if (DEFINITION_MAPS.has(key) && isJsonObject(child)) {
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
        if (isJsonObject(branch) && typeof branch.title === 'string' && branch.$ref === undefined && pascalWords(branch.title) !== '') {
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
