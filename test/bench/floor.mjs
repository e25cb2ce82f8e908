// The floor of any generator: read the catalogue (a bundle's `tools`, or an OpenAPI document's operations) and write
// one .ts file per tool holding its JSON, nothing checked or derived. Timed by the bench as a whole process.
//
// Usage: node test/bench/floor.mjs <bundle-or-openapi.json> <out-dir>

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [source, outDir] = process.argv.slice(2);
if (!source || !outDir) throw new Error('usage: node floor.mjs <bundle-or-openapi.json> <out-dir>');
const document = JSON.parse(readFileSync(source, 'utf8'));
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const tools = Array.isArray(document.tools)
  ? document.tools
  : Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      METHODS.filter((method) => item?.[method]).map((method) => ({
        slug: item[method].operationId ?? `${method} ${path}`,
        path,
        method,
        operation: item[method],
      })),
    );
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
tools.forEach((tool, i) => {
  writeFileSync(join(outDir, `tool-${i}.ts`), `export const tool = ${JSON.stringify(tool)} as const;\n`);
});
process.stdout.write(`${tools.length}\n`);
