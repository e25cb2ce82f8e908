// A host that sends requests and never reads the answers: the server stops reading stdin once stdout's queue is full,
// so its memory stays flat, and every answer still comes once the host reads again.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('../fixtures/stdio-server-child.ts', import.meta.url));
const MiB = 2 ** 20;

function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

test("a client that never reads stdout cannot drive the server's memory up", { timeout: 120_000 }, async (t) => {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { stdio: ['pipe', 'pipe', 'pipe'] });
  try {
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
      child.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
    });
    child.stdout.pause();
    const baseline = rssOf(child.pid as number);
    // Each answer is about 8 KiB (the tool list); 20,000 of them would be 160 MiB held in the server.
    const request = (id: number): string => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' })}\n`;
    let sent = 0;
    const deadline = Date.now() + 8000;
    while (sent < 20_000 && Date.now() < deadline) {
      if (!child.stdin.write(request(sent + 1))) {
        // The server is not reading: wait for it, but not forever.
        const drained = await Promise.race([
          new Promise<boolean>((resolve) => child.stdin.once('drain', () => resolve(true))),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 500)),
        ]);
        if (!drained && Date.now() > deadline - 6000) break;
      }
      sent += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const grown = rssOf(child.pid as number) - baseline;
    t.diagnostic(`${sent} requests sent, RSS grew by ${Math.round(grown / MiB)} MiB`);
    assert.ok(sent < 20_000, 'the server kept reading stdin although nobody read its answers');
    assert.ok(grown < 60 * MiB, `the server's RSS grew by ${Math.round(grown / MiB)} MiB with ${sent} requests sent`);

    // Reading again: every request sent is answered.
    let answered = 0;
    let rest = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      answered += lines.length;
    });
    child.stdout.resume();
    for (let waited = 0; answered < sent && waited < 60_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(answered >= sent, `${answered} of ${sent} requests answered`);
  } finally {
    child.kill('SIGKILL');
  }
});
