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
  test(`${first}, then two more signals: the second is absorbed, the third exits ${exit} (the first's status)`, async () => {
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
    assert.deepEqual(result, [exit, null]);
  });
}
