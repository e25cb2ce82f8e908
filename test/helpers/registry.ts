// A private npm registry (Verdaccio) on 127.0.0.1 with no uplinks, seeded from the repo's installed packages, and
// npm run against it with a private cache and user config, so install and publish tests never reach the internet.

import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPO_ROOT, runProcess } from './cli.js';

const VERDACCIO_BIN = join(REPO_ROOT, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
const SEED_ROOT = join(REPO_ROOT, '.tmp', 'registry-seed');
/** Bump when the way a seed is made changes, so old seeds are not reused. */
const SEED_FORMAT = 'verdaccio-storage/1';

/** The dependencies of a generated package: runtime ones, and the dev ones its `prepack` (tsc) needs. */
export const GENERATED_PACKAGE_DEPENDENCIES = [
  '@modelcontextprotocol/sdk',
  'ajv',
  'ajv-formats',
  'fastest-levenshtein',
  're2js',
  'stemmer',
  'zod',
  'esbuild',
  'typescript',
  '@types/node',
];

/** What installing the generator itself needs: its runtime dependencies (read from its package.json). */
export const GENERATOR_DEPENDENCIES: readonly string[] = Object.keys(
  (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies,
);

export interface InstalledPackage {
  name: string;
  version: string;
  /** The installed folder under the repo's node_modules. */
  dir: string;
}

interface PackageJson {
  name: string;
  version: string;
  description?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

function readPackageJson(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
}

/** Where node would find `name` from `from`: its own node_modules, then each parent's, up to the repo root. */
function installedFolder(name: string, from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === REPO_ROOT.replace(/\/$/, '') || dir === dirname(dir)) return null;
  }
}

/**
 * Every installed package that `roots` need, transitively (dependencies, installed optional dependencies, and
 * non-optional peers), one entry per name@version, sorted. Throws when a required one is not installed.
 */
export function dependencyClosure(roots: readonly string[]): InstalledPackage[] {
  const visitedFolders = new Set<string>();
  const found = new Map<string, InstalledPackage>();
  const visit = (name: string, from: string, optional: boolean): void => {
    const dir = installedFolder(name, from);
    if (dir === null) {
      if (optional) return;
      throw new Error(`${name} (needed from ${from}) is not installed in ${REPO_ROOT}node_modules`);
    }
    if (visitedFolders.has(dir)) return;
    visitedFolders.add(dir);
    const pkg = readPackageJson(dir);
    const key = `${pkg.name}@${pkg.version}`;
    if (!found.has(key)) found.set(key, { name: pkg.name, version: pkg.version, dir });
    for (const dependency of Object.keys(pkg.dependencies ?? {})) visit(dependency, dir, false);
    for (const dependency of Object.keys(pkg.optionalDependencies ?? {})) visit(dependency, dir, true);
    for (const peer of Object.keys(pkg.peerDependencies ?? {})) visit(peer, dir, pkg.peerDependenciesMeta?.[peer]?.optional === true);
  };
  for (const root of roots) visit(root, REPO_ROOT.replace(/\/$/, ''), false);
  return [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : compareVersions(a.version, b.version)));
}

/** Orders plain x.y.z versions (prerelease tags compare as text after the numbers). */
function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/);
  const pb = b.split(/[.-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '';
    const y = pb[i] ?? '';
    const nx = Number(x);
    const ny = Number(y);
    if (x !== '' && y !== '' && Number.isInteger(nx) && Number.isInteger(ny) && nx !== ny) return nx - ny;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** An environment for npm/npx with nothing inherited that could point it elsewhere (no npm_config_* of the caller). */
export function isolatedNpmEnv(registry: Registry, home: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ['PATH', 'TMPDIR', 'LANG']) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return {
    ...env,
    HOME: home,
    npm_config_registry: `${registry.url}/`,
    npm_config_userconfig: registry.userconfig,
    npm_config_cache: join(home, '.npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_loglevel: 'warn',
    ...extra,
  };
}

export interface Registry {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  port: number;
  /** The registry's private folder (config, storage, htpasswd, npmrc). */
  dir: string;
  /** An npm user config file that holds this registry's auth token. */
  userconfig: string;
  token: string;
  /** What Verdaccio printed so far. */
  log(): string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolvePromise) => probe.listen(0, '127.0.0.1', resolvePromise));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolvePromise) => probe.close(() => resolvePromise()));
  return port;
}

function verdaccioConfig(dir: string): object {
  // No `uplinks` and no `proxy` on any package: a package that is not in storage is a 404, never a fetch.
  return {
    storage: join(dir, 'storage'),
    auth: { htpasswd: { file: join(dir, 'htpasswd'), max_users: 100 } },
    packages: { '**': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' } },
    max_body_size: '500mb',
    web: { enable: false },
    log: { type: 'stdout', format: 'pretty', level: 'warn' },
  };
}

async function waitUntilServing(url: string, child: ChildProcess, log: () => string): Promise<boolean> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    try {
      const answer = await fetch(`${url}/-/ping`);
      if (answer.ok) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
  }
  throw new Error(`Verdaccio did not answer on ${url} within 30 s:\n${log()}`);
}

