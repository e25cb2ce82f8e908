// Compares two recorded runs field by field and leads with a verdict that separates moved inputs from moved results.
import type { RunRecord } from './history.js';
import { MAX_PAYLOAD_CHARS, type StoredPayload } from '../secrets/redact.js';
import { isJsonObject, pointerToken } from '../shared/json-values.js';
import { byCodeUnit } from '../shared/order.js';

export interface FieldChanges {
  /** JSON pointers present in both with different values. */
  changed: string[];
  /** JSON pointers present only in `to`. */
  added: string[];
  /** JSON pointers present only in `from`. */
  removed: string[];
}

export interface RunDiff {
  from: string;
  to: string;
  verdict: string;
  sameTool: boolean;
  statusChanged: boolean;
  inputsDiffer: boolean;
  resultsDiffer: boolean;
  input: FieldChanges;
  /** Compares results, or failure envelopes when a run failed. */
  result: FieldChanges;
  /** Which payloads were truncated; differences past the cut cannot be seen. */
  truncated: { fromInput: boolean; fromResult: boolean; toInput: boolean; toResult: boolean };
  /** Input fields masked before storage: compared as their masks, so a change in a masked value is never visible. */
  maskedInputFields: string[];
  /** Result (or failure) fields masked before storage, compared the same way. */
  maskedResultFields: string[];
}

/** Field-by-field differences between two JSON values, as JSON pointers sorted by code unit. */
export function compareValues(from: unknown, to: unknown): FieldChanges {
  const changes: FieldChanges = { changed: [], added: [], removed: [] };
  const walk = (a: unknown, b: unknown, pointer: string): void => {
    if (isJsonObject(a) && isJsonObject(b)) {
      for (const key of Object.keys(a)) {
        const child = `${pointer}/${pointerToken(key)}`;
        if (Object.prototype.hasOwnProperty.call(b, key)) walk(a[key], b[key], child);
        else changes.removed.push(child);
      }
      for (const key of Object.keys(b)) {
        if (!Object.prototype.hasOwnProperty.call(a, key)) changes.added.push(`${pointer}/${pointerToken(key)}`);
      }
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      const shared = Math.min(a.length, b.length);
      for (let index = 0; index < shared; index += 1) walk(a[index], b[index], `${pointer}/${index}`);
      for (let index = shared; index < a.length; index += 1) changes.removed.push(`${pointer}/${index}`);
      for (let index = shared; index < b.length; index += 1) changes.added.push(`${pointer}/${index}`);
      return;
    }
    if (JSON.stringify(a) !== JSON.stringify(b)) changes.changed.push(pointer);
  };
  walk(from, to, '');
  changes.changed.sort(byCodeUnit);
  changes.added.sort(byCodeUnit);
  changes.removed.sort(byCodeUnit);
  return changes;
}

/** Truncated payloads are strings cut at the cap; they are compared as text, with the whole value as one field. */
function comparePayloads(from: StoredPayload, to: StoredPayload): FieldChanges {
  if (!from.truncated && !to.truncated) return compareValues(from.value, to.value);
  const fromText = from.truncated ? String(from.value) : JSON.stringify(from.value);
  const toText = to.truncated ? String(to.value) : JSON.stringify(to.value);
  return { changed: fromText === toText && from.chars === to.chars ? [] : [''], added: [], removed: [] };
}

const countChanges = (changes: FieldChanges): number => changes.changed.length + changes.added.length + changes.removed.length;

const maskedUnion = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])].sort(byCodeUnit);

/**
 * Compares runs as stored: a masked value is its mask and nothing else, so two runs that held different secrets at the
 * same place compare as the same. Any finer answer would let a caller test guesses of a secret against a recorded run.
 */
