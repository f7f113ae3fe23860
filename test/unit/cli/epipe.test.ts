/**
 * #16 item 17: a reader that goes away (`spanproof run --help | head`, `… | less` quit early) must not
 * make the CLI print an EPIPE stack trace. stdout closed → the CLI stops quietly with 141 (128 +
 * SIGPIPE, the shell convention); stderr closed → the command carries on and keeps its own status.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from '../../helpers/paths';
import { tempDir } from '../../helpers/tmp';

interface Closed { code: number | null; stdout: string; stderr: string }

/** Runs the CLI with one of its output pipes closed by the reader before the CLI writes to it. */
function runWithClosed(which: 'stdout' | 'stderr', args: string[]): Promise<Closed> {
  return new Promise((res) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'src', 'cli', 'main.ts'), ...args], { cwd: REPO });
    let stdout = '';
    let stderr = '';
    if (which === 'stdout') child.stdout.destroy();
    else child.stdout.on('data', (d: Buffer) => (stdout += d));
    if (which === 'stderr') child.stderr.destroy();
    else child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code) => res({ code, stdout, stderr }));
  });
}

for (const args of [['run', '--help'], ['--help'], ['--version']]) {
  test(`spanproof ${args.join(' ')} into a closed reader: no stack trace, exit 141`, async () => {
    const r = await runWithClosed('stdout', args);
    assert.doesNotMatch(r.stderr, /EPIPE|Unhandled|at .*\(/, r.stderr);
    assert.equal(r.stderr, '');
    assert.equal(r.code, 141);
  });
}

test('stderr closed by its reader: the command keeps its own exit status (2 for a missing folder)', async () => {
  const dir = tempDir('spanproof-epipe-');
  const r = await runWithClosed('stderr', ['validate', '--workspace', join(dir, 'does-not-exist')]);
  assert.equal(r.code, 2, r.stdout);
  assert.doesNotMatch(r.stdout, /EPIPE/);
});
