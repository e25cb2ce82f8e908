// A large data file rewritten from the one on disk: the items that did not change are copied as the bytes they are,
// only the changed ones are made again. A 3,000-tool data/catalogue.json is 28 MB of JSON, one item per tool; making
// every item's text to find the one that changed took most of a one-tool rebuild's write stage.
//
// The build cache keeps, per file, what the last build wrote: each item's key and where its bytes lie, and the hash of
// the whole file. An item is copied only from a file that still hashes to that: a file edited, replaced or cut short
// since is compared and written as any other file.

import { createHash } from 'node:crypto';
import type { Segments } from '../emit/package-text.js';

/** What a build wrote of a file made of segments: enough to find each of its items in it again. */
export interface SegmentRecord {
  /** The SHA-256 of the whole file (base64url), and its size in bytes. */
  digest: string;
  size: number;
  head: string;
  separator: string;
  tail: string;
  /** Each item's key (Segments.keyOf), in order. */
  keys: string[];
  /** Each item's first byte and the byte after its last, two numbers per item, in order. */
  spans: number[];
}

/** Where the records are kept between builds (the build cache), by the file's path in the package. */
export interface SegmentRecords {
  get(path: string): SegmentRecord | undefined;
  set(path: string, record: SegmentRecord): void;
}

/** A file as it is on disk, and the record it matches: what items may be copied from. */
export interface RecordedFile {
  bytes: Buffer;
  record: SegmentRecord;
}

/** `record`, when `bytes` are the very file it describes; else null. */
export function recordedFile(bytes: Buffer, record: SegmentRecord | undefined): RecordedFile | null {
  if (record === undefined || bytes.length !== record.size) return null;
  return createHash('sha256').update(bytes).digest('base64url') === record.digest ? { bytes, record } : null;
}

/** Each item's key, in order. */
export function keysOf(segments: Segments): string[] {
  return segments.values.map((value) => segments.keyOf(value));
}

/** Whether the segments, whose items have `keys`, make exactly the file `record` describes. */
export function sameSegments(segments: Segments, keys: readonly string[], record: SegmentRecord): boolean {
  return (
    segments.head === record.head &&
    segments.separator === record.separator &&
    segments.tail === record.tail &&
    keys.length === record.keys.length &&
    keys.every((key, index) => key === record.keys[index])
  );
}

/**
 * Puts out the text the segments make, and returns its record. Without `from`, every item is made (only strings are
 * put out). With it, an item whose key the recorded file holds is copied from it as bytes instead, and a run of such
 * items that stood together there is copied as one piece, separators and all, when the separator is the same.
 */
export function putSegments(segments: Segments, keys: readonly string[], put: (part: string) => void): SegmentRecord;
export function putSegments(
  segments: Segments,
  keys: readonly string[],
  put: (part: string | Uint8Array) => void,
  from: RecordedFile,
): SegmentRecord;
export function putSegments(
  segments: Segments,
  keys: readonly string[],
  put: ((part: string) => void) | ((part: string | Uint8Array) => void),
  from?: RecordedFile,
): SegmentRecord {
  const hash = createHash('sha256');
  // Bytes are put out only when copied from a recorded file, which only the second signature takes.
  const putPart = put as (part: string | Uint8Array) => void;
  const out = (part: string | Uint8Array): void => {
    hash.update(part);
    putPart(part);
  };
  const recorded = new Map<string, number>();
  from?.record.keys.forEach((key, index) => {
    if (!recorded.has(key)) recorded.set(key, index);
  });
  const oldSpans = from?.record.spans ?? [];
  const sameSeparator = from?.record.separator === segments.separator;
  /** Bytes of the recorded file waiting to be put out as one piece: [start, end). */
  let run: [number, number] | null = null;
  let position = 0;
  const flush = (): void => {
    if (run === null) return;
    out(from!.bytes.subarray(run[0], run[1]));
    run = null;
  };
  const text = (part: string): void => {
    flush();
    out(part);
    position += Buffer.byteLength(part);
  };
  const spans: number[] = [];
  text(segments.head);
  let previous = -1;
  segments.values.forEach((value, index) => {
    const at = recorded.get(keys[index]!);
    const start = at === undefined ? 0 : oldSpans[2 * at]!;
    const end = at === undefined ? 0 : oldSpans[2 * at + 1]!;
    if (index > 0) {
      if (run !== null && at !== undefined && at === previous + 1 && sameSeparator) {
        // The recorded file's separator stands between the two items already: the run takes it in.
        position += start - run[1];
        run[1] = end;
        spans.push(position, (position += end - start));
        previous = at;
        return;
      }
      text(segments.separator);
    }
    if (at === undefined) {
      const item = segments.itemOf(value);
      spans.push(position);
      text(item);
      spans.push(position);
    } else {
      flush();
      run = [start, end];
      spans.push(position, (position += end - start));
    }
    previous = at ?? -1;
  });
  text(segments.tail);
  return {
    digest: hash.digest('base64url'),
    size: position,
    head: segments.head,
    separator: segments.separator,
    tail: segments.tail,
    keys: [...keys],
    spans,
  };
}
