// Holds the tools a server serves: the pinned list shipped in `data/catalogue.json`, optionally refreshed from the
// live API under the cache TTL, keeping the last good list whenever a refresh fails.

import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DiagnosticLog, Manifest, ServedCatalogueFile, ServedTool } from '../shared/contracts.js';
import type { ApiClient, CatalogueEntry } from '../execution/api-client.js';
import type { Settings } from '../settings/config.js';
import { toolList, type ToolList } from './slug-index.js';
import { offerAdvertisedForms, readAdvertisedListFileSync, withheldReasonFor, type PreparedForms } from './advertise.js';
import { lazyServedTools, readCatalogueIndexSync } from './catalogue-index.js';
import { mapLimited } from '../shared/map-limited.js';
import { readPolicyFileSync } from '../policy/settings.js';

export const SERVED_CATALOGUE_FORMAT = 'nexusbloom-served-catalogue/1';

/** Manifests fetched at once during a live refresh. */
const MANIFEST_FETCH_CONCURRENCY = 4;

export interface CatalogueStore {
  /** The current list, sorted by slug (code unit order), indexed by slug. Synchronous: never waits for the network. */
  getTools(): ToolList;
  /** In live mode, refreshes when the cached list is older than the TTL (always, when the TTL is 0). Never rejects. */
  ensureFresh(): Promise<void>;
  /** Called after the list changed. */
  /** Calls `listener` after each change of the list; returns what stops that. */
  onListChanged(listener: () => void): () => void;
  /** The forms the build prepared for the pinned tools (`data/tools-list.json`), when the package has them. */
  readonly preparedForms?: PreparedForms;
}

export interface CatalogueStoreOptions {
  catalogue: ServedCatalogueFile;
  settings: Pick<Settings, 'catalogue' | 'cacheTtlMs' | 'execution'>;
  apiClient: ApiClient;
  log: DiagnosticLog;
  now?: () => number;
}

/**
 * Reads and checks a generated package's `data/catalogue.json`. Throws an Error naming the file on any problem. With a
 * `catalogue-index.json` beside it, only the index is read now and the manifests on first use (see catalogue-index.ts).
 */
export async function loadServedCatalogue(url: URL): Promise<ServedCatalogueFile> {
  const path = fileURLToPath(url);
  const index = readCatalogueIndexSync(new URL('catalogue-index.json', url));
  let catalogue: ServedCatalogueFile;
  if (index === null) {
    catalogue = readServedCatalogueSync(path);
  } else {
    orCannotRead(path, () => statSync(path));
    catalogue = { format: SERVED_CATALOGUE_FORMAT, tools: lazyServedTools(index, () => readServedCatalogueSync(path).tools, path) };
  }
  catalogue.searchIndexUrl = new URL('search-index.json', url).href;
  catalogue.advertisedListUrl = new URL('tools-list.json', url).href;
  catalogue.tokenCostsUrl = new URL('token-costs.json', url).href;
  catalogue.policy = readPolicyFileSync(new URL('policy.json', url));
  return catalogue;
}

/** What `read` gives, or an Error naming the catalogue file and why it cannot be read. */
function orCannotRead<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new Error(`Cannot read the tool catalogue at ${path}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

function readServedCatalogueSync(path: string): ServedCatalogueFile {
  // Read synchronously, straight into a string: at start-up there is nothing to overlap with, and the promise API
  // stages a large file in a Buffer first, whose pages stay in the process's RSS long after the parse.
  return parseServedCatalogue(
    orCannotRead(path, () => readFileSync(path, 'utf8')),
    path,
  );
}

export function parseServedCatalogue(text: string, origin: string): ServedCatalogueFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`The tool catalogue at ${origin} is not JSON: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  if (
    typeof data !== 'object' ||
    data === null ||
    (data as { format?: unknown }).format !== SERVED_CATALOGUE_FORMAT ||
    !Array.isArray((data as { tools?: unknown }).tools)
  ) {
    throw new Error(`The tool catalogue at ${origin} is not a ${SERVED_CATALOGUE_FORMAT} file.`);
  }
  const tools = (data as { tools: unknown[] }).tools;
  tools.forEach((tool, index) => {
    const t = tool as Partial<ServedTool> | null;
    if (
      typeof t !== 'object' ||
      t === null ||
      typeof t.slug !== 'string' ||
      typeof t.manifest !== 'object' ||
      t.manifest === null ||
      t.manifest.slug !== t.slug
    ) {
      throw new Error(`The tool catalogue at ${origin} has a malformed entry at /tools/${index}.`);
    }
  });
  return data as ServedCatalogueFile;
}

