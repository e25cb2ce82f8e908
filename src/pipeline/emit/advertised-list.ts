// Each advertisable tool's default-profile form as JSON text, remembered by content: `data/tools-list.json` is made
// of them, and the token budget counts the same text instead of building every form a second time.

import { advertisedListLineInputs, advertisedListParts, type AdvertisedListParts } from '../../runtime/advertise.js';
import type { ServedTool } from '../../runtime/contracts.js';
import { contentKey } from '../cache/build-cache.js';
import type { ToolJob } from '../parallel/work.js';

/** Its schema transforms are most of a large rebuild's emit; they need the runtime's advertiser, so stay in-process. */
export const LIST_PARTS_JOB: ToolJob<ServedTool, AdvertisedListParts> = {
  kind: 'list-parts',
  key: (tool) => contentKey(...advertisedListLineInputs(tool)),
  run: advertisedListParts,
  threads: false,
};
