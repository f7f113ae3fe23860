/**
 * `spanproof import`, `score` and `bias` through the real CLI (src/cli/main.ts under tsx) in a child
 * process: outputs, files written, and exit codes (0 ok, 2 bad input).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..');
const CLI = path.join(REPO, 'src', 'cli', 'main.ts');
const FIX = path.join(REPO, 'test', 'fixtures', 'interop');

function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: REPO, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('spanproof import chroma: report, files, acceptance; a second import keeps a .bak', () => {
  const ws = mkdtempSync(path.join(tmpdir(), 'spanproof-cli-import-'));
  const r = cli('import', 'chroma', path.join(FIX, 'chroma', 'questions_df.csv'), '--workspace', ws);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /56 rows read, 56 converted, 0 rejected/);
  assert.match(r.stdout, /56\/56 questions resolve/);
  assert.ok(existsSync(path.join(ws, '.spanproof', 'import-report.json')));
  const again = cli('import', 'chroma', path.join(FIX, 'chroma', 'questions_df.csv'), '--workspace', ws, '--json');
  assert.equal(again.code, 0, again.stderr);
  const j = JSON.parse(again.stdout) as { written: { backup: string }; acceptance: { resolved: number } };
  assert.equal(j.written.backup, path.join(ws, '.spanproof', 'groundtruth.json.bak'));
  assert.equal(j.acceptance.resolved, 56);
  rmSync(ws, { recursive: true, force: true });
});

test('spanproof import: unknown format and missing input exit 2 with a fix', () => {
  const bad = cli('import', 'csv', 'x.csv');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown import format "csv".*Fix: use one of weknora, pathway-cuad, ragas, chroma, squad/);
  const missing = cli('import', 'squad', path.join(tmpdir(), 'no-such-file.json'), '--workspace', tmpdir());
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no-such-file\.json/);
});

test('spanproof score memory --json: confusion counts; --label must be 0 or 1', () => {
  const r = cli('score', 'memory', path.join(FIX, 'luochuan', 'evaluation_samples_false.json'), '--label', '0', '--json');
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout) as { confusion: unknown; accuracy: { value: number } };
  assert.deepEqual(j.confusion, { tp: 0, tn: 7, fp: 1, fn: 0 });
  assert.equal(j.accuracy.value, 0.875);
  const bad = cli('score', 'memory', path.join(FIX, 'luochuan', 'evaluation_samples_false.json'), '--label', 'yes');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--label/);
});

test('spanproof bias on a folder that is not a run exits 2', () => {
  const r = cli('bias', tmpdir());
  assert.equal(r.code, 2);
  assert.match(r.stderr, /run\.json/);
});

test('the import report JSON has the documented keys', () => {
  const ws = mkdtempSync(path.join(tmpdir(), 'spanproof-cli-import-'));
  const r = cli('import', 'weknora', path.join(FIX, 'weknora'), '--workspace', ws);
  assert.equal(r.code, 0, r.stderr);
  const rep = JSON.parse(readFileSync(path.join(ws, '.spanproof', 'import-report.json'), 'utf8')) as Record<string, unknown>;
  assert.deepEqual(Object.keys(rep).sort(), ['converted', 'counts', 'documents', 'format', 'fuzzy', 'input', 'notes', 'rejected', 'rowsRead']);
  rmSync(ws, { recursive: true, force: true });
});

test('spanproof run --bias-study: keeps the chunks and writes bias.json beside the run (imported SQuAD tiny set)', () => {
  const ws = mkdtempSync(path.join(tmpdir(), 'spanproof-cli-bias-'));
  assert.equal(cli('import', 'squad', path.join(FIX, 'squad', 'squad2_tiny.json'), '--workspace', ws).code, 0);
  const out = path.join(ws, 'run');
  const r = spawnSync(process.execPath, ['--import', 'tsx', CLI, 'run', '--workspace', ws, '--chunkers', 'fixed,sentence', '--retrievers', 'bm25', '--rerank', 'off', '--out', out, '--bias-study', '--json'], {
    cwd: REPO, encoding: 'utf8', env: { ...process.env, SPANPROOF_WORKER: path.join(REPO, 'src', 'worker', 'main.ts') },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(existsSync(path.join(out, 'chunks', 'fixed.jsonl')), '--bias-study implies --keep-chunks');
  const study = JSON.parse(readFileSync(path.join(out, 'bias.json'), 'utf8')) as { chunkers: string[]; authors: Array<{ author: string; questions: number }> };
  assert.deepEqual(study.chunkers, ['fixed', 'sentence']);
  assert.deepEqual(study.authors.map((a) => a.questions), [2, 2], 'both answerable questions are labelled by both chunkers');
  JSON.parse(r.stdout); // --json stdout stays pure JSON
  rmSync(ws, { recursive: true, force: true });
});
