// Runs the real `nexusbloom-gen` binary (bin/run.js over the compiled dist/) and captures what it printed.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ProcessOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed; without it stdin is ignored. */
  input?: string;
  /** The process is killed (SIGKILL) after this long; default 5 minutes. */
  timeoutMs?: number;
}

/** Runs a command to its end and captures what it printed. */
export function runProcess(command: string, args: string[], options: ProcessOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}

export function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CliResult> {
  return runProcess(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, NEXUSBLOOM_API_URL: '', NEXUSBLOOM_API_KEY: '', ...options.env },
  });
}
