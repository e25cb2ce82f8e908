// In-memory record of the runs this server process performed: bounded, redacted, never written to disk.
import type { RunOutcome, ToolFailure } from '../shared/contracts.js';
import { capPayload, redactSecrets, type StoredPayload } from '../secrets/redact.js';

/** Runs kept; the oldest is dropped past this. */
export const HISTORY_CAPACITY = 50;

export interface RunRecord {
  /** `r1`, `r2`, … in order of recording; never reused within a process. */
  id: string;
  slug: string;
  status: 'succeeded' | 'failed';
  durationMs: number;
  /** When the run finished (ISO 8601). */
  at: string;
  /** The input after redaction and capping. */
  input: StoredPayload;
  /**
   * JSON pointers in the input that were masked before storage. Only the mask is kept: nothing derived from a masked
   * value (not even a digest) stays, so no answer, a diff included, can tell one secret from another.
   */
  maskedInput: string[];
  /** The result (status succeeded) or the failure envelope (status failed), redacted as the input is, and capped. */
  output: StoredPayload;
  /** JSON pointers in the output that were masked before storage. */
  maskedOutput: string[];
  /** The failure code when status is failed. */
  errorCode?: ToolFailure['code'];
}

/** The transport a server process answers on; over stateless HTTP a process is one replica among several. */
export type ServedOver = 'stdio' | 'http';

/**
 * Whose runs a history answer holds. `process`: every run of this process (stdio, one client). `caller`: over HTTP, the
 * runs of the caller that asks (told apart by bearer token; see callers/caller-history.ts). `off`: over HTTP with no way
 * to tell callers apart, nothing is kept, since one caller would read another's inputs and results.
 */
export type HistoryScope =
  { kind: 'process'; servedOver: ServedOver } | { kind: 'caller'; caller: string } | { kind: 'off'; reason: string };

export interface RunHistory {
  readonly capacity: number;
  /** Chooses the scope note: over HTTP, runs made through other replicas are not in this history. */
  readonly servedOver: ServedOver;
  /** Whose runs this history holds for the request being answered. */
  scope(): HistoryScope;
  /** Records the run and returns its record; a history that is off returns the record without keeping it. */
  record(slug: string, input: unknown, outcome: RunOutcome, at?: Date): RunRecord;
  /** Newest first. */
  list(): readonly RunRecord[];
  /** By id (`r3`) or relative position (`-1` is the newest, `-2` the one before). */
  find(ref: string): RunRecord | undefined;
  /** Total runs ever recorded, including ones since dropped. */
  readonly totalRecorded: number;
}

export function createRunHistory(capacity: number = HISTORY_CAPACITY, servedOver: ServedOver = 'stdio'): RunHistory {
  const records: RunRecord[] = [];
  let nextNumber = 1;
  const scope: HistoryScope = { kind: 'process', servedOver };
  return {
    capacity,
    servedOver,
    scope: () => scope,
    get totalRecorded() {
      return nextNumber - 1;
    },
    record(slug, input, outcome, at = new Date()) {
      const record = runRecord(`r${nextNumber++}`, slug, input, outcome, at);
      records.push(record);
      if (records.length > capacity) records.splice(0, records.length - capacity);
      return record;
    },
    list() {
      return records.slice().reverse();
    },
    find(ref) {
      const trimmed = ref.trim();
      if (/^-[1-9][0-9]*$/.test(trimmed)) return records[records.length + Number(trimmed)];
      const id = /^[rR]?[0-9]+$/.test(trimmed) ? `r${trimmed.replace(/^[rR]/, '')}` : trimmed;
      return records.find((record) => record.id === id);
    },
  };
}

/** A run as history keeps it: input and output redacted (secret names and secret-shaped values masked), then capped. */
export function runRecord(id: string, slug: string, input: unknown, outcome: RunOutcome, at: Date): RunRecord {
  const redactedInput = redactSecrets(input);
  const redactedOutput = redactSecrets(outcome.ok ? outcome.result : outcome.failure);
  return {
    id,
    slug,
    status: outcome.ok ? 'succeeded' : 'failed',
    durationMs: outcome.durationMs,
    at: at.toISOString(),
    input: capPayload(redactedInput.value),
    maskedInput: redactedInput.masked,
    output: capPayload(redactedOutput.value),
    maskedOutput: redactedOutput.masked,
    ...(outcome.ok ? {} : { errorCode: outcome.failure.code }),
  };
}

