// Catalogue prose as a reader sees it: API descriptions carry HTML (Stripe's `<p>…</p>`) and Markdown links (Jira's,
// Zoom's, GitHub's), and search must read their words and sentences, not their tags and link targets.
//
// Hand-written rather than a Markdown or HTML library: search needs only that tags, link targets and entities stop
// being words and that block tags end lines, and the usual strippers (remove-markdown's lazy `[\s\S]*?` link pattern,
// for one) backtrack quadratically on catalogue text with many unclosed brackets. Every pattern here scans linearly.

/** HTML elements that end a line where they open or close: the text around them is not one sentence. */
const BLOCK_ELEMENTS = 'address|article|blockquote|br|dd|div|dl|dt|h[1-6]|hr|li|ol|p|pre|section|table|tbody|td|th|thead|tr|ul';
/** HTML elements that stand inside a line: dropped, their text kept. */
const INLINE_ELEMENTS = 'a|abbr|b|cite|code|del|em|i|img|ins|kbd|mark|q|s|samp|small|span|strike|strong|sub|sup|tt|u|var';

const BLOCK_TAG = new RegExp(`</?(?:${BLOCK_ELEMENTS})(?=[\\s/>])[^<>]*>`, 'gi');
const INLINE_TAG = new RegExp(`</?(?:${INLINE_ELEMENTS})(?=[\\s/>])[^<>]*>`, 'gi');
/** `[text](target)` and `![alt](target)`: the text stays. Neither part may hold a bracket, so each `[` scans to the next one. */
const MARKDOWN_LINK = /!?\[([^[\]\n]*)\]\([^()\s]*(?:\s+"[^"\n]*")?\)/g;
/** A bare or angle-bracketed web address: a link target, not words of the text. */
const WEB_ADDRESS = /<?\bhttps?:\/\/[^\s<>()[\]]*>?/gi;
const ENTITY = /&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,8});/gi;
const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function entityText(whole: string, name: string): string {
  if (name.startsWith('#')) {
    const point = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return point > 0 && point <= 0x10ffff && (point < 0xd800 || point > 0xdfff) ? String.fromCodePoint(point) : whole;
  }
  return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
}

/**
 * The text with HTML tags out (a block tag ends a line), Markdown links read as their text, web addresses out and
 * character entities decoded; runs of spaces and tabs are one space, and every line is trimmed. Text without markup
 * comes back with only its spacing tidied.
 */
export function plainText(text: string): string {
  let plain = text;
  if (plain.includes('<')) plain = plain.replace(BLOCK_TAG, '\n').replace(INLINE_TAG, ' ');
  if (plain.includes('](')) plain = plain.replace(MARKDOWN_LINK, '$1');
  if (plain.includes('://')) plain = plain.replace(WEB_ADDRESS, ' ');
  if (plain.includes('&')) plain = plain.replace(ENTITY, entityText);
  return plain
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
