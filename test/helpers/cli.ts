/**
 * The `spanproof` CLI as a user runs it, from the sources through tsx, in a child process spawned
 * asynchronously (so fake servers in this test process keep answering). The worker runs from its
 * source too (SPANPROOF_WORKER).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './paths';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `spanproof ...args` with `env` added to this process's environment; `onSpawn` gets a function
 * that sends the child SIGINT (Ctrl-C). With `timeoutMs` the child is killed (SIGKILL, code null)
 * after that long — for tests of inputs that once hung the CLI, so a regression fails, not hangs.
 */
export function runCli(args: string[], env: Record<string, string | undefined> = {}, onSpawn?: (interrupt: () => void) => void, timeoutMs?: number): Promise<CliResult> {
  return new Promise((res) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'src', 'cli', 'main.ts'), ...args], { cwd: REPO, env: { ...process.env, SPANPROOF_WORKER: join(REPO, 'src', 'worker', 'main.ts'), ...env }, ...(timeoutMs ? { timeout: timeoutMs, killSignal: 'SIGKILL' as const } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code) => res({ code, stdout, stderr }));
    onSpawn?.(() => child.kill('SIGINT'));
  });
}
