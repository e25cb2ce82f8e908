import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { lazyJoinedText, segmentsOf, wholeText, type PackageText } from '../../src/pipeline/emit/package-text.js';
import { LAYOUT } from '../../src/pipeline/plan/layout.js';
import { keysOf, putSegments, recordedFile, type SegmentRecord, type SegmentRecords } from '../../src/pipeline/write/segment-reuse.js';
import { writePackage } from '../../src/pipeline/write/write-package.js';
import { resolveConfig } from '../../src/pipeline/config.js';
import { buildPackage } from '../../src/pipeline/run-pipeline.js';
import { bundle, tool } from '../fixtures/catalogues.js';

interface Item {
  id: string;
  body: string;
}

/** Items whose text is their body on one line; `made` counts the texts made, by id. */
function itemsText(items: readonly Item[], made: string[] = [], separator = ',\n', head = '{"items":[\n'): PackageText {
  return lazyJoinedText(
    head,
    items,
    (item) => {
      made.push(item.id);
      return JSON.stringify(item);
    },
    separator,
    '\n]}\n',
    (item) => `${item.id}:${item.body}`,
  );
}

/** Writes `text` through putSegments (copying from `from` when given): the bytes put out, and the record. */
function written(text: PackageText, from?: { bytes: Buffer; record: SegmentRecord }): { bytes: Buffer; record: SegmentRecord } {
  const segments = segmentsOf(text)!;
  const parts: Buffer[] = [];
  const put = (part: string | Uint8Array): void => void parts.push(Buffer.from(part));
  const record = from
    ? putSegments(segments, keysOf(segments), put, recordedFile(from.bytes, from.record)!)
    : putSegments(segments, keysOf(segments), put);
  return { bytes: Buffer.concat(parts), record };
}

/** A deterministic stream of numbers in [0, 1). */
function numbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const item = (id: number, body = `body ${id} ✓ ${'x'.repeat(id % 7)}`): Item => ({ id: `t${id}`, body });

