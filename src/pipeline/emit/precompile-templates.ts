// Precompiles `templates/` into `dist/templates-compiled/` when the generator is built, so a build needs only
// Handlebars' runtime (templates.ts). Each module records the hash of the source it was made from: an edited template
// is compiled from its source until the next generator build.
//
// Usage: node dist/pipeline/emit/precompile-templates.js   (`npm run build` runs it after tsc)

import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { runBuildStep } from '../build-step.js';
import { writeFileAtomic } from '../write/atomic-write.js';
import { COMPILE_OPTIONS, PRECOMPILED_DIR, precompiledFile, sourceHash, TEMPLATE_NAMES, templateSource } from './templates.js';

/** The text of one precompiled module: CommonJS, so templates.ts loads it synchronously. */
export function precompiledModule(source: string): string {
  const spec = Handlebars.precompile(source, COMPILE_OPTIONS);
  return `module.exports = { sourceHash: ${JSON.stringify(sourceHash(source))}, spec: ${String(spec)} };\n`;
}

export function precompileTemplates(dir: URL = PRECOMPILED_DIR): void {
  mkdirSync(dir, { recursive: true });
  for (const name of TEMPLATE_NAMES)
    writeFileAtomic(fileURLToPath(new URL(precompiledFile(name), dir)), precompiledModule(templateSource(name)));
}

await runBuildStep(import.meta.url, 'precompile-templates', precompileTemplates);