/** `scope` as history answers name it in their `scope` field. */
export function scopeName(scope: HistoryScope): string {
  return scope.kind === 'caller' ? 'caller' : scope.kind;
}

/** The sentence every history answer carries, so a run nobody remembers has a checkable origin. */
export function historyScopeNote(startedAt: Date, scope: ServedOver | HistoryScope = 'stdio'): string {
  const resolved: HistoryScope = typeof scope === 'string' ? { kind: 'process', servedOver: scope } : scope;
  if (resolved.kind === 'off') {
    return `History is off: ${resolved.reason} Nothing is recorded and nothing can be shown or diffed.`;
  }
  if (resolved.kind === 'caller') {
    return (
      `History is scoped to your caller identity (${resolved.caller}, from your bearer token) on this server process ` +
      `(started ${startedAt.toISOString()}): runs of callers with other tokens are not listed, and this server answers ` +
      'stateless HTTP, so runs served by another replica are not listed either. It is kept in memory only.'
    );
  }
  if (resolved.servedOver === 'http') {
    return (
      `History is scoped to this server process (started ${startedAt.toISOString()}), not to the conversation or the client: ` +
      'this server answers stateless HTTP, so other requests, including earlier ones from this conversation, may have been ' +
      'served by another replica whose runs are not listed here. It is kept in memory only.'
    );
  }
  return (
    `History is scoped to this server process (started ${startedAt.toISOString()}), not to the conversation: ` +
    'it spans every conversation this process has served and is not reset between them. It is kept in memory only.'
  );
}

export interface RunIndexEntry {
  id: string;
  slug: string;
  status: RunRecord['status'];
  duration_ms: number;
  at: string;
  code?: string;
}

export function runIndexEntry(record: RunRecord): RunIndexEntry {
  return {
    id: record.id,
    slug: record.slug,
    status: record.status,
    duration_ms: record.durationMs,
    at: record.at,
    ...(record.errorCode ? { code: record.errorCode } : {}),
  };
}

/** One run in full, as `show` returns it. */
export function runDetail(record: RunRecord): Record<string, unknown> {
  const outputKey = record.status === 'succeeded' ? 'result' : 'error';
  return {
    ...runIndexEntry(record),
    input: record.input.value,
    input_truncated: record.input.truncated,
    input_chars: record.input.chars,
    masked_input_fields: record.maskedInput,
    [`masked_${outputKey}_fields`]: record.maskedOutput,
    [outputKey]: record.output.value,
    [`${outputKey}_truncated`]: record.output.truncated,
    [`${outputKey}_chars`]: record.output.chars,
  };
}

/** The history index as structured data: scope, start time, bounds and runs newest first. */
export function historyIndex(history: RunHistory, startedAt: Date): Record<string, unknown> {
  const scope = history.scope();
  return {
    scope: scopeName(scope),
    ...(scope.kind === 'caller' ? { caller: scope.caller } : {}),
    process_started_at: startedAt.toISOString(),
    note: historyScopeNote(startedAt, scope),
    capacity: history.capacity,
    total_recorded: history.totalRecorded,
    runs: history.list().map(runIndexEntry),
  };
}

export function formatHistoryIndex(history: RunHistory, startedAt: Date): string {
  const runs = history.list();
  const header = `${historyScopeNote(startedAt, history.scope())} Holds the last ${history.capacity} runs; ${history.totalRecorded} recorded so far.`;
  if (!runs.length) return `${header}\nNo runs yet.`;
  const lines = runs.map(
    (record) =>
      `${record.id}  ${record.slug}  ${record.status}${record.errorCode ? ` (${record.errorCode})` : ''}  ${record.durationMs} ms  at ${record.at}`,
  );
  return [header, `${runs.length} runs, newest first:`, ...lines].join('\n');
}