describe('data files rewritten from their unchanged items', () => {
  it('puts out the text the segments make, and a record whose spans and digest are that text', () => {
    const items = [item(1), item(2), item(3)];
    const { bytes, record } = written(itemsText(items));
    assert.equal(bytes.toString('utf8'), wholeText(itemsText(items)));
    assert.equal(record.size, bytes.length);
    assert.equal(record.digest, createHash('sha256').update(bytes).digest('base64url'));
    assert.deepEqual(record.keys, ['t1:' + items[0]!.body, 't2:' + items[1]!.body, 't3:' + items[2]!.body]);
    items.forEach((value, index) =>
      assert.equal(bytes.subarray(record.spans[2 * index], record.spans[2 * index + 1]).toString('utf8'), JSON.stringify(value)),
    );
  });

  it('copies what did not change and makes only what did, to the same bytes as making it all, over many edits', () => {
    const next = numbers(7);
    let items = Array.from({ length: 40 }, (_, index) => item(index));
    let file = written(itemsText(items));
    let fresh = 1000;
    for (let round = 0; round < 200; round++) {
      const edited = [...items];
      const edits = 1 + Math.floor(next() * 3);
      for (let edit = 0; edit < edits; edit++) {
        const at = Math.floor(next() * (edited.length + 1));
        const kind = next();
        if (kind < 0.3 && edited.length > 0) edited.splice(Math.min(at, edited.length - 1), 1);
        else if (kind < 0.6) edited.splice(at, 0, item(fresh++));
        else if (kind < 0.8 && edited.length > 1) {
          const [moved] = edited.splice(Math.min(at, edited.length - 1), 1);
          edited.splice(Math.floor(next() * edited.length), 0, moved!);
        } else if (edited.length > 0) {
          const index = Math.min(at, edited.length - 1);
          edited[index] = { ...edited[index]!, body: `changed in round ${round}` };
        }
      }
      // Now and then the separator or the head changes too: copied runs must not carry the old separator.
      const separator = round % 37 === 36 ? ', \n' : ',\n';
      const head = round % 23 === 22 ? '{"items": [\n' : '{"items":[\n';
      const made: string[] = [];
      const text = itemsText(edited, made, separator, head);
      const spliced = written(text, file);
      assert.equal(spliced.bytes.toString('utf8'), wholeText(itemsText(edited, [], separator, head)), `round ${round}`);
      assert.deepEqual(spliced.record, written(itemsText(edited, [], separator, head)).record, `round ${round}: the record`);
      const before = new Set(file.record.keys);
      assert.deepEqual(
        made,
        edited.filter((value) => !before.has(`${value.id}:${value.body}`)).map((value) => value.id),
        `round ${round}: only new items are made`,
      );
      items = edited;
      file = spliced;
    }
    assert.ok(items.length > 0);
  });

  it('copies nothing from a file that is not the one recorded: edited, cut short or of another size', () => {
    const { bytes, record } = written(itemsText([item(1), item(2)]));
    assert.notEqual(recordedFile(bytes, record), null);
    const edited = Buffer.from(bytes);
    edited[edited.indexOf('body')] = 'B'.charCodeAt(0);
    assert.equal(recordedFile(edited, record), null, 'same size, other bytes');
    assert.equal(recordedFile(bytes.subarray(0, bytes.length - 1), record), null);
    assert.equal(recordedFile(Buffer.concat([bytes, Buffer.from(' ')]), record), null);
    assert.equal(recordedFile(bytes, undefined), null);
  });

  it('the write stage keeps records: a one-item change makes one item, a hand-edited file is compared and rewritten whole', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nb-segments-'));
    try {
      const kept = new Map<string, SegmentRecord>();
      const records: SegmentRecords = { get: (path) => kept.get(path), set: (path, record) => void kept.set(path, record) };
      const lock = `${JSON.stringify({ format: 'nexusbloom-names/1', tools: {} })}\n`;
      const items = Array.from({ length: 30 }, (_, index) => item(index));
      const files = (list: readonly Item[], made: string[] = []) =>
        new Map<string, PackageText>([
          [LAYOUT.namesLock, lock],
          ['data/items.json', itemsText(list, made)],
        ]);
      await writePackage(join(dir, 'out'), files(items), { segments: records });
      const path = join(dir, 'out', 'data', 'items.json');
      assert.equal(kept.get('data/items.json')!.digest, createHash('sha256').update(readFileSync(path)).digest('base64url'));

      const unchanged: string[] = [];
      const same = await writePackage(join(dir, 'out'), files(items, unchanged), { segments: records });
      assert.deepEqual(same.written, []);
      assert.deepEqual(unchanged, [], 'an unchanged file makes no item');

      const changed = items.map((value, index) => (index === 17 ? { ...value, body: 'new' } : value));
      const made: string[] = [];
      const one = await writePackage(join(dir, 'out'), files(changed, made), { segments: records });
      assert.deepEqual(one.written, ['data/items.json']);
      assert.deepEqual(made, ['t17']);
      assert.equal(await readFile(path, 'utf8'), wholeText(itemsText(changed)));

      // An edit by hand that keeps the size: the file no longer hashes as recorded, so it is compared and made whole.
      const text = await readFile(path, 'utf8');
      await writeFile(path, text.replace('body 3', 'BODY 3'));
      const all: string[] = [];
      const repaired = await writePackage(join(dir, 'out'), files(changed, all), { segments: records });
      assert.deepEqual(repaired.written, ['data/items.json']);
      assert.equal(all.length, changed.length);
      assert.equal(await readFile(path, 'utf8'), wholeText(itemsText(changed)));
      // …and its record is the file's again: the next change copies once more.
      const again: string[] = [];
      await writePackage(join(dir, 'out'), files(items, again), { segments: records });
      assert.deepEqual(again, ['t17']);
      assert.equal(await readFile(path, 'utf8'), wholeText(itemsText(items)));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a build over an earlier one writes the bytes a build into a new folder writes, whatever changed in between', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nb-segments-build-'));
    try {
      const source = join(dir, 'catalogue.json');
      const build = (out: string) => buildPackage({ source, outDir: join(dir, out), config: resolveConfig(), compile: false });
      /** Every file of a package but its build cache, with its text. */
      const files = async (out: string): Promise<Map<string, string>> => {
        const paths = (await readdir(join(dir, out), { recursive: true, withFileTypes: true }))
          .filter((entry) => entry.isFile() && !join(entry.parentPath, entry.name).includes('node_modules'))
          .map((entry) => join(entry.parentPath, entry.name).slice(join(dir, out).length + 1))
          .sort();
        return new Map(await Promise.all(paths.map(async (path) => [path, await readFile(join(dir, out, path), 'utf8')] as const)));
      };
      const slugs = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
      const catalogues = [
        slugs.map((slug) => tool(slug)),
        // one description changed, one tool moved to the end
        [
          ...slugs.filter((slug) => slug !== 'beta').map((slug) => tool(slug, slug === 'delta' ? { description: 'Changed.' } : {})),
          tool('beta'),
        ],
        // one removed, one added in the middle, one with new tags
        [tool('alpha', { tags: ['new'] }), tool('zeta'), tool('gamma'), tool('epsilon'), tool('beta')],
        // back to the first
        slugs.map((slug) => tool(slug)),
      ];
      for (const [index, tools] of catalogues.entries()) {
        await writeFile(source, JSON.stringify(bundle(tools)));
        await build('out');
        await build(`cold-${index}`);
        assert.deepEqual(await files('out'), await files(`cold-${index}`), `catalogue ${index}`);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
