// What a changelog is made of: each change to a tool, each tool's changes, and the whole comparison with its bump.

import type { Bump, Impact, SchemaSide, ToolChangeKind } from './classify.js';
import type { Effect, SchemaChangeKind } from './schema-diff.js';

export interface ChangelogChange {
  kind: SchemaChangeKind | ToolChangeKind;
  /** Which schema the change is in; null for a change to the tool itself. */
  schema: SchemaSide | null;
  /** JSON pointer of the schema node ('' for the schema root or the tool). */
  pointer: string;
  /** The keyword or manifest field that changed. */
  keyword: string;
  effect?: Effect;
  required?: boolean;
  before?: unknown;
  after?: unknown;
  /** For a renamed tool: what showed the two slugs are one tool (the same SDK wrapper, or the same schemas). */
  pairedBy?: 'identifier' | 'schemas';
  sdk: Impact;
  mcp: Impact;
  /** One line for people. */
  message: string;
}

export interface ToolChangelog {
  slug: string;
  status: 'added' | 'removed' | 'changed';
  sdk: Impact;
  mcp: Impact;
  changes: ChangelogChange[];
}

export interface Changelog {
  bump: Bump;
  breaking: { sdk: boolean; mcp: boolean };
  counts: { added: number; removed: number; changed: number; breakingForSdk: number; breakingForMcp: number };
  /** Tools with any change, sorted by slug (code unit order). */
  tools: ToolChangelog[];
}
