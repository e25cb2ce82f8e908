// The runtime's modules import one another without a cycle (type-only imports included): every room can be read
// from the modules it builds on, and a module's dependencies never lead back to it.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const RUNTIME = fileURLToPath(new URL('../../src/runtime/', import.meta.url));

/** Relative specifiers of `import … from`, `export … from`, `import '…'` and `import('…')`, with comments left out. */
function relativeImports(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const specifiers: string[] = [];
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)(['"])(\.\.?\/[^'"]+)\1/g)) specifiers.push(match[2]!);
  return specifiers;
}

/** Every runtime module (relative to src/runtime/) mapped to the runtime modules it imports. */
function importGraph(): Map<string, string[]> {
  const files = readdirSync(RUNTIME, { recursive: true, encoding: 'utf8' })
    .map((path) => path.split('\\').join('/'))
    .filter((path) => path.endsWith('.ts'))
    .sort();
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = relativeImports(readFileSync(join(RUNTIME, file), 'utf8'))
      .map((specifier) =>
        relative(RUNTIME, resolve(dirname(join(RUNTIME, file)), specifier))
          .split('\\')
          .join('/')
          .replace(/\.js$/, '.ts'),
      )
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)].sort());
  }
  return graph;
}

/** Strongly connected components of more than one module, or of one that imports itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

describe('runtime import graph', () => {
  it('reads the imports of every module, type-only and re-exports included', () => {
    const graph = importGraph();
    assert.ok(graph.size > 50, `${graph.size} modules`);
    assert.ok(graph.get('transport/server.ts')!.includes('shared/contracts.ts'));
    assert.deepEqual(
      relativeImports(
        "import type {\n  A,\n} from './a.js';\nexport { b } from '../b.js';\n// import { c } from './c.js';\nconst d = await import('./d.js');",
      ),
      ['./a.js', '../b.js', './d.js'],
    );
  });

  it('finds a cycle where there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['d.ts']],
      ['e.ts', ['a.ts']],
    ]);
    assert.deepEqual(cycles(graph), [['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
  });

  it('has no cycle in src/runtime/', () => {
    assert.deepEqual(cycles(importGraph()), []);
  });
});
