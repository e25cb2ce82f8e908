// The Node.js flags a local run's child starts with: the permission model (no file access beyond its own script, no
// child processes, no workers, no addons), a heap cap, and quiet about the permission model being experimental.

/** A Node.js version as `process.version` spells it (`v20.20.2`), split into numbers. */
function versionParts(version: string): [number, number] {
  const match = /^v?(\d+)\.(\d+)/.exec(version);
  return match === null ? [0, 0] : [Number(match[1]), Number(match[2])];
}

/**
 * The flag that turns the permission model on: `--permission` where it is stable (22.13+, 23.5+, 24+),
 * `--experimental-permission` on 20 and older 22; null before 20, which has none.
 */
export function permissionFlag(version: string): string | null {
  const [major, minor] = versionParts(version);
  if (major >= 24 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13)) return '--permission';
  if (major >= 20) return '--experimental-permission';
  return null;
}

/**
 * Flags for a child that runs `entryPath` under the permission model. It may read its own entry script and nothing else
 * on disk (the tool's code arrives over IPC): so no `/proc/<parent>/environ`, no `/proc/<parent>/fd/1`, no writes,
 * no child processes or workers (no grandchildren to outlive a deadline), no native addons. Sockets stay open to it as
 * on every Node.js line; from Node.js 25, which gates them too, `--allow-net` keeps that so.
 */
export function sandboxFlags(entryPath: string, heapMb: number, version: string = process.version): string[] {
  const flag = permissionFlag(version);
  const [major, minor] = versionParts(version);
  const flags = [`--max-old-space-size=${heapMb}`];
  if (flag === null) return flags;
  flags.push(flag, `--allow-fs-read=${entryPath}`);
  if (major >= 25) flags.push('--allow-net');
  // The child's stderr is forwarded to the log: one "experimental" line per run would be noise there.
  flags.push(major > 20 || minor >= 11 ? '--disable-warning=ExperimentalWarning' : '--no-warnings');
  return flags;
}
