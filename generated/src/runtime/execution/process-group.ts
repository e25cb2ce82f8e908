// Ends a local run's whole process tree: the child is started as the leader of its own process group, so one signal
// to the group reaches it and anything it started that stayed in the group.

import type { ChildProcess } from 'node:child_process';

/** SIGKILLs the process group led by `child` (POSIX), falling back to the child alone; never throws. */
export function killProcessTree(child: ChildProcess): void {
  const pid = child.pid;
  if (pid !== undefined && process.platform !== 'win32') {
    try {
      process.kill(-pid, 'SIGKILL');
      return;
    } catch {
      // ESRCH: the group is already gone; the child itself is handled below in case it was never a group leader.
    }
  }
  try {
    child.kill('SIGKILL');
  } catch {
    // Already gone.
  }
}
