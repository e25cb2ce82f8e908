// Formatting of catalogue text for the places it may appear in generated files: comments and markdown.
// Catalogue text never reaches generated code except through JSON.stringify or these escapes.

/** The line width generated code is laid out for: the package's Prettier `printWidth` (templates/prettierrc.json.hbs). */
export const PRINT_WIDTH = 140;

// eslint-disable-next-line no-control-regex
const COMMENT_UNSAFE = /[\r\u2028\u2029\u0085\u0000-\u0008\u000b-\u001f\u007f]|\*\//;

/** Text safe inside a `/* … *\/` block comment, one logical line per source line. */
export function commentText(text: string): string {
  // Most text holds nothing to escape: one test instead of three replacements that would each copy it.
  if (!COMMENT_UNSAFE.test(text)) return text;
  return (
    text
      .replace(/\r\n?|[\u2028\u2029\u0085]/g, '\n')
      .replace(/\*\//g, '*\\/')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  );
}

/** A JSDoc block for `text`, indented by `indent`. */
export function docComment(text: string, indent = ''): string {
  const lines = commentText(text).split('\n');
  return [`${indent}/**`, ...lines.map((line) => `${indent} * ${line}`.trimEnd()), `${indent} */`].join('\n');
}

/** Text safe inside a markdown table cell: one line, pipes escaped. */
export function markdownCell(text: string): string {
  return (
    text
      .replace(/\r\n?|[\n\u2028\u2029\u0085]/g, ' ')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]/g, '')
      .replace(/\\/g, '\\\\')
      .replace(/\|/g, '\\|')
      .replace(/</g, '&lt;')
      .trim()
  );
}

/** The first sentence (or line) of a description, for summaries. */
export function firstSentence(text: string, max = 160): string {
  const line = text.split(/\r\n?|\n|[\u2028\u2029]/)[0]?.trim() ?? '';
  const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
  return sentence.length > max ? `${sentence.slice(0, max - 1)}…` : sentence;
}

/**
 * `text` with its trailing LFs replaced by exactly one. A loop from the end: a regex anchored at `$` would try every
 * position of a large file (data/catalogue.json) before failing at each.
 */
export function endingInOneNewline(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end -= 1;
  // Most files already end in one LF: return them as they are rather than copy a large one.
  return end === text.length - 1 ? text : `${text.slice(0, end)}\n`;
}

/**
 * A string literal for generated TypeScript as Prettier prints it (single quotes unless the text has more of them than
 * double quotes), made from JSON.stringify's literal: the same escapes, only the quote characters change.
 */
export function tsString(value: string): string {
  const json = JSON.stringify(value);
  let singles = 0;
  let doubles = 0;
  for (const character of value) {
    if (character === "'") singles += 1;
    else if (character === '"') doubles += 1;
  }
  if (singles > doubles) return json;
  return `'${json.slice(1, -1).replace(/\\.|'/g, (token) => (token === '\\"' ? '"' : token === "'" ? "\\'" : token))}'`;
}

// Characters Prettier counts two columns wide (East Asian wide and fullwidth forms) or none (controls, non-spacing marks).
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u;
const ZERO_WIDTH = /[\p{Cc}\p{Mn}\p{Me}]/u;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The columns `text` takes in a monospace view, as Prettier counts them to align a markdown table. */
export function displayWidth(text: string): number {
  // Printable ASCII, nearly every line the type printer measures, is one column a character.
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const character of text.replace(/\p{Extended_Pictographic}\uFE0F?/gu, '  '))
    width += ZERO_WIDTH.test(character) ? 0 : WIDE.test(character) ? 2 : 1;
  return width;
}

/** The cells of a table row `| a | b |`: split at pipes that are not escaped. */
function tableCells(row: string): string[] {
  const cells: string[] = [];
  let cell = '';
  for (let i = 1; i < row.length - 1; i += 1) {
    const character = row[i] as string;
    if (character === '\\' && i + 1 < row.length - 1) {
      cell += character + (row[i + 1] as string);
      i += 1;
    } else if (character === '|') {
      cells.push(cell.trim());
      cell = '';
    } else cell += character;
  }
  cells.push(cell.trim());
  return cells;
}

/**
 * Markdown text with every table's columns padded to one width, as Prettier lays tables out, so that the file is
 * already formatted (left-aligned columns only: the generated README has no others).
 */
export function alignedMarkdownTables(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let fence = false;
  for (let i = 0; i < lines.length;) {
    const line = lines[i] as string;
    if (line.startsWith('```')) fence = !fence;
    const isRow = (text: string | undefined): boolean => text !== undefined && text.startsWith('|') && text.endsWith('|');
    if (fence || !isRow(line) || !/^\|(\s*:?-+:?\s*\|)+$/.test(lines[i + 1] ?? '')) {
      out.push(line);
      i += 1;
      continue;
    }
    const rows: string[][] = [];
    for (; isRow(lines[i]); i += 1) rows.push(tableCells(lines[i] as string));
    const columns = Math.max(...rows.map((row) => row.length));
    const widths = Array.from({ length: columns }, (_, c) =>
      Math.max(3, ...rows.map((row, r) => (r === 1 ? 3 : displayWidth(row[c] ?? '')))),
    );
    rows.forEach((row, r) => {
      const cells = widths.map((width, c) =>
        r === 1 ? '-'.repeat(width) : `${row[c] ?? ''}${' '.repeat(width - displayWidth(row[c] ?? ''))}`,
      );
      out.push(`| ${cells.join(' | ')} |`);
    });
  }
  return out.join('\n');
}

/**
 * JSON text laid out as Prettier lays out a JSON file: objects one key a line (two-space indent), arrays of plain
 * values on one line while it fits the width.
 */
export function prettierJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /^( *)(.*)\[\n((?:\s+(?:"(?:[^"\\]|\\.)*"|-?[\d.eE+-]+|true|false|null),?\n)+)\s*\]/gm,
    (whole, indent: string, head: string, items: string) => {
      const inline = `${indent}${head}[${items
        .trim()
        .split(/,?\n\s*/)
        .join(', ')}]`;
      return inline.length <= PRINT_WIDTH ? inline : whole;
    },
  );
}
