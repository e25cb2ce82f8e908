// Reads a whole catalogue from the NexusBloom HTTP API: the paginated list, then every manifest with bounded concurrency.

import { setMaxListeners } from 'node:events';
import { slugPathSegment } from '../../runtime/execution/api-client.js';
import { mapLimited } from '../../runtime/shared/map-limited.js';
import { getJson, shownUrl, SourceError, usableApiKey, type HttpOptions } from './http-json.js';
import { sourceLimits, type SourceLimits } from './source-limits.js';

export interface ApiSourceOptions extends HttpOptions {
  concurrency: number;
  /** Caps on pages, tools and time (defaults: DEFAULT_SOURCE_LIMITS); `maxBodyBytes` of HttpOptions caps each body. */
  limits?: Partial<SourceLimits>;
  /** Called after each manifest arrives (progress for large catalogues). */
  onManifest?: (done: number, total: number) => void;
}

/**
 * Listing pages in a row that add no tool before the listing counts as endless. A real catalogue's pages each add one,
 * however many there are; an API whose cursors never repeat but never end would otherwise be paged forever.
 */
export const MAX_PAGES_WITHOUT_NEW_TOOLS = 20;

/** `https://host` and `https://host/` mean `https://host/api`; a trailing slash is dropped. */
export function normalizeApiBase(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SourceError(
      `source ${JSON.stringify(shownUrl(url))} is not a valid URL: pass an API base URL such as https://nexusbloom.dev/api or http://127.0.0.1:4010/api`,
      shownUrl(url),
    );
  }
  const path = parsed.pathname.replace(/\/+$/, '');
  parsed.pathname = path === '' ? '/api' : path;
  parsed.search = '';
  parsed.hash = '';
  return parsed.toString().replace(/\/+$/, '');
}

function listPageShape(body: unknown, url: string): { slugs: string[]; next: string | null } {
  const page = body as { tools?: unknown; next_cursor?: unknown };
  const shown = shownUrl(url);
  if (!page || typeof page !== 'object' || !Array.isArray(page.tools)) {
    throw new SourceError(`GET ${shown} answered JSON without a "tools" array: not a catalogue listing`, shown);
  }
  const slugs = page.tools.map((entry, index) => {
    const slug = (entry as { slug?: unknown } | null)?.slug;
    if (typeof slug !== 'string' || slug === '') {
      throw new SourceError(`GET ${shown} listed an entry without a slug at /tools/${index}`, shown);
    }
    return slug;
  });
  const next = page.next_cursor;
  if (next !== undefined && next !== null && typeof next !== 'string') {
    throw new SourceError(`GET ${shown} answered a next_cursor that is not a string`, shown);
  }
  return { slugs, next: typeof next === 'string' && next !== '' ? next : null };
}

/**
 * Every listed slug once, at its first position. A catalogue that changes between page requests lists a tool again on a
 * later page; its manifest is fetched by slug, so the repeat adds nothing.
 */
async function listSlugs(base: string, options: HttpOptions, limits: SourceLimits): Promise<string[]> {
  const slugs: string[] = [];
  const listed = new Set<string>();
  const seenCursors = new Set<string>();
  let pagesWithoutNewTools = 0;
  let pages = 0;
  let cursor: string | null = null;
  do {
    const url: string = cursor === null ? `${base}/tools` : `${base}/tools?cursor=${encodeURIComponent(cursor)}`;
    const page = listPageShape(await getJson(url, options), url);
    pages += 1;
    const before = slugs.length;
    for (const slug of page.slugs) {
      if (listed.has(slug)) continue;
      listed.add(slug);
      slugs.push(slug);
    }
    pagesWithoutNewTools = slugs.length === before ? pagesWithoutNewTools + 1 : 0;
    if (slugs.length > limits.maxTools) {
      throw new SourceError(
        `GET ${shownUrl(url)} brought the listing past ${limits.maxTools} tools (page ${pages}): ` +
          'stopped as endless; raise --max-tools if the catalogue really is that large',
        shownUrl(url),
      );
    }
    if (page.next !== null && pages >= limits.maxPages) {
      throw new SourceError(
        `GET ${shownUrl(url)} is page ${pages} of the listing and asks for another: stopped at the cap of ` +
          `${limits.maxPages} pages (${slugs.length} tools so far); raise --max-pages if the catalogue really has that many`,
        shownUrl(url),
      );
    }
    if (page.next !== null && seenCursors.has(page.next)) {
      throw new SourceError(`GET ${shownUrl(url)} returned a next_cursor already seen: the listing loops`, shownUrl(url));
    }
    if (page.next !== null && pagesWithoutNewTools >= MAX_PAGES_WITHOUT_NEW_TOOLS) {
      throw new SourceError(
        `GET ${shownUrl(url)} is the ${pagesWithoutNewTools}th page in a row that lists no new tool, yet its next_cursor asks for another: ` +
          `the listing does not end (stopped after ${pages} pages and ${slugs.length} tools)`,
        shownUrl(url),
      );
    }
    if (page.next !== null) seenCursors.add(page.next);
    cursor = page.next;
  } while (cursor !== null);
  return slugs;
}