export function createCatalogueStore(options: CatalogueStoreOptions): CatalogueStore {
  const { settings, apiClient, log } = options;
  const now = options.now ?? Date.now;
  const pinnedBySlug = new Map(options.catalogue.tools.map((tool) => [tool.slug, tool]));
  // Every lookup by slug on the list the server hands out is one Map read (see slug-index.ts).
  let tools: ToolList = toolList(sortBySlug(options.catalogue.tools));
  const advertisedListUrl = options.catalogue.advertisedListUrl;
  const preparedForms = advertisedListUrl
    ? offerAdvertisedForms(options.catalogue.tools, () => readAdvertisedListFileSync(new URL(advertisedListUrl)))
    : undefined;
  let refreshedAt: number | null = null;
  let inFlight: Promise<void> | null = null;
  let lastFailure: string | null = null;
  const listeners: (() => void)[] = [];

  async function refresh(): Promise<void> {
    const listed = await apiClient.listCatalogue();
    refreshedAt = now();
    if (!listed.ok) {
      // Reported once per distinct failure, so a down API does not fill stderr on every list request.
      if (listed.failure.error !== lastFailure) {
        log(
          `Live catalogue refresh failed (${listed.failure.code}): ${listed.failure.error} Keeping the last good list of ${tools.tools.length} tools.`,
        );
      }
      lastFailure = listed.failure.error;
      return;
    }
    if (lastFailure !== null) log('Live catalogue refresh succeeded again.');
    lastFailure = null;

    const current = new Map(tools.tools.map((tool) => [tool.slug, tool]));
    const upstream = new Map<string, CatalogueEntry>();
    for (const entry of listed.value) upstream.set(entry.slug, entry);

    const next: ServedTool[] = [];
    const toFetch: CatalogueEntry[] = [];
    for (const entry of upstream.values()) {
      const known = current.get(entry.slug);
      if (known !== undefined && known.manifest.version === entry.version && !isRemoved(known)) next.push(known);
      else toFetch.push(entry);
    }
    const fetched = await mapLimited(toFetch, MANIFEST_FETCH_CONCURRENCY, (entry) => apiClient.getManifest(entry.slug));
    toFetch.forEach((entry, index) => {
      const answer = fetched[index];
      const known = current.get(entry.slug);
      if (answer !== undefined && answer.ok) {
        next.push(servedFromManifest(answer.value, pinnedBySlug.get(entry.slug), settings.execution === 'remote'));
      } else {
        if (answer !== undefined && !answer.ok)
          log(`Could not fetch the manifest of ${JSON.stringify(entry.slug)}: ${answer.failure.error}`);
        if (known !== undefined) next.push(isRemoved(known) ? (pinnedBySlug.get(entry.slug) ?? known) : known);
      }
    });
    for (const tool of tools.tools) {
      if (!upstream.has(tool.slug)) next.push(isRemoved(tool) ? tool : markedRemoved(tool));
    }

    const sorted = sortBySlug(next);
    if (fingerprint(sorted) !== fingerprint(tools.tools)) {
      tools = toolList(sorted);
      for (const listener of [...listeners]) {
        try {
          listener();
        } catch (error) {
          log(`A tool-list listener failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }
  }

  function ensureFresh(): Promise<void> {
    if (settings.catalogue !== 'live') return Promise.resolve();
    if (inFlight !== null) return inFlight;
    if (refreshedAt !== null && settings.cacheTtlMs > 0 && now() - refreshedAt < settings.cacheTtlMs) return Promise.resolve();
    inFlight = refresh()
      .catch((error: unknown) => {
        log(`Live catalogue refresh failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  }

  return {
    getTools: () => tools,
    ensureFresh,
    onListChanged: (listener) => {
      listeners.push(listener);
      return () => {
        const index = listeners.indexOf(listener);
        if (index !== -1) listeners.splice(index, 1);
      };
    },
    ...(preparedForms === undefined ? {} : { preparedForms }),
  };
}

/** Marks a tool the live API no longer lists; it stays callable (the API decides) and says so in its description. */
const REMOVED_NOTE = 'removed from the live catalogue; calls may fail';

function isRemoved(tool: ServedTool): boolean {
  return tool.manifest.removed_upstream === true;
}

function markedRemoved(tool: ServedTool): ServedTool {
  const deprecated = typeof tool.manifest.deprecated === 'string' ? `${REMOVED_NOTE} (${tool.manifest.deprecated})` : REMOVED_NOTE;
  return { ...tool, manifest: { ...tool.manifest, deprecated, removed_upstream: true } };
}

/** A tool the API published after the package was generated: its schema is only ever checked at run time. */
function servedFromManifest(manifest: Manifest, pinned: ServedTool | undefined, dropSource: boolean): ServedTool {
  // In remote mode no tool source is kept, so nothing downstream could ever execute it.
  const kept: Manifest = dropSource && 'source' in manifest ? { ...manifest, source: null } : manifest;
  return {
    slug: manifest.slug,
    manifest: kept,
    identifier: pinned?.identifier ?? identifierFor(manifest.slug),
    withheldReason: pinned?.withheldReason ?? withheldReasonFor(manifest.slug),
    ...(pinned?.toolName === undefined ? {} : { toolName: pinned.toolName }),
  };
}

function identifierFor(slug: string): string {
  const words = slug.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  const camel = words.map((word, i) => (i === 0 ? word.charAt(0).toLowerCase() : word.charAt(0).toUpperCase()) + word.slice(1)).join('');
  return camel === '' ? 'tool' : /^[0-9]/.test(camel) ? `_${camel}` : camel;
}

function sortBySlug(list: readonly ServedTool[]): ServedTool[] {
  return [...list].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
}

function fingerprint(list: readonly ServedTool[]): string {
  return JSON.stringify(list.map((tool) => [tool.slug, tool.manifest.version, isRemoved(tool), tool.withheldReason]));
}
