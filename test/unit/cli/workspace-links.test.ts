/**
 * #16 (fresh-user pass N3): the folders a run writes by default — `.spanproof/runs` and
 * `.spanproof/cache` — are the workspace's; a shared folder whose `.spanproof` (or `.spanproof/runs`,
 * `.spanproof/cache`) is a symbolic link out of the workspace must not choose where Spanproof creates
 * run folders and cache files. The run is refused with exit 2 naming the link, before anything is
 * created there; `--runs-dir` / `--cache-dir` (folders the user names) are the way to write elsewhere.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/tmp';

const DOC = '# Guide\n\nThe retry budget is three attempts per request.\n\n## Timeouts\n\nEach request times out after ten seconds.\n';
const GT = `${JSON.stringify({ spanproof: 1, questions: [{ id: 'q1', question: 'How many retries?', evidence: [{ source: 'guide.md', exact: 'The retry budget is three attempts' }] }] }, null, 2)}\n`;

function workspace(t: { after(fn: () => void): void }): { root: string; ws: string; outside: string; gt: string } {
  const root = tempDir('spanproof-wslinks-', t);
  const ws = join(root, 'ws');
  const outside = join(root, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
  writeFileSync(join(ws, 'guide.md'), DOC);
  const gt = join(ws, 'questions.json');
  writeFileSync(gt, GT);
  return { root, ws, outside, gt };
}

const RUN = ['--chunkers', 'fixed', '--retrievers', 'bm25'];

for (const [name, link, flag] of [
  ['.spanproof', '.spanproof', '--runs-dir'],
  ['.spanproof/runs', join('.spanproof', 'runs'), '--runs-dir'],
  ['.spanproof/cache', join('.spanproof', 'cache'), '--cache-dir'],
] as const) {
  test(`run refuses to write through ${name} linked out of the workspace (exit 2, nothing created there); ${flag} chooses a folder elsewhere`, async (t) => {
    const l = workspace(t);
    if (link !== '.spanproof') mkdirSync(join(l.ws, '.spanproof'));
    symlinkSync(l.outside, join(l.ws, link));
    const r = await runCli(['run', '--workspace', l.ws, '--groundtruth', l.gt, ...RUN]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`${name.replace('.', '\\.')} is a symbolic link to .*outside the workspace.*refusing to write the (runs|cache files) through it`), r.stderr);
    assert.match(r.stderr, new RegExp(`Fix: remove the link .*${flag}`), r.stderr);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    assert.deepEqual(readdirSync(l.outside), [], 'nothing created outside');
    const elsewhere = join(l.root, 'mine');
    const ok = await runCli(['run', '--workspace', l.ws, '--groundtruth', l.gt, ...RUN, '--runs-dir', join(elsewhere, 'runs'), '--cache-dir', join(elsewhere, 'cache')]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(readdirSync(l.outside), [], 'still nothing outside');
  });
}
