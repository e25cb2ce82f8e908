// Summarizes a V8 `.cpuprofile` (from `node --cpu-prof`): self time by function and by module, biggest first.

import { readFile } from 'node:fs/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  selfMs: number;
  share: number;
}

export interface ProfileSummary {
  totalMs: number;
  functions: SelfTime[];
  modules: SelfTime[];
}

/** `node_modules/ajv/dist/compile/index.js` → `ajv`; a repo file → its path from the repo; V8 internals by name. */
export function moduleOf(url: string, repoRoot: string): string {
  if (url === '') return '(native / V8)';
  const path = url.replace(/^file:\/\//, '');
  const inModules = path.lastIndexOf('/node_modules/');
  if (inModules >= 0) {
    const parts = path.slice(inModules + '/node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1] ?? ''}` : (parts[0] ?? path);
  }
  return path.startsWith(repoRoot) ? path.slice(repoRoot.length).replace(/^\//, '') : path;
}

/** A script's path from its package (`ajv/dist/compile/index.js`) or from the repo. */
function fileOf(url: string, repoRoot: string): string {
  const path = url.replace(/^file:\/\//, '');
  const inModules = path.lastIndexOf('/node_modules/');
  if (inModules >= 0) return path.slice(inModules + '/node_modules/'.length);
  return path.startsWith(repoRoot) ? path.slice(repoRoot.length).replace(/^\//, '') : path;
}

function ranked(totals: Map<string, number>, totalMs: number, top: number): SelfTime[] {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, selfMs]) => ({ name, selfMs, share: selfMs / totalMs }));
}

export async function summarizeCpuProfile(path: string, repoRoot: string, top = 10): Promise<ProfileSummary> {
  const profile = JSON.parse(await readFile(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  const byModule = new Map<string, number>();
  let totalUs = 0;
  // timeDeltas[i] is the time between sample i-1 and sample i; it is charged to the node sampled at i.
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node || us <= 0) return;
    totalUs += us;
    const { functionName, url, lineNumber } = node.callFrame;
    const module = moduleOf(url, repoRoot);
    const fn =
      url === '' ? `${functionName || '(anonymous)'}` : `${functionName || '(anonymous)'} (${fileOf(url, repoRoot)}:${lineNumber + 1})`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us / 1000);
    byModule.set(module, (byModule.get(module) ?? 0) + us / 1000);
  });
  const totalMs = totalUs / 1000;
  return { totalMs, functions: ranked(byFunction, totalMs, top), modules: ranked(byModule, totalMs, top) };
}
