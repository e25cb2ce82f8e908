// Flags and helpers every command shares: where the catalogue comes from, and how problems are printed.

import { Flags } from '@oclif/core';
import { formatProblem, PipelineError, type Problem } from '../pipeline/problems.js';
import { defaultSource, type SourceOptions } from '../pipeline/source/read-source.js';
import { DEFAULT_SOURCE_LIMITS, type SourceLimits } from '../pipeline/source/source-limits.js';

export const sourceFlags = {
  source: Flags.string({
    char: 's',
    description:
      'Catalogue to read: an API base URL (https://host or https://host/api) or a bundle file. Default: the source of the config file, else $NEXUSBLOOM_API_URL, else the bundled example catalogue.',
    helpValue: 'URL|FILE',
  }),
  timeout: Flags.integer({ description: 'Per-request timeout in milliseconds when reading an API.', default: 15_000, min: 1 }),
  concurrency: Flags.integer({ description: 'Manifests fetched at once when reading an API.', default: 8, min: 1, max: 64 }),
  ...sourceLimitFlags(),
};

/** Caps on what reading an API may cost; past one the read fails and nothing is written. */
function sourceLimitFlags() {
  const d = DEFAULT_SOURCE_LIMITS;
  return {
    'max-body-mb': Flags.integer({
      description: 'Largest API response read, in MiB, as sent and as decoded.',
      default: d.maxBodyBytes / 2 ** 20,
      min: 1,
    }),
    'max-pages': Flags.integer({ description: 'Listing pages followed when reading an API.', default: d.maxPages, min: 1 }),
    'max-tools': Flags.integer({ description: 'Tools listed when reading an API.', default: d.maxTools, min: 1 }),
    'max-read-seconds': Flags.integer({
      description: 'Time a whole API read (listing and manifests) may take.',
      default: d.maxReadMs / 1000,
      min: 1,
    }),
  };
}

interface LimitFlags {
  'max-body-mb'?: number;
  'max-pages'?: number;
  'max-tools'?: number;
  'max-read-seconds'?: number;
}

/**
 * `--source` as given, or its default when it is absent or blank: `--source "$SOURCE"` with SOURCE unset in a CI
 * script means "no source given", not a file named "". The default is the config file's `source` when it names one.
 */
export function resolveSource(flag: string | undefined, configured?: string): string {
  return flag !== undefined && flag.trim() !== '' ? flag.trim() : (configured ?? defaultSource(process.env));
}

export function sourceOptions(
  flags: { timeout: number; concurrency: number } & LimitFlags,
  progress: (line: string) => void,
): SourceOptions {
  const limits: Partial<SourceLimits> = {
    ...(flags['max-body-mb'] === undefined ? {} : { maxBodyBytes: flags['max-body-mb'] * 2 ** 20 }),
    ...(flags['max-pages'] === undefined ? {} : { maxPages: flags['max-pages'] }),
    ...(flags['max-tools'] === undefined ? {} : { maxTools: flags['max-tools'] }),
    ...(flags['max-read-seconds'] === undefined ? {} : { maxReadMs: flags['max-read-seconds'] * 1000 }),
  };
  return {
    limits,
    apiKey: process.env.NEXUSBLOOM_API_KEY || undefined,
    timeoutMs: flags.timeout,
    concurrency: flags.concurrency,
    userAgent: 'nexusbloom-gen',
    onManifest: (done, total) => {
      if (total >= 100 && (done % 100 === 0 || done === total)) progress(`fetched ${done}/${total} manifests`);
    },
  };
}

/** Problems as lines for a human on stderr. */
export function problemLines(problems: readonly Problem[]): string[] {
  return problems.map(formatProblem);
}

export function errorMessage(error: unknown): string {
  if (error instanceof PipelineError) {
    const extra = error.problems.length > 1 && !error.message.includes('\n') ? `\n${problemLines(error.problems).join('\n')}` : '';
    return `${error.message}${extra}`;
  }
  return error instanceof Error ? error.message : String(error);
}
