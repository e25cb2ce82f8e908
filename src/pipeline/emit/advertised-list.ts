// Each advertisable tool's default-profile form as JSON text, cached by content: `data/tools-list.json` is made of
// them, and the token budget counts the same text instead of building every form a second time.

import { advertisedListLineInputs, advertisedListParts, type AdvertisedListParts } from '../../runtime/catalogue/advertise.js';
import type { ServedTool } from '../../runtime/shared/contracts.js';
import { contentKey, type BuildCache } from '../cache/build-cache.js';

/** Its schema transforms are most of a large rebuild's emit. */
export const LIST_PARTS_CACHE_KIND = 'list-parts';

export function cachedListParts(tool: ServedTool, cache: BuildCache | undefined): AdvertisedListParts {
  if (!cache) return advertisedListParts(tool);
  const key = contentKey(...advertisedListLineInputs(tool));
  let parts = cache.get<AdvertisedListParts>(LIST_PARTS_CACHE_KIND, key);
  if (parts === undefined) cache.set(LIST_PARTS_CACHE_KIND, key, (parts = advertisedListParts(tool)));
  return parts;
}