export function diffRuns(from: RunRecord, to: RunRecord): RunDiff {
  const input = comparePayloads(from.input, to.input);
  const result = comparePayloads(from.output, to.output);
  const sameTool = from.slug === to.slug;
  const statusChanged = from.status !== to.status;
  const inputsDiffer = countChanges(input) > 0;
  const resultsDiffer = statusChanged || countChanges(result) > 0;
  const truncated = {
    fromInput: from.input.truncated,
    fromResult: from.output.truncated,
    toInput: to.input.truncated,
    toResult: to.output.truncated,
  };
  const anyTruncated = Object.values(truncated).some(Boolean);
  // A side whose stored payloads were cut and look equal may still differ past the cut: it is never called identical.
  const sameInputs =
    truncated.fromInput || truncated.toInput
      ? 'inputs not proven identical (truncated; no differences before the cut)'
      : 'inputs identical';
  const sameResults =
    truncated.fromResult || truncated.toResult
      ? 'results not proven identical (truncated; no differences before the cut)'
      : 'results identical';

  const parts: string[] = [];
  if (!sameTool) parts.push(`different tools (${from.slug} vs ${to.slug})`);
  if (statusChanged) parts.push(`status differs (${from.status} → ${to.status})`);
  if (!inputsDiffer && !resultsDiffer) {
    parts.push(
      anyTruncated
        ? 'no differences found in the stored payloads, but they are truncated, so the runs are not proven identical'
        : 'identical',
    );
  } else if (resultsDiffer) {
    parts.push(inputsDiffer ? 'results differ; inputs differ too' : `results differ; ${sameInputs}`);
  } else {
    parts.push(`${sameResults}; inputs differ`);
  }
  if (anyTruncated && (inputsDiffer || resultsDiffer)) {
    parts.push(
      `payloads truncated at ${MAX_PAYLOAD_CHARS.toLocaleString('en-US')} characters, so differences past the cut are not visible`,
    );
  }
  const maskedInputFields = maskedUnion(from.maskedInput, to.maskedInput);
  const maskedResultFields = maskedUnion(from.maskedOutput, to.maskedOutput);
  return {
    from: from.id,
    to: to.id,
    verdict: parts.join('; '),
    sameTool,
    statusChanged,
    inputsDiffer,
    resultsDiffer,
    input,
    result,
    truncated,
    maskedInputFields,
    maskedResultFields,
  };
}

function describeChanges(label: string, changes: FieldChanges): string[] {
  const lines: string[] = [];
  const show = (pointer: string): string => (pointer === '' ? '(whole value)' : pointer);
  if (changes.changed.length) lines.push(`${label} changed: ${changes.changed.map(show).join(', ')}`);
  if (changes.added.length) lines.push(`${label} added: ${changes.added.map(show).join(', ')}`);
  if (changes.removed.length) lines.push(`${label} removed: ${changes.removed.map(show).join(', ')}`);
  return lines;
}

/** The diff as prose, verdict first. */
export function formatRunDiff(diff: RunDiff): string {
  const lines = [`${diff.from} → ${diff.to}: ${diff.verdict}.`];
  lines.push(...describeChanges('input', diff.input), ...describeChanges('result', diff.result));
  if (diff.inputsDiffer && diff.resultsDiffer) {
    lines.push('The inputs changed, so a changed result is not by itself a regression.');
  } else if (diff.resultsDiffer && (diff.truncated.fromInput || diff.truncated.toInput)) {
    lines.push('The inputs were truncated and may differ past the cut, so a changed result is not by itself a regression.');
  }
  const cut = Object.entries(diff.truncated)
    .filter(([, value]) => value)
    .map(([key]) => key);
  if (cut.length) lines.push(`Truncated payloads (${cut.join(', ')}): compared only up to the ${MAX_PAYLOAD_CHARS}-character cut.`);
  const masked = [
    ...diff.maskedInputFields.map((pointer) => `input ${pointer === '' ? '(whole value)' : pointer}`),
    ...diff.maskedResultFields.map((pointer) => `result ${pointer === '' ? '(whole value)' : pointer}`),
  ];
  if (masked.length) {
    lines.push(
      `Redacted fields (${masked.join(', ')}) are stored masked and compared as masked: a change in their values ` +
        'cannot be seen, and nothing of the values is kept.',
    );
  }
  return lines.join('\n');
}
