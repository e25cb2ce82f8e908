// The listing room: tools/list and resources/list in pages, and the report of what tools/list shows and why.
export { cursorFor, LIST_PAGE_SIZE, offsetOf, pageOf } from './pages.js';
export {
  listingReport,
  readTokenCostsSync,
  TOKEN_COSTS_FORMAT,
  type ListingInputs,
  type ListingReport,
  type TokenCosts,
} from './report.js';
