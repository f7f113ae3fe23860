/**
 * `spanproof report` through the real CLI on minimal hand-written run directories: a bad output path
 * is the user's input (exit 2 naming the path and the fix), never an internal error (exit 3 with a
 * stack trace); a run with nothing to report (cancelled, interrupted, failed, running, or succeeded
 * without results.json) is exit 2 saying which.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { hostname } from 'node:os';
import { DEFAULT_SETTINGS } from '../../../src/core/settings';
import { tempDir } from '../../helpers/tmp';
import { REPO } from '../../helpers/paths';
import { writeEmptySucceededRun, writeRunJson } from '../../helpers/runDirs';


function cli(args: string[]): { code: number | null; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO, 'src/cli/main.ts'), ...args], { cwd: REPO, encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr };
}

test('report --out: a folder, a path under a file and a missing folder exit 2; a good path writes the report', (t) => {
  const root = tempDir('spanproof-report-cli-');
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const runDir = writeEmptySucceededRun(root, 'r1');

  const dir = cli(['report', runDir, '--out', root]);
  assert.equal(dir.code, 2, dir.stderr);
  assert.equal(dir.stderr.trim(), `spanproof: ${root}: cannot write --out (it is a folder). Fix: give a file path, e.g. ${path.join(root, 'report.md')}.`);

  writeFileSync(path.join(root, 'f'), '');
  const underFile = cli(['report', runDir, '--out', path.join(root, 'f', 'x.md')]);
  assert.equal(underFile.code, 2, underFile.stderr);
  assert.match(underFile.stderr, /f\/x\.md: cannot write --out \(a part of the path is a file, not a folder, ENOTDIR\)\. Fix: /);

  const missing = cli(['report', runDir, '--format', 'csv', '--out', path.join(root, 'no', 'such', 'x.csv')]);
  assert.equal(missing.code, 2, missing.stderr);
  assert.match(missing.stderr, /x\.csv: cannot write --out \(its folder does not exist, ENOENT\)\. Fix: create the folder first/);
  assert.doesNotMatch(missing.stderr, /internal error|\n\s+at /);

  const ok = cli(['report', runDir, '--out', path.join(root, 'ok.md')]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(readFileSync(path.join(root, 'ok.md'), 'utf8'), /^# Spanproof run r1\n[^]*succeeded/);
  const dash = spawnSync(process.execPath, ['--import', pathToFileURL(require.resolve('tsx')).href, path.join(REPO, 'src/cli/main.ts'), 'report', runDir, '--out', '-'], { cwd: root, encoding: 'utf8' }); // `-` is stdout
  assert.equal(dash.status, 0, dash.stderr);
  assert.equal(dash.stdout, readFileSync(path.join(root, 'ok.md'), 'utf8'));
  assert.ok(!existsSync(path.join(root, '-')));
  assert.ok(!existsSync(path.join(root, 'no')));
});

test('report of a cancelled, interrupted, failed or still running run exits 2 saying so (it printed empty tables, exit 0)', (t) => {
  const root = tempDir('spanproof-report-unfinished-');
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }); // a pid that has ended
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['cancelled', { error: { code: 'cancelled', message: 'the run was cancelled.' } }, 'this run was cancelled before it finished (run.json status `cancelled`), so it has no results to report.', 're-run `spanproof run` on the workspace and let it finish; `spanproof runs` lists the finished runs.'],
    ['running', { writer: { pid: Number(dead.stdout), host: hostname() } }, 'this run was interrupted: the process that wrote it ended before the run finished (killed, crashed or out of disk space), so it has no results to report.', 're-run `spanproof run` on the workspace; `spanproof runs` lists the finished runs.'],
    ['failed', { error: { code: 'internal', message: 'the worker crashed: out of memory.' } }, 'this run failed (the worker crashed: out of memory), so it has no results to report.', 'fix the cause and re-run `spanproof run` on the workspace; `spanproof runs` lists the finished runs.'],
    ['running', { writer: { pid: process.pid, host: hostname() } }, 'this run is still running, so it has no results yet.', 'wait for it to finish (`spanproof runs` shows its status), then run `spanproof report` again.'],
  ];
  for (const [i, [status, extra, message, fix]] of cases.entries()) {
    const runDir = writeRunJson(root, `r${i}`, status, extra);
    for (const format of ['md', 'html', 'csv', 'github']) {
      const r = cli(['report', runDir, '--format', format, '--out', path.join(root, `r${i}.${format}`)]);
      assert.equal(r.code, 2, `${status} ${format}: ${r.stderr}`);
      assert.equal(r.stderr.trim(), `spanproof: ${path.join(runDir, 'run.json')}: ${message} Fix: ${fix}`);
      assert.ok(!existsSync(path.join(root, `r${i}.${format}`)), 'no report file');
    }
  }
  // as a --baseline too, named as such
  const good = writeEmptySucceededRun(root, 'good');
  const base = cli(['report', good, '--format', 'github', '--baseline', path.join(root, 'r0')]);
  assert.equal(base.code, 2, base.stderr);
  assert.match(base.stderr, /r0\/run\.json: --baseline: this run was cancelled/);
});

test('report of a succeeded run whose results.json is missing (or not JSON) exits 2 naming the file (it printed empty tables, exit 0)', (t) => {
  const root = tempDir('spanproof-report-noresults-');
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const runDir = path.join(root, 'r2');
  mkdirSync(runDir);
  const run = { id: 'r2', status: 'succeeded', progress: { finished: 1, total: 1 }, error: null, startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:01.000Z', toolVersion: '0', settings: DEFAULT_SETTINGS, workspace: root, groundTruthFile: path.join(root, 'gt.json'), runDir, location: { kind: 'workspace' }, corpusHash: '', groundTruthHash: '', acceptance: null, seed: 1 };
  writeFileSync(path.join(runDir, 'run.json'), JSON.stringify(run));
  const file = path.join(runDir, 'results.json');
  for (const format of ['md', 'github']) {
    const r = cli(['report', runDir, '--format', format]);
    assert.equal(r.code, 2, `${format}: ${r.stderr}`);
    assert.equal(r.stderr.trim(), `spanproof: ${file}: this run finished, but its results.json is missing or unreadable, so there is nothing to report. Fix: copy the whole run folder again, or re-run \`spanproof run\` on the workspace.`);
  }
  writeFileSync(file, '{"configs": [');
  const bad = cli(['report', runDir]);
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /results\.json: line 1, column \d+: not valid JSON: [^\n]*\. Fix: /);
});
