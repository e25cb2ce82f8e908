// The changelog as markdown: the `diff` report for people, and the entries of a generated package's CHANGELOG.md.
// Catalogue text only ever appears inside code spans, so no slug or value can change the document's structure.

import type { Impact } from './classify.js';
import type { Changelog, ChangelogChange, ToolChangelog } from './changes.js';
import { describeWhat, printable } from './describe.js';

const CHANGELOG_HEADER = '# Changelog\n';

/** A code span that holds any text: the fence is longer than any backtick run inside it. */
export function codeSpan(text: string): string {
  const safe = printable(text);
  const longestRun = Math.max(0, ...(safe.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = safe === '' || safe.startsWith('`') || safe.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${safe}${pad}${fence}`;
}

const strong = (impact: Impact): string => (impact === 'breaking' ? '**breaking**' : impact);

function impactLabel(item: { sdk: Impact; mcp: Impact }): string {
  return item.sdk === item.mcp ? strong(item.sdk) : `SDK ${strong(item.sdk)}, MCP ${strong(item.mcp)}`;
}

function changeLine(change: ChangelogChange): string {
  const where = change.schema === null ? '' : `${change.schema} ${codeSpan(change.pointer || '/')}: `;
  return `- ${impactLabel(change)}: ${where}${describeWhat(change, codeSpan)}`;
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

function summaryLine(changelog: Changelog): string {
  const { counts } = changelog;
  if (changelog.tools.length === 0) return 'No changes.';
  const tools = `${plural(counts.added, 'tool')} added, ${counts.removed} removed, ${counts.changed} changed`;
  return `Suggested bump: **${changelog.bump}**. ${tools}. Breaking for SDK callers: ${plural(counts.breakingForSdk, 'change')}; for MCP clients: ${plural(counts.breakingForMcp, 'change')}.`;
}

function toolList(tools: ToolChangelog[]): string[] {
  return tools.map(
    (tool) => `- ${codeSpan(tool.slug)}: ${impactLabel(tool)}: ${tool.changes.map((c) => describeWhat(c, codeSpan)).join('; ')}`,
  );
}

/** One markdown section: `## title`, the summary, then added, removed and changed tools (each change on a line). */
export function renderMarkdown(changelog: Changelog, title: string): string {
  const lines = [`## ${printable(title)}`, '', summaryLine(changelog)];
  const added = changelog.tools.filter((t) => t.status === 'added');
  const removed = changelog.tools.filter((t) => t.status === 'removed');
  const changed = changelog.tools.filter((t) => t.status === 'changed');
  if (added.length > 0) lines.push('', '### Added tools', '', ...toolList(added));
  if (removed.length > 0) lines.push('', '### Removed tools', '', ...toolList(removed));
  if (changed.length > 0) {
    lines.push('', '### Changed tools');
    for (const tool of changed) lines.push('', `#### ${codeSpan(tool.slug)} (${impactLabel(tool)})`, '', ...tool.changes.map(changeLine));
  }
  return `${lines.join('\n')}\n`;
}

/** The CHANGELOG.md text with `entry` first, under the file's `# Changelog` header (created when missing). */
export function prependChangelogEntry(existing: string | null, entry: string): string {
  const body = (existing ?? '').replace(/\r\n/g, '\n');
  const rest = body.startsWith(CHANGELOG_HEADER) ? body.slice(CHANGELOG_HEADER.length) : body;
  const older = rest.replace(/^\n+/, '').replace(/\n*$/, '');
  return `${CHANGELOG_HEADER}\n${entry.replace(/\n*$/, '')}\n${older === '' ? '' : `\n${older}\n`}`;
}

/** The version in the first `## X.Y.Z` heading of a CHANGELOG.md, or null. */
export function latestChangelogVersion(text: string | null): string | null {
  const match = /^## v?(\d+\.\d+\.\d+)\S*\s*$/m.exec(text ?? '');
  return match ? match[1]! : null;
}
