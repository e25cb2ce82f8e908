// In-memory record of the runs this server process performed: bounded, redacted, never written to disk.
import { createHmac, randomBytes } from 'node:crypto';
import type { RunOutcome, ToolFailure } from './contracts.js';
import { capPayload, redactSecrets, safeStringify, type StoredPayload } from './redact.js';

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
  /** JSON pointers in the input that were masked before storage. */
  maskedInput: string[];
  /**
   * HMAC-SHA256 of each masked input value by pointer, under a random key that never leaves this history: a diff can
   * tell that a secret changed without the secret being kept. Never shown (a digest of a short password can be guessed).
   */
  maskedInputDigests: Readonly<Record<string, string>>;
  /** The result (status succeeded) or the failure envelope (status failed), capped. */
  output: StoredPayload;
  /** The failure code when status is failed. */
  errorCode?: ToolFailure['code'];
}

/** The transport a server process answers on; over stateless HTTP a process is one replica among several. */
export type ServedOver = 'stdio' | 'http';

export interface RunHistory {
  readonly capacity: number;
  /** Chooses the scope note: over HTTP, runs made through other replicas are not in this history. */
  readonly servedOver: ServedOver;
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
  const digestKey = randomBytes(32);
  const digest = (original: unknown): string => createHmac('sha256', digestKey).update(safeStringify(original)).digest('base64url');
  return {
    capacity,
    servedOver,
    get totalRecorded() {
      return nextNumber - 1;
    },
    record(slug, input, outcome, at = new Date()) {
      const redacted = redactSecrets(input, digest);
      const record: RunRecord = {
        id: `r${nextNumber++}`,
        slug,
        status: outcome.ok ? 'succeeded' : 'failed',
        durationMs: outcome.durationMs,
        at: at.toISOString(),
        input: capPayload(redacted.value),
        maskedInput: redacted.masked,
        maskedInputDigests: redacted.fingerprints,
        output: capPayload(outcome.ok ? outcome.result : outcome.failure),
        ...(outcome.ok ? {} : { errorCode: outcome.failure.code }),
      };
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

/** The sentence every history answer carries, so a run nobody remembers has a checkable origin. */
export function historyScopeNote(startedAt: Date, servedOver: ServedOver = 'stdio'): string {
  if (servedOver === 'http') {
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
    [outputKey]: record.output.value,
    [`${outputKey}_truncated`]: record.output.truncated,
    [`${outputKey}_chars`]: record.output.chars,
  };
}

/** The history index as structured data: scope, start time, bounds and runs newest first. */
export function historyIndex(history: RunHistory, startedAt: Date): Record<string, unknown> {
  return {
    scope: 'process',
    process_started_at: startedAt.toISOString(),
    note: historyScopeNote(startedAt, history.servedOver),
    capacity: history.capacity,
    total_recorded: history.totalRecorded,
    runs: history.list().map(runIndexEntry),
  };
}

export function formatHistoryIndex(history: RunHistory, startedAt: Date): string {
  const runs = history.list();
  const header = `${historyScopeNote(startedAt, history.servedOver)} Holds the last ${history.capacity} runs; ${history.totalRecorded} recorded so far.`;
  if (!runs.length) return `${header}\nNo runs yet.`;
  const lines = runs.map((record) => `${record.id}  ${record.slug}  ${record.status}${record.errorCode ? ` (${record.errorCode})` : ''}  ${record.durationMs} ms  at ${record.at}`);
  return [header, `${runs.length} runs, newest first:`, ...lines].join('\n');
}
