// `nexusbloom-gen pull`: snapshot an API catalogue into a bundle file that a CI build can be pinned to.

import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command.js';
import { BUNDLE_FORMAT } from '../pipeline/source/bundle-source.js';
import { isApiSource, readSource, shownSource } from '../pipeline/source/read-source.js';
import { sourceFlags, sourceOptions } from '../cli/shared-flags.js';
import { writeFileAtomic } from '../pipeline/write/atomic-write.js';
import { byCodeUnit } from '../runtime/shared/order.js';

export interface PullResult {
  /** The API URL, its credentials masked. */
  source: string;
  out: string;
  tools: number;
}

export default class Pull extends BaseCommand {
  static override description = `Snapshot a catalogue API into a bundle file.

Fetches the listing and every manifest, and writes them as one bundle ({"format":"nexusbloom-catalogue/1","tools":[...]}),
tools sorted by slug, so the file can be reviewed, committed, and passed to build --source.`;

  static override examples = ['<%= config.bin %> pull --source https://nexusbloom.dev/api --out catalogue.json'];

  static override flags = {
    ...sourceFlags,
    source: Flags.string({ char: 's', description: 'API base URL to snapshot. Default: $NEXUSBLOOM_API_URL.', helpValue: 'URL' }),
    out: Flags.string({ char: 'o', description: 'Bundle file to write.', default: 'catalogue.json', helpValue: 'FILE' }),
  };

  async run(): Promise<PullResult> {
    const { flags } = await this.parse(Pull);
    // Blank counts as absent, as for every command's --source (see resolveSource).
    const source = [flags.source, process.env.NEXUSBLOOM_API_URL]
      .map((value) => value?.trim())
      .find((value) => value !== undefined && value !== '');
    if (!source || !isApiSource(source)) {
      this.fail('pull needs an API URL: pass --source https://host/api or set NEXUSBLOOM_API_URL', 2);
    }
    const out = resolve(flags.out);
    // Said before the catalogue is fetched, not after.
    if (
      await stat(out).then(
        (info) => info.isDirectory(),
        () => false,
      )
    ) {
      this.fail(`--out ${flags.out} is a folder: pass the bundle file to write, e.g. --out ${join(flags.out, 'catalogue.json')}`, 2);
    }
    let count: number;
    try {
      const raw = await readSource(
        source,
        sourceOptions(flags, (line) => this.diagnostic(line)),
      );
      const tools = [...((raw.document as { tools: Array<{ slug: string }> }).tools ?? [])].sort((a, b) => byCodeUnit(a.slug, b.slug));
      count = tools.length;
      writeFileAtomic(out, `${JSON.stringify({ format: BUNDLE_FORMAT, tools }, null, 2)}\n`);
    } catch (error) {
      this.failOn(error);
    }
    this.log(`Wrote ${count} tools from ${shownSource(source)} to ${flags.out}.`);
    return { source: shownSource(source), out, tools: count };
  }
}
