// What `nexusbloom-gen init` writes: the names of a project's own server, from flags, answers to prompts, or
// suggestions made from the project (its package.json name, else its folder name, or the API's host).

import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { isApiSource } from '../pipeline/source/read-source.js';

/** The keys `init` writes, in the order it writes them. */
export const INIT_KEYS = [
  'source',
  'out',
  'packageName',
  'serverName',
  'productName',
  'metaToolName',
  'uriScheme',
  'envPrefix',
  'defaultApiUrl',
] as const;
export type InitKey = (typeof INIT_KEYS)[number];
export type InitAnswers = Partial<Record<InitKey, string>>;

export const QUESTIONS: Record<InitKey, string> = {
  source: 'Catalogue (bundle file or API URL)',
  out: 'Folder to write the server package to',
  packageName: 'npm package name of the server',
  serverName: 'MCP server name',
  productName: 'Product name (in descriptions and the README)',
  metaToolName: 'Name of the meta-tool',
  uriScheme: 'URI scheme of its resources',
  envPrefix: 'Prefix of its environment variables',
  defaultApiUrl: 'API the server calls by default',
};

/** Lower-case words joined by `-`: `@acme/Billing_App` → `billing-app`. */
function slugOf(text: string): string {
  return text
    .replace(/^@[^/]+\//, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function projectName(cwd: string): { scope: string | null; name: string } {
  const manifest = join(cwd, 'package.json');
  if (existsSync(manifest)) {
    try {
      const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown };
      if (typeof name === 'string' && name !== '')
        return { scope: /^(@[^/]+)\//.exec(name)?.[1] ?? null, name: name.replace(/^@[^/]+\//, '') };
    } catch {
      // Not JSON: fall back to the folder's name.
    }
  }
  return { scope: null, name: basename(cwd) };
}

/** A name for the server when nothing is given: the API's host (`billing.acme.com` → `billing`), else the project's. */
function baseName(source: string | undefined, cwd: string): { scope: string | null; base: string } {
  if (source !== undefined && isApiSource(source)) {
    try {
      const label = new URL(source).hostname.split('.').find((part) => !['api', 'www'].includes(part));
      if (label) return { scope: null, base: slugOf(label) };
    } catch {
      // Not a URL after all: use the project's name.
    }
  }
  const { scope, name } = projectName(cwd);
  return { scope, base: slugOf(name) || 'tools' };
}

/** Suggested values for every key not in `given`, derived from what is given. */
export function suggestions(given: InitAnswers, cwd: string): InitAnswers {
  const { scope, base } = baseName(given.source, cwd);
  const serverName = given.serverName ?? base;
  const identifier = slugOf(serverName) || base;
  return {
    out: 'generated',
    packageName: `${scope === null ? '' : `${scope}/`}${base}-mcp-server`,
    serverName,
    productName: identifier
      .split('-')
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join(' '),
    metaToolName: identifier,
    uriScheme: /^[a-z]/.test(identifier) ? identifier : `x-${identifier}`,
    envPrefix: `${identifier.toUpperCase().replace(/-/g, '_')}_`,
    ...(given.source !== undefined && isApiSource(given.source) ? { defaultApiUrl: given.source } : {}),
  };
}

/** Asks for each key in `keys` on `output`, offering its suggestion; an empty answer takes the suggestion. */
export async function ask(
  keys: readonly InitKey[],
  suggest: (answers: InitAnswers) => InitAnswers,
  given: InitAnswers,
  io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream },
): Promise<InitAnswers> {
  const answers: InitAnswers = { ...given };
  const prompt = createInterface({ input: io.input, terminal: false });
  // Lines read through the iterator are kept until asked for (question() would drop lines typed ahead or piped in).
  const lines = prompt[Symbol.asyncIterator]();
  try {
    for (const key of keys) {
      // Suggestions follow earlier answers: the package name from the source's host, the env prefix from the server name.
      const offered = suggest(answers)[key];
      io.output.write(`${QUESTIONS[key]}${offered === undefined ? '' : ` (${offered})`}: `);
      const line = await lines.next();
      const answer = line.done === true ? '' : String(line.value).trim();
      if (answer !== '') answers[key] = answer;
      else if (offered !== undefined) answers[key] = offered;
    }
  } finally {
    prompt.close();
  }
  return answers;
}

/** Why a value cannot be written, or null. */
export function invalidAnswer(key: InitKey, value: string): string | null {
  if (key === 'packageName' && !/^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/.test(value))
    return `${value} is not an npm package name (lower case, optionally @scope/name)`;
  if (key === 'defaultApiUrl' && !isApiSource(value)) return `${value} is not an http(s) URL`;
  if (key === 'metaToolName' && !/^[A-Za-z0-9_-]{1,64}$/.test(value))
    return `${value} is not a tool name (letters, digits, _ and -, at most 64)`;
  if (key === 'uriScheme' && !/^[a-z][a-z0-9+.-]*$/.test(value))
    return `${value} is not a URI scheme (a letter, then letters, digits, +, . or -)`;
  if (key === 'envPrefix' && !/^[A-Z_][A-Z0-9_]*$/.test(value))
    return `${value} is not an environment variable prefix (upper case letters, digits and _)`;
  return null;
}
