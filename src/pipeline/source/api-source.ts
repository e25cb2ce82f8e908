// Reads a whole catalogue from the NexusBloom HTTP API: the paginated list, then every manifest with bounded concurrency.

import { slugPathSegment } from '../../runtime/api-client.js';
import { mapLimited } from '../../runtime/map-limited.js';
import { getJson, SourceError, type HttpOptions } from './http-json.js';

export interface ApiSourceOptions extends HttpOptions {
  concurrency: number;
  /** Called after each manifest arrives (progress for large catalogues). */
  onManifest?: (done: number, total: number) => void;
}

/** `https://host` and `https://host/` mean `https://host/api`; a trailing slash is dropped. */
export function normalizeApiBase(url: string): string {
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/\/+$/, '');
  parsed.pathname = path === '' ? '/api' : path;
  parsed.search = '';
  parsed.hash = '';
  return parsed.toString().replace(/\/+$/, '');
}

function listPageShape(body: unknown, url: string): { slugs: string[]; next: string | null } {
  const page = body as { tools?: unknown; next_cursor?: unknown };
  if (!page || typeof page !== 'object' || !Array.isArray(page.tools)) {
    throw new SourceError(`GET ${url} answered JSON without a "tools" array: not a catalogue listing`, url);
  }
  const slugs = page.tools.map((entry, index) => {
    const slug = (entry as { slug?: unknown } | null)?.slug;
    if (typeof slug !== 'string' || slug === '') {
      throw new SourceError(`GET ${url} listed an entry without a slug at /tools/${index}`, url);
    }
    return slug;
  });
  const next = page.next_cursor;
  if (next !== undefined && next !== null && typeof next !== 'string') {
    throw new SourceError(`GET ${url} answered a next_cursor that is not a string`, url);
  }
  return { slugs, next: typeof next === 'string' && next !== '' ? next : null };
}

async function listSlugs(base: string, options: HttpOptions): Promise<string[]> {
  const slugs: string[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | null = null;
  do {
    const url: string = cursor === null ? `${base}/tools` : `${base}/tools?cursor=${encodeURIComponent(cursor)}`;
    const page = listPageShape(await getJson(url, options), url);
    slugs.push(...page.slugs);
    if (page.next !== null && seenCursors.has(page.next)) {
      throw new SourceError(`GET ${url} returned a next_cursor already seen: the listing loops`, url);
    }
    if (page.next !== null) seenCursors.add(page.next);
    cursor = page.next;
  } while (cursor !== null);
  return slugs;
}

/** Fetches every manifest. The result is in listing order; nothing is returned unless every fetch succeeded. */
export async function readApiCatalogue(apiUrl: string, options: ApiSourceOptions): Promise<unknown[]> {
  const base = normalizeApiBase(apiUrl);
  const slugs = await listSlugs(base, options);
  let done = 0;
  return mapLimited(slugs, options.concurrency, async (slug) => {
    const url = `${base}/tools/${slugPathSegment(slug)}`;
    const manifest = await getJson(url, options, slug);
    if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) {
      throw new SourceError(`GET ${url} (tool ${JSON.stringify(slug)}) answered JSON that is not a manifest object`, url, slug);
    }
    options.onManifest?.(++done, slugs.length);
    return manifest as unknown;
  });
}
