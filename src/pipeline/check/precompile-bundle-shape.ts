// Compiles the manifest schema's validator into `dist/check-compiled/` when the generator is built (ajv's standalone
// code), stamped with what it was made from; see bundle-shape.ts.
//
// Usage: node dist/pipeline/check/precompile-bundle-shape.js   (`npm run build` runs it after tsc)

import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { runBuildStep } from '../build-step.js';
import { writeFileAtomic } from '../write/atomic-write.js';
import { BUNDLE_SHAPE_FILE, BUNDLE_SHAPE_OPTIONS, bundleSchema, bundleShapeStamp, COMPILED_CHECK_DIR } from './bundle-shape.js';

/** ajv's standalone module is CommonJS: under NodeNext its default import is the module object, whose `default` is the function. */
const standaloneCode = (standaloneModule as unknown as { default: typeof standaloneModule.default }).default;

/** The compiled validator's module: ajv's standalone CommonJS code, with its stamp. */
export function bundleShapeModule(): string {
  const ajv = new Ajv2020({ ...BUNDLE_SHAPE_OPTIONS, code: { source: true } });
  const code = standaloneCode(ajv, ajv.compile(bundleSchema()));
  return `${code}\nmodule.exports.stamp = ${JSON.stringify(bundleShapeStamp())};\n`;
}

export function precompileBundleShape(dir: URL = COMPILED_CHECK_DIR): string {
  mkdirSync(dir, { recursive: true });
  const file = fileURLToPath(new URL(BUNDLE_SHAPE_FILE, dir));
  writeFileAtomic(file, bundleShapeModule());
  return file;
}

await runBuildStep(import.meta.url, 'precompile-bundle-shape', () => precompileBundleShape());