/**
 * Starts Verdaccio on a free 127.0.0.1 port with its config, storage (a copy of `storageFrom` when given) and users
 * in `dir`, creates a test user, and writes an npm user config with its token.
 */
export async function startRegistry(options: { dir: string; storageFrom?: string }): Promise<Registry> {
  const { dir } = options;
  await mkdir(dir, { recursive: true });
  if (options.storageFrom !== undefined) await cp(options.storageFrom, join(dir, 'storage'), { recursive: true });
  else await mkdir(join(dir, 'storage'), { recursive: true });
  const configFile = join(dir, 'config.yaml');
  // JSON is YAML, so the config needs no YAML writer.
  await writeFile(configFile, `${JSON.stringify(verdaccioConfig(dir), null, 2)}\n`);

  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, [VERDACCIO_BIN, '--config', configFile, '--listen', `127.0.0.1:${port}`], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolvePromise) => child.on('close', () => resolvePromise()));
    const close = async (): Promise<void> => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    };
    let serving: boolean;
    try {
      serving = await waitUntilServing(url, child, () => output);
    } catch (error) {
      await close();
      throw error;
    }
    if (!serving) {
      // Most likely the port was taken between picking and listening: pick another.
      if (attempt < 3) continue;
      throw new Error(`Verdaccio exited before serving:\n${output}`);
    }
    try {
      const token = await addUser(url, `tester-${randomBytes(4).toString('hex')}`, randomBytes(12).toString('hex'));
      const userconfig = join(dir, 'npmrc');
      await writeFile(userconfig, `registry=${url}/\n//127.0.0.1:${port}/:_authToken=${token}\n`);
      return { url, port, dir, userconfig, token, log: () => output, close };
    } catch (error) {
      await close();
      throw error;
    }
  }
}

