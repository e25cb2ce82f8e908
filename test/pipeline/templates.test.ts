// Templates precompiled by the generator's build render exactly as the same templates compiled from their sources, and
// a precompiled form that is missing or was made from another source is never used.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { resolveConfig } from '../../src/pipeline/config.js';
import { precompileTemplates } from '../../src/pipeline/emit/precompile-templates.js';
import { loadTemplate, precompiledFile, TEMPLATE_NAMES, type TemplateName } from '../../src/pipeline/emit/templates.js';

const folders: string[] = [];
after(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** A fresh folder of precompiled templates (each its own: require caches a module by path). */
function precompiledFolder(): URL {
  const folder = mkdtempSync(join(tmpdir(), 'nexusbloom-templates-'));
  folders.push(folder);
  const url = pathToFileURL(`${folder}/`);
  precompileTemplates(url);
  return url;
}

const missing = pathToFileURL(join(tmpdir(), 'nexusbloom-no-templates-here/'));

/** Views the templates render without a plan: the constant entries and the names module, as the runtime prebuild renders them. */
const VIEWS: Partial<Record<TemplateName, object>> = {
  'bin.ts': {},
  'client.ts': {},
  'index.ts': {},
  'names.ts': { names: resolveConfig().names },
  gitignore: {},
  gitattributes: {},
  prettierignore: {},
};

test('every template is precompiled and taken from its precompiled form', () => {
  const dir = precompiledFolder();
  for (const name of TEMPLATE_NAMES) assert.equal(loadTemplate(name, dir).precompiled, true, name);
});

test('a precompiled template renders what the template compiled from its source renders', () => {
  const dir = precompiledFolder();
  for (const [name, view] of Object.entries(VIEWS) as [TemplateName, object][]) {
    const fromSpec = loadTemplate(name, dir);
    const fromSource = loadTemplate(name, missing);
    assert.equal(fromSource.precompiled, false);
    assert.equal(fromSpec.template(view), fromSource.template(view), name);
    assert.ok(fromSpec.template(view).length > 0, name);
  }
});

test('strict mode holds in the precompiled form: a missing field fails, as when compiled from the source', () => {
  const dir = precompiledFolder();
  assert.throws(() => loadTemplate('tool.ts', dir).template({}), /"types" not defined/);
  assert.throws(() => loadTemplate('tool.ts', missing).template({}), /"types" not defined/);
});

test('a precompiled template made from another source is compiled from the current source instead', () => {
  const dir = precompiledFolder();
  const file = new URL(precompiledFile('names.ts'), dir);
  writeFileSync(file, readFileSync(file, 'utf8').replace(/sourceHash: "[0-9a-f]+"/, 'sourceHash: "0000"'));
  const loaded = loadTemplate('names.ts', dir);
  assert.equal(loaded.precompiled, false);
  assert.equal(loaded.template(VIEWS['names.ts']!), loadTemplate('names.ts', missing).template(VIEWS['names.ts']!));
});