/**
 * Why `body` is not the manifest of the listed `slug`, or null when it is. Checked here, where the URL and the listed
 * slug are known: a manifest under another slug would replace or duplicate a tool, and an error envelope sent with 200
 * would pass for a tool without a slug.
 */
function manifestMismatch(body: unknown, slug: string): { why: string; pointer: string } | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { why: 'answered JSON that is not a manifest object', pointer: '' };
  const { success, error, code, slug: received } = body as { success?: unknown; error?: unknown; code?: unknown; slug?: unknown };
  if (success === false) {
    const said = [code, error].filter((part) => typeof part === 'string').join(' ');
    return {
      why: `answered 200 with an error envelope ({"success":false}) instead of a manifest${said === '' ? '' : `: ${said}`}`,
      pointer: '',
    };
  }
  if (received === slug) return null;
  if (received === undefined)
    return { why: `answered a manifest without /slug for the listed slug ${JSON.stringify(slug)}`, pointer: '/slug' };
  return {
    why: `answered a manifest whose /slug is ${JSON.stringify(received)}, not the listed slug ${JSON.stringify(slug)}`,
    pointer: '/slug',
  };
}

/** Fetches every manifest. The result is in listing order; nothing is returned unless every fetch succeeded. */
export async function readApiCatalogue(apiUrl: string, options: ApiSourceOptions): Promise<unknown[]> {
  const base = normalizeApiBase(apiUrl);
  const limits = sourceLimits({ ...options.limits, ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }) });
  // The first failure ends the read: requests and retry waits still under way are aborted rather than left to run.
  const stop = new AbortController();
  // A read that outlives its time cap is aborted wherever it is, listing or manifests.
  const outOfTime = AbortSignal.timeout(limits.maxReadMs);
  const signal = AbortSignal.any([...(options.signal === undefined ? [] : [options.signal]), stop.signal, outOfTime]);
  const checked = { ...options, apiKey: usableApiKey(options.apiKey), maxBodyBytes: limits.maxBodyBytes, signal };
  try {
    return await readWithin(base, checked, limits, signal, stop, options);
  } catch (error) {
    if (outOfTime.aborted) {
      throw new SourceError(
        `reading the catalogue at ${shownUrl(base)} took longer than ${limits.maxReadMs / 1000} s: stopped ` +
          '(raise --max-read-seconds if the catalogue is meant to take that long)',
        shownUrl(base),
      );
    }
    throw error;
  }
}

async function readWithin(
  base: string,
  checked: HttpOptions,
  limits: SourceLimits,
  signal: AbortSignal,
  stop: AbortController,
  options: ApiSourceOptions,
): Promise<unknown[]> {
  const slugs = await listSlugs(base, checked, limits);
  // Each manifest in flight listens on it once (its request or its retry wait); more than 10 is expected, not a leak.
  setMaxListeners(options.concurrency + 1, signal);
  let done = 0;
  try {
    return await mapLimited(slugs, options.concurrency, async (slug) => {
      const url = `${base}/tools/${slugPathSegment(slug)}`;
      signal.throwIfAborted();
      const manifest = await getJson(url, { ...checked, signal }, slug);
      const mismatch = manifestMismatch(manifest, slug);
      if (mismatch !== null) {
        throw new SourceError(`GET ${shownUrl(url)} (tool ${JSON.stringify(slug)}) ${mismatch.why}`, shownUrl(url), slug, mismatch.pointer);
      }
      options.onManifest?.(++done, slugs.length);
      return manifest;
    });
  } catch (error) {
    stop.abort();
    throw error;
  }
}