/** Creates a user the way `npm adduser` does (PUT /-/user/org.couchdb.user:NAME) and returns its token. */
async function addUser(url: string, name: string, password: string): Promise<string> {
  const answer = await fetch(`${url}/-/user/org.couchdb.user:${encodeURIComponent(name)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ _id: `org.couchdb.user:${name}`, name, password, type: 'user', roles: [], date: new Date().toISOString() }),
  });
  const body = (await answer.json()) as { token?: string };
  if (answer.status !== 201 || typeof body.token !== 'string')
    throw new Error(`adding user ${name} failed: ${answer.status} ${JSON.stringify(body)}`);
  return body.token;
}

/**
 * Publishes one tarball the way `npm publish` does (one PUT of the packument with the tarball attached). Used for
 * the ~100 seed packages, where one npm process per tarball would take minutes.
 */
async function putTarball(registry: Registry, manifest: PackageJson & Record<string, unknown>, tarball: Buffer): Promise<void> {
  const { name, version } = manifest;
  const unscopedName = name.startsWith('@') ? name.slice(name.indexOf('/') + 1) : name;
  const dist = {
    integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
    shasum: createHash('sha1').update(tarball).digest('hex'),
    tarball: `${registry.url}/${name}/-/${unscopedName}-${version}.tgz`,
  };
  const body = {
    _id: name,
    name,
    description: manifest.description ?? '',
    'dist-tags': { latest: version },
    versions: { [version]: { ...manifest, _id: `${name}@${version}`, dist } },
    access: null,
    _attachments: {
      [`${name}-${version}.tgz`]: { content_type: 'application/octet-stream', data: tarball.toString('base64'), length: tarball.length },
    },
  };
  const answer = await fetch(`${registry.url}/${name.replace('/', '%2f')}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${registry.token}` },
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`publishing ${name}@${version} to the test registry failed: ${answer.status} ${await answer.text()}`);
}

/** The part of a seed's name that says which package-lock.json it was made from. */
function lockKey(): string {
  return createHash('sha256')
    .update(SEED_FORMAT)
    .update(readFileSync(join(REPO_ROOT, 'package-lock.json')))
    .digest('hex')
    .slice(0, 16);
}

/** `<lock>-<roots>`: tests that seed different roots keep their own seeds side by side. */
function seedKey(roots: readonly string[]): string {
  return `${lockKey()}-${createHash('sha256')
    .update(`\0${roots.join('\0')}\0`)
    .digest('hex')
    .slice(0, 8)}`;
}

/**
 * A Verdaccio storage folder holding every package that `roots` need (as installed in the repo's node_modules),
 * made once per package-lock.json under `.tmp/registry-seed/<hash>/storage` and reused after that.
 */
export async function seededStorage(roots: readonly string[] = GENERATED_PACKAGE_DEPENDENCIES): Promise<string> {
  const key = seedKey(roots);
  const seed = join(SEED_ROOT, key);
  if (existsSync(join(seed, 'complete'))) return join(seed, 'storage');
  await mkdir(SEED_ROOT, { recursive: true });
  const work = join(SEED_ROOT, `${key}.building-${process.pid}`);
  await rm(work, { recursive: true, force: true });
  const packages = dependencyClosure(roots);

  // Tarballs made from the installed folders: `npm pack` of a folder packs what the package published.
  const tarballs = join(work, 'tarballs');
  await mkdir(tarballs, { recursive: true });
  const npmHome = await mkdtemp(join(tmpdir(), 'nb-seed-npm-'));
  try {
    const packed = await runProcess(
      'npm',
      ['pack', '--ignore-scripts', '--offline', '--json', '--pack-destination', tarballs, ...packages.map((pkg) => pkg.dir)],
      {
        cwd: work,
        env: { PATH: process.env.PATH ?? '', HOME: npmHome, npm_config_cache: join(npmHome, 'cache'), npm_config_update_notifier: 'false' },
      },
    );
    if (packed.code !== 0) throw new Error(`npm pack of the seed packages failed (exit ${packed.code}):\n${packed.stderr}`);
    const packedFiles = (JSON.parse(packed.stdout) as Array<{ filename: string; name: string; version: string }>).map((entry) => ({
      file: join(tarballs, entry.filename.replace(/^@/, '').replace('/', '-')),
      key: `${entry.name}@${entry.version}`,
    }));
    const fileOf = new Map(packedFiles.map((entry) => [entry.key, entry.file]));

    const registry = await startRegistry({ dir: join(work, 'registry') });
    try {
      // Versions of one name go in ascending order, so `latest` ends on the highest; names go in parallel.
      const byName = new Map<string, InstalledPackage[]>();
      for (const pkg of packages) byName.set(pkg.name, [...(byName.get(pkg.name) ?? []), pkg]);
      const queue = [...byName.values()];
      const worker = async (): Promise<void> => {
        for (let versions = queue.shift(); versions !== undefined; versions = queue.shift()) {
          for (const pkg of versions) {
            const file = fileOf.get(`${pkg.name}@${pkg.version}`);
            if (file === undefined) throw new Error(`npm pack made no tarball for ${pkg.name}@${pkg.version}`);
            const manifest = JSON.parse(await readFile(join(pkg.dir, 'package.json'), 'utf8')) as PackageJson & Record<string, unknown>;
            await putTarball(registry, manifest, await readFile(file));
          }
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
    } finally {
      await registry.close();
    }
    await mkdir(join(work, 'seed'), { recursive: true });
    await rename(join(work, 'registry', 'storage'), join(work, 'seed', 'storage'));
    await writeFile(
      join(work, 'seed', 'packages.json'),
      `${JSON.stringify(
        packages.map((pkg) => `${pkg.name}@${pkg.version}`),
        null,
        2,
      )}\n`,
    );
    await writeFile(join(work, 'seed', 'complete'), '');
    try {
      await rename(join(work, 'seed'), seed);
    } catch (error) {
      // Another run finished the same seed first; theirs holds the same packages.
      if (!existsSync(join(seed, 'complete'))) throw error;
    }
    // Seeds of older lock files are never used again.
    const current = `${lockKey()}-`;
    for (const entry of await readdir(SEED_ROOT)) {
      if (!entry.startsWith(current) && !entry.includes('.building-')) await rm(join(SEED_ROOT, entry), { recursive: true, force: true });
    }
  } finally {
    await rm(work, { recursive: true, force: true });
    await rm(npmHome, { recursive: true, force: true });
  }
  return join(seed, 'storage');
}

/** A registry in a fresh temp folder whose storage starts as the seed for `roots`. */
export async function startSeededRegistry(roots: readonly string[] = GENERATED_PACKAGE_DEPENDENCIES): Promise<Registry> {
  const storage = await seededStorage(roots);
  const dir = await mkdtemp(join(tmpdir(), 'nb-registry-'));
  let registry: Registry;
  try {
    registry = await startRegistry({ dir, storageFrom: storage });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    ...registry,
    async close() {
      await registry.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The package names a seed holds (for assertions and messages). */
export async function seededPackageNames(storage: string): Promise<string[]> {
  const names: string[] = [];
  for (const entry of await readdir(storage, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    if (entry.name.startsWith('@')) {
      for (const scoped of await readdir(join(storage, entry.name))) names.push(`${entry.name}/${scoped}`);
    } else names.push(entry.name);
  }
  return names.sort();
}
