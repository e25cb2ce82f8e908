// A bounded queue in front of local runs: at most `concurrency` children at once, at most `queueLimit` calls waiting.

export interface RunQueue {
  /**
   * Waits for a free slot and resolves with its release function; resolves with null at once when the queue is full,
   * and with null when `signal` aborts while waiting (the call leaves the queue).
   */
  acquire(signal?: AbortSignal): Promise<(() => void) | null>;
  readonly running: number;
  readonly waiting: number;
}

export function createRunQueue(concurrency: number, queueLimit: number): RunQueue {
  let running = 0;
  const waiters: Array<() => void> = [];
  const release = (): void => {
    running -= 1;
    const next = waiters.shift();
    if (next !== undefined) next();
  };
  const slot = (): (() => void) => {
    running += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  };
  return {
    get running() {
      return running;
    },
    get waiting() {
      return waiters.length;
    },
    acquire(signal) {
      if (running < concurrency && waiters.length === 0) return Promise.resolve(slot());
      if (waiters.length >= queueLimit) return Promise.resolve(null);
      return new Promise((resolve) => {
        const onAbort = (): void => {
          const index = waiters.indexOf(wake);
          if (index !== -1) waiters.splice(index, 1);
          resolve(null);
        };
        const wake = (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve(slot());
        };
        waiters.push(wake);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}
