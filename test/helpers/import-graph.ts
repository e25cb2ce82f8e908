// The generator's own modules a module reaches through its static imports (type-only imports load nothing), by
// path under src/: what loading it costs before any dynamic import.

import { readFileSync } from 'node:fs';

export function staticImports(entry: URL): string[] {
  const reached = new Set<string>();
  const visit = (url: URL): void => {
    if (reached.has(url.href)) return;
    reached.add(url.href);
    const text = readFileSync(url, 'utf8');
    for (const [, from] of text.matchAll(/^import (?!type )[^;]*?from '(\.{1,2}\/[^']+)\.js';$/gms)) visit(new URL(`${from}.ts`, url));
  };
  visit(entry);
  return [...reached].map((href) => href.replace(/.*\/src\//, ''));
}
