// src/cli/cancel.ts: the first signal cancels and sets the exit status; one more is absorbed while the
// command finishes cancelling; the next exits at once with the first signal's status (a command stuck
// in its cleanup can still be stopped from the keyboard).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from '../../helpers/grid';

/** A process that registers onCancelSignal, reports each cancel on stdout and never finishes its cleanup. */
const SCRIPT = `
const { onCancelSignal } = require(${JSON.stringify(join(REPO, 'src', 'cli', 'cancel.ts'))});
onCancelSignal(() => process.stdout.write('cancel\\n'));
setInterval(() => undefined, 1000); // the cleanup that never ends
process.stdout.write('ready\\n');
`;

for (const [first, exit] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
  test(`${first}, then two more signals: the second is absorbed, the third ends the process by ${first} (status ${exit}, the first's), without exit handlers`, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', SCRIPT], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000); // a process that ignores every signal: the test fails, nothing hangs
    let out = '';
    const seen = (n: number) => new Promise<void>((res) => {
      const check = () => { if ((out.match(/cancel\n/g) ?? []).length >= n) res(); };
      child.stdout.on('data', check);
      check();
    });
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    await new Promise<void>((res) => child.stdout.on('data', () => { if (out.includes('ready\n')) res(); }));
    child.kill(first);
    const closedEarly = new Promise<'closed'>((res) => child.on('close', () => res('closed')));
    await Promise.race([seen(1), closedEarly]);
    child.kill('SIGINT');
    assert.notEqual(await Promise.race([seen(2), closedEarly]), 'closed', 'the second signal killed the process'); // still alive: the second signal reached the handler instead of killing the process
    const closed = new Promise<[number | null, NodeJS.Signals | null]>((res) => child.on('close', (c, s) => res([c, s])));
    child.kill('SIGINT');
    const result = await closed;
    clearTimeout(killer);
    // The first signal re-raised with its default action (the shell's $? is 128 + its number): exit
    // handlers would run while onnxruntime still infers in a chunker thread (fresh-user #13: exit 134).
    assert.deepEqual(result, [null, first]);
  });
}

/** A process whose phase ended (a run's files written) and that still has work without a phase (printing its table). */
const BETWEEN = `
const { onCancelSignal } = require(${JSON.stringify(join(REPO, 'src', 'cli', 'cancel.ts'))});
const off = onCancelSignal(() => process.stdout.write('cancel\\n'));
off();
setInterval(() => undefined, 1000);
process.stdout.write('ready\\n');
`;

test('a signal between phases is absorbed, not the default kill (fresh-user #13: Ctrl-C after "Writing run…" exited 130 with run.json succeeded); a second one ends the process', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', BETWEEN], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  let out = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  const until = (re: RegExp) => new Promise<void>((res) => { const check = () => { if (re.test(out)) res(); }; child.stdout.on('data', check); check(); });
  const closed = new Promise<[number | null, NodeJS.Signals | null]>((res) => child.on('close', (c, s) => res([c, s])));
  await until(/ready\n/);
  child.kill('SIGINT');
  assert.equal(await Promise.race([closed.then(() => 'closed'), new Promise((r) => setTimeout(() => r('alive'), 300))]), 'alive', 'the first signal between phases killed the process');
  assert.doesNotMatch(out, /cancel\n/, 'no phase was cancelled');
  child.kill('SIGINT');
  const result = await closed;
  clearTimeout(killer);
  assert.deepEqual(result, [null, 'SIGINT']);
});
