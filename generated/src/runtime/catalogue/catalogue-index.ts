// `data/catalogue-index.json`: what a server needs of each pinned tool before it needs any manifest (slug, wrapper
// name, withheld reason), so that start-up and a first tools/list never parse `data/catalogue.json`. The manifests
// are read on the first access to any of them, all at once, into the same tool objects.

import { readFileSync } from 'node:fs';
import type { Manifest, ServedTool, ToolAnnotations } from '../shared/contracts.js';

export const CATALOGUE_INDEX_FORMAT = 'nexusbloom-catalogue-index/1';

export type IndexedTool = Omit<ServedTool, 'manifest'> & { traits?: ToolTraits };

/** What the tool policy and the meta-tool's annotations read of a tool (see policy/), kept in the index too. */
export interface ToolTraits {
  category: string;
  tags: string[];
  annotations: ToolAnnotations | null;
}

/**
 * The indexed traits of each tool lazyServedTools made, kept beside the tool rather than on it: the tool stays a plain
 * ServedTool (compared, copied and written out as one). Keyed by the tool object itself, as the traits are that very
 * tool's: a tool a refresh brings under the same slug has its own manifest and reads its traits there.
 */
const indexedTraits = new WeakMap<ServedTool, ToolTraits>();

/** A tool's category, tags and annotations, from the index while its manifest is not read yet. */
export function traitsOf(tool: ServedTool): ToolTraits {
  const indexed = isManifestPending(tool) ? indexedTraits.get(tool) : undefined;
  if (indexed !== undefined) return indexed;
  const { manifest } = tool;
  return {
    category: typeof manifest.category === 'string' ? manifest.category : '',
    tags: Array.isArray(manifest.tags) ? manifest.tags.filter((tag): tag is string => typeof tag === 'string') : [],
    annotations: manifest.annotations ?? null,
  };
}

const isIndexedTool = (value: unknown): value is IndexedTool => {
  const tool = value as Partial<IndexedTool> | null;
  const traits = tool?.traits as Partial<ToolTraits> | undefined;
  return (
    typeof tool === 'object' &&
    tool !== null &&
    typeof tool.slug === 'string' &&
    typeof tool.identifier === 'string' &&
    (tool.withheldReason === null || typeof tool.withheldReason === 'string') &&
    (tool.toolName === undefined || typeof tool.toolName === 'string') &&
    (traits === undefined ||
      (typeof traits === 'object' &&
        traits !== null &&
        typeof traits.category === 'string' &&
        Array.isArray(traits.tags) &&
        traits.tags.every((tag) => typeof tag === 'string') &&
        (traits.annotations === null || (typeof traits.annotations === 'object' && traits.annotations !== undefined))))
  );
};

/** The index beside a catalogue, or null when there is none or it is not one (the catalogue is then read at once). */
export function readCatalogueIndexSync(url: URL): IndexedTool[] | null {
  try {
    return parseCatalogueIndex(JSON.parse(readFileSync(url, 'utf8')));
  } catch {
    return null;
  }
}

function parseCatalogueIndex(data: unknown): IndexedTool[] | null {
  const file = data as { format?: unknown; tools?: unknown } | null;
  if (typeof file !== 'object' || file === null || file.format !== CATALOGUE_INDEX_FORMAT || !Array.isArray(file.tools)) return null;
  return file.tools.every(isIndexedTool) ? file.tools : null;
}

/** True while a tool from lazyServedTools has not had its manifest read (no other tool is ever pending). */
export function isManifestPending(tool: ServedTool): boolean {
  return typeof Object.getOwnPropertyDescriptor(tool, 'manifest')?.get === 'function';
}

/**
 * Served tools from the index whose `manifest` is read on first use: `load` gives the whole catalogue's tools, which
 * must be the indexed ones in the same order, or every access throws an error naming both files.
 */
export function lazyServedTools(index: readonly IndexedTool[], load: () => readonly ServedTool[], origin: string): ServedTool[] {
  let failure: Error | null = null;
  const tools = index.map(({ slug, identifier, withheldReason, toolName, traits }) => {
    const tool = { slug } as ServedTool;
    Object.defineProperty(tool, 'manifest', { get: () => materialize(tool), enumerable: true, configurable: true });
    if (traits !== undefined) indexedTraits.set(tool, traits);
    return Object.assign(tool, { identifier, withheldReason }, toolName === undefined ? {} : { toolName });
  });

  function mismatch(full: readonly ServedTool[]): string | null {
    if (full.length !== tools.length) return `it holds ${full.length} tools, the index ${tools.length}`;
    const at = tools.findIndex(
      (tool, i) =>
        tool.slug !== full[i]!.slug || tool.identifier !== full[i]!.identifier || tool.withheldReason !== full[i]!.withheldReason,
    );
    return at === -1 ? null : `its tool at /tools/${at} is not the indexed one`;
  }

  function materialize(asked: ServedTool): Manifest {
    if (failure !== null) throw failure;
    let full: readonly ServedTool[];
    try {
      full = load();
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
      throw failure;
    }
    const problem = mismatch(full);
    if (problem !== null) {
      failure = new Error(`The tool catalogue at ${origin} does not match its catalogue-index.json: ${problem}; rebuild the package.`);
      throw failure;
    }
    tools.forEach((tool, i) =>
      Object.defineProperty(tool, 'manifest', { value: full[i]!.manifest, writable: true, enumerable: true, configurable: true }),
    );
    return asked.manifest;
  }
  return tools;
}
