// The generated package is already formatted: Prettier, with the package's own settings, changes none of its .ts,
// .json and .md files (those its .prettierignore names excepted), and those settings are the generator's own.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import * as prettier from 'prettier';
import { checkCatalogue } from '../../src/pipeline/check/check-in-thread.js';
import { resolveConfig } from '../../src/pipeline/config.js';
import { emitPackage } from '../../src/pipeline/emit/emit-package.js';
import { wholeText } from '../../src/pipeline/emit/package-text.js';
import { endingInOneNewline } from '../../src/pipeline/emit/text.js';
import { planPackage } from '../../src/pipeline/plan/plan-package.js';
import { bundle, hostileBundle } from '../fixtures/catalogues.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { builtExample } from '../helpers/mcp.js';

const FORMATTED = /\.(ts|json|md)$/;

/** What the package's .prettierignore may leave out: the data files, no more. */
const MAY_BE_IGNORED = /^data\//;

/** Package files, relative with `/`, without build output and installed dependencies. */
function packageFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((path) => !/^(dist|node_modules)\//.test(path))
    .sort();
}

/** The files of `files` (path → text) that Prettier would change, with the settings it finds for them under `dir`. */
async function unformatted(files: Iterable<[string, string]>, dir: string): Promise<string[]> {
  const changed: string[] = [];
  for (const [path, text] of files) {
    const filepath = join(dir, path);
    const config = await prettier.resolveConfig(filepath, { editorconfig: false });
    assert.ok(config, `a Prettier config applies to ${path}`);
    if (!(await prettier.check(text, { ...config, filepath }))) changed.push(path);
  }
  return changed;
}

/**
 * The files of the package emitted from `catalogue` whose paths match `formatted`, as Prettier sees them: the runtime
 * (checked where it stands) and the ignored data files left out. Checked as if in a folder of the repo: the
 * generator's settings, the same as the package's.
 */
async function emittedCode(catalogue: unknown, formatted = /\.(ts|json)$/): Promise<[string, string][]> {
  const check = checkCatalogue(catalogue);
  const { files } = await emitPackage(planPackage(check.tools), resolveConfig());
  return [...files]
    .filter(([path]) => formatted.test(path) && !path.startsWith('src/runtime/') && !MAY_BE_IGNORED.test(path))
    .map(([path, text]) => [path, wholeText(text)]);
}

describe('formatting of the generated package', () => {
  it('leaves nothing for Prettier to change in the built example, with the settings it ships', async () => {
    const dir = await builtExample();
    const ignorePath = join(dir, '.prettierignore');
    const checked: [string, string][] = [];
    const ignored: string[] = [];
    for (const path of packageFiles(dir).filter((file) => FORMATTED.test(file))) {
      const text = readFileSync(join(dir, path), 'utf8');
      if (path.startsWith('src/runtime/')) {
        // The generator's own src/runtime, copied as it is (LF, one final newline): `npm run lint` checks it there,
        // with the same settings.
        assert.equal(text, endingInOneNewline(readFileSync(join(REPO_ROOT, path), 'utf8').replace(/\r\n?/g, '\n')), path);
        continue;
      }
      if ((await prettier.getFileInfo(join(dir, path), { ignorePath })).ignored) ignored.push(path);
      else checked.push([path, text]);
    }
    assert.deepEqual(
      ignored.filter((path) => !MAY_BE_IGNORED.test(path)),
      [],
      'ignored beyond data/',
    );
    for (const expected of [
      'README.md',
      'package.json',
      'tsconfig.json',
      'server.json',
      'src/names.ts',
      'src/tools/index.ts',
      'src/tools/uuid-generator.ts',
      'src/index.ts',
    ]) {
      assert.ok(
        checked.some(([path]) => path === expected),
        `${expected} is checked`,
      );
    }
    assert.deepEqual(await unformatted(checked, dir), []);
  });

  it("ships the generator's own Prettier settings", async () => {
    const dir = await builtExample();
    assert.equal(readFileSync(join(dir, '.prettierrc.json'), 'utf8'), readFileSync(join(REPO_ROOT, '.prettierrc.json'), 'utf8'));
  });

  // The README is not among them: Prettier also rewrites markdown inside catalogue text (`*a*` to `_a_`).
  it('keeps the code and JSON formatted for hostile catalogue text: quotes in string literals, long names', async () => {
    const checked = await emittedCode(hostileBundle());
    assert.ok(checked.some(([path]) => path === 'src/tools/index.ts'));
    assert.deepEqual(await unformatted(checked, join(REPO_ROOT, '.tmp', 'formatting')), []);
  });

  // With no tool, the loops of the templates leave nothing between braces: `{}` as Prettier writes it, README included.
  it('keeps the package of an empty catalogue formatted', async () => {
    const checked = await emittedCode(bundle([]), /\.(ts|json|md)$/);
    for (const expected of ['README.md', 'src/index.ts', 'src/tools/index.ts']) {
      assert.ok(
        checked.some(([path]) => path === expected),
        `${expected} is checked`,
      );
    }
    assert.deepEqual(await unformatted(checked, join(REPO_ROOT, '.tmp', 'formatting')), []);
  });
});
