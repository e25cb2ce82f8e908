// Writes examples/catalogue.json from tool-definitions.ts and the tool sources in examples/tools/, deterministically.
// Run: npx tsx examples/make-catalogue.ts

import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Manifest } from '../src/runtime/shared/contracts.js';
import { toolDefinitions } from './tool-definitions.js';

export const CATALOGUE_PATH = fileURLToPath(new URL('./catalogue.json', import.meta.url));

export interface CatalogueBundle {
  format: 'nexusbloom-catalogue/1';
  tools: Manifest[];
}

/** The bundle, tools sorted by slug (code unit order), sources read from examples/tools/. */
export function buildCatalogue(): CatalogueBundle {
  const tools = toolDefinitions.map(({ sourceFile, ...manifest }): Manifest => {
    const code = readFileSync(new URL(`./tools/${sourceFile}`, import.meta.url), 'utf8');
    return { ...manifest, source: { runtime: 'node', code } };
  });
  tools.sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  return { format: 'nexusbloom-catalogue/1', tools };
}

/** The exact bytes of examples/catalogue.json: 2-space JSON, LF, final newline. */
export function catalogueText(bundle: CatalogueBundle = buildCatalogue()): string {
  return `${JSON.stringify(bundle, null, 2)}\n`;
}

const invokedDirectly =
  process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
if (invokedDirectly) {
  const text = catalogueText();
  writeFileSync(CATALOGUE_PATH, text);
  process.stderr.write(`wrote ${CATALOGUE_PATH} (${JSON.parse(text).tools.length} tools)\n`);
}
