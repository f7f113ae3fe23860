/**
 * `spanproof import`, `score` and `bias` through the real CLI (src/cli/main.ts under tsx) in a child
 * process: outputs, files written, and exit codes (0 ok, 2 bad input). Includes the hostile new-user
 * findings: an import that converts no row writes nothing and exits 2 naming the command the file is
 * for; an identical re-import makes no backup; an unwritable workspace exits 2; score with nothing to
 * score exits 2; a JSON array given to `score azure` is read as its records. Plus the shared fs-error
 * mapping (src/core/fsErrors.ts) and the format guesser.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SpanproofError } from '../../../src/core/errors';
import { checkOutputFile, errnoCode, outputPathError } from '../../../src/core/fsErrors';
import { guessDatasetFormat } from '../../../src/core/import';
import { tempDir } from '../../helpers/tmp';
import { REPO } from '../../helpers/paths';

const CLI = path.join(REPO, 'src', 'cli', 'main.ts');
const FIX = path.join(REPO, 'test', 'fixtures', 'interop');

function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: REPO, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('spanproof import chroma: report, files, acceptance; an identical second import makes no .bak', () => {
  const ws = tempDir('spanproof-cli-import-');
  const r = cli('import', 'chroma', path.join(FIX, 'chroma', 'questions_df.csv'), '--workspace', ws);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /56 rows read, 56 converted, 0 rejected/);
  assert.match(r.stdout, /56\/56 questions resolve/);
  assert.ok(existsSync(path.join(ws, '.spanproof', 'import-report.json')));
  const again = cli('import', 'chroma', path.join(FIX, 'chroma', 'questions_df.csv'), '--workspace', ws, '--json');
  assert.equal(again.code, 0, again.stderr);
  const j = JSON.parse(again.stdout) as { written: { backup: string | null; groundTruthUnchanged: boolean }; acceptance: { resolved: number } };
  assert.equal(j.written.backup, null);
  assert.equal(j.written.groundTruthUnchanged, true);
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
  const ws = tempDir('spanproof-cli-import-');
  const r = cli('import', 'weknora', path.join(FIX, 'weknora'), '--workspace', ws);
  assert.equal(r.code, 0, r.stderr);
  const rep = JSON.parse(readFileSync(path.join(ws, '.spanproof', 'import-report.json'), 'utf8')) as Record<string, unknown>;
  assert.deepEqual(Object.keys(rep).sort(), ['converted', 'counts', 'documents', 'format', 'fuzzy', 'input', 'notes', 'rejected', 'rowsRead']);
  rmSync(ws, { recursive: true, force: true });
});

test('spanproof run --bias-study: keeps the chunks and writes bias.json beside the run (imported SQuAD tiny set)', () => {
  const ws = tempDir('spanproof-cli-bias-');
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

function tempWs(t: { after: (fn: () => void) => void }): string {
  const ws = tempDir('spanproof-cli-write-');
  t.after(() => rmSync(ws, { recursive: true, force: true }));
  return ws;
}

test('import ragas of a memory-eval JSON file: 0 converted → exit 2, nothing written, points at `score memory`', (t) => {
  const ws = tempWs(t);
  writeFileSync(path.join(ws, '.keep'), ''); // an existing workspace file must stay the only entry
  const r = cli('import', 'ragas', path.join(FIX, 'luochuan', 'evaluation_samples_true.json'), '--workspace', ws);
  assert.equal(r.code, 2, r.stderr);
  // the conversion report with the reasons is still printed
  assert.match(r.stdout, /rows read, 0 converted/);
  assert.match(r.stdout, /REJECTED row \d+: /);
  assert.doesNotMatch(r.stdout, /more in import-report\.json/, 'no import-report.json is written, so it is not referred to');
  assert.match(r.stderr, /no question converted/);
  assert.match(r.stderr, /nothing was written/);
  assert.match(r.stderr, /this looks like a memory-eval JSON file: use `spanproof score memory /);
  assert.deepEqual(readdirSync(ws), ['.keep']);
});

test('import ragas of the Chroma CSV points at `import chroma`; --json still prints the report', (t) => {
  const ws = tempWs(t);
  const r = cli('import', 'ragas', path.join(FIX, 'chroma', 'questions_df.csv'), '--workspace', ws, '--json');
  assert.equal(r.code, 2);
  const j = JSON.parse(r.stdout) as { report: { converted: number; rowsRead: number; rejected: unknown[] }; written: null };
  assert.equal(j.report.converted, 0);
  assert.equal(j.report.rejected.length, j.report.rowsRead);
  assert.equal(j.written, null);
  assert.match(r.stderr, /this looks like a Chroma questions CSV: use `spanproof import chroma /);
  assert.deepEqual(readdirSync(ws), []);
});

test('import pathway-cuad with an empty --documents folder: exit 2, an existing ground truth is untouched, no backup', (t) => {
  const ws = tempWs(t);
  const docs = path.join(ws, 'empty-docs');
  mkdirSync(docs);
  mkdirSync(path.join(ws, '.spanproof'));
  const gt = path.join(ws, '.spanproof', 'groundtruth.json');
  const before = '{"version":1,"questions":[]}\n';
  writeFileSync(gt, before);
  const r = cli('import', 'pathway-cuad', path.join(FIX, 'pathway', 'labeled-head.tsv'), '--documents', docs, '--workspace', ws);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /import pathway-cuad: no question converted/);
  assert.match(r.stderr, /--documents/);
  assert.equal(readFileSync(gt, 'utf8'), before);
  assert.deepEqual(readdirSync(path.join(ws, '.spanproof')), ['groundtruth.json']);
});

test('an identical re-import makes no backup; a different one does', (t) => {
  const ws = tempWs(t);
  const csv = path.join(FIX, 'chroma', 'questions_df.csv');
  assert.equal(cli('import', 'chroma', csv, '--workspace', ws).code, 0);
  const gt = path.join(ws, '.spanproof', 'groundtruth.json');
  const first = readFileSync(gt, 'utf8');
  const again = cli('import', 'chroma', csv, '--workspace', ws);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /groundtruth\.json unchanged \(identical ground truth; no backup made\)/);
  assert.ok(!existsSync(`${gt}.bak`));
  assert.equal(readFileSync(gt, 'utf8'), first);
  // a hand edit makes the next import a replacement: the edited file is kept as .bak
  const edited = first.replace(/"questions"/, '"questions" ');
  writeFileSync(gt, edited);
  const j = JSON.parse(cli('import', 'chroma', csv, '--workspace', ws, '--json').stdout) as { written: { backup: string | null; groundTruthUnchanged: boolean } };
  assert.equal(j.written.groundTruthUnchanged, false);
  assert.equal(j.written.backup, `${gt}.bak`);
  assert.equal(readFileSync(`${gt}.bak`, 'utf8'), edited);
  assert.ok(!existsSync(`${gt}.bak.1`));
});

test('import into a workspace that cannot hold .spanproof exits 2 naming the path; no document is written', (t) => {
  const ws = tempWs(t);
  writeFileSync(path.join(ws, '.spanproof'), 'a file, not a folder');
  const r = cli('import', 'chroma', path.join(FIX, 'chroma', 'questions_df.csv'), '--workspace', ws);
  assert.equal(r.code, 2, r.stderr);
  assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
  assert.match(r.stderr, /\.spanproof: cannot write the import into the workspace \(.*EEXIST\).*Fix: /);
  assert.deepEqual(readdirSync(ws), ['.spanproof']);
  // a workspace path under a file
  const under = cli('import', 'chroma', path.join(FIX, 'chroma', 'questions_df.csv'), '--workspace', path.join(ws, '.spanproof', 'ws'));
  assert.equal(under.code, 2, under.stderr);
  assert.match(under.stderr, /ENOTDIR/);
});

test('outputPathError maps errno errors (raw or wrapped) to bad-input and leaves others alone', () => {
  const eacces = Object.assign(new Error("EACCES: permission denied, open '/ro/x'"), { code: 'EACCES', path: '/ro/x' });
  const mapped = outputPathError(eacces, '/ro/x', '--out') as SpanproofError;
  assert.equal(mapped.code, 'bad-input');
  assert.equal(mapped.file, '/ro/x');
  assert.equal(mapped.message, '/ro/x: cannot write --out (permission denied, EACCES). Fix: choose a path you can write to, or change its permissions.');
  // src/core/files writeFileAtomic wraps the Node error in an internal SpanproofError
  const wrapped = new SpanproofError('internal', 'could not write /ro/x', { cause: Object.assign(new Error('x'), { code: 'EROFS' }) });
  assert.equal(errnoCode(wrapped), 'EROFS');
  assert.equal((outputPathError(wrapped, '/ro/x', '--out') as SpanproofError).code, 'bad-input');
  const bug = new TypeError('undefined is not a function');
  assert.equal(outputPathError(bug, '/x', '--out'), bug);
  const already = new SpanproofError('not-found', 'gone');
  assert.equal(outputPathError(already, '/x', '--out'), already);
});

test('checkOutputFile rejects a folder and a path under a file', (t) => {
  const ws = tempWs(t);
  assert.throws(() => checkOutputFile(ws, '--out', 'chunks.jsonl'), (e: SpanproofError) => e.code === 'bad-input' && e.fix === `give a file path, e.g. ${path.join(ws, 'chunks.jsonl')}.`);
  writeFileSync(path.join(ws, 'f'), '');
  assert.throws(() => checkOutputFile(path.join(ws, 'f', 'x.jsonl'), '--out', 'x'), (e: SpanproofError) => e.code === 'bad-input' && /ENOTDIR/.test(e.message));
  checkOutputFile(path.join(ws, 'new.jsonl'), '--out', 'x'); // absent file in an existing folder: fine
});

test('guessDatasetFormat recognises the fixture datasets', () => {
  const g = (p: string): string | undefined => guessDatasetFormat(path.join(FIX, p))?.command;
  assert.equal(g('luochuan/evaluation_samples_true.json'), 'spanproof score memory');
  assert.equal(g('chroma/questions_df.csv'), 'spanproof import chroma');
  assert.equal(g('squad/squad2_tiny.json'), 'spanproof import squad');
  assert.match(g('ragas/alphabet_tables_head3.jsonl') ?? '', /^spanproof import ragas/);
  assert.match(g('pathway/labeled-head.tsv') ?? '', /^spanproof import pathway-cuad/);
  assert.equal(g('weknora'), 'spanproof import weknora');
  assert.equal(g('SOURCE.md'), undefined);
  assert.equal(g('no-such-file'), undefined);
});

test('score with nothing to score exits 2 saying why: RAGAS rows without responses, an empty file, an empty memory array', (t) => {
  const ws = tempWs(t);
  const ragas = cli('score', 'ragas', path.join(FIX, 'ragas', 'alphabet_tables_head3.jsonl'));
  assert.equal(ragas.code, 2, ragas.stderr);
  assert.match(ragas.stderr, /score ragas: nothing to score — 0 of 3 rows could be scored \(most often: no "response" to score/);
  assert.match(ragas.stderr, /Fix: this looks like a RAGAS dataset with reference contexts: use `spanproof import ragas --documents /);
  writeFileSync(path.join(ws, 'empty.jsonl'), '\n');
  const empty = cli('score', 'azure', path.join(ws, 'empty.jsonl'));
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /score azure: nothing to score — the file has no items\. Fix: give JSON Lines of/);
  writeFileSync(path.join(ws, 'empty.json'), '[]');
  const mem = cli('score', 'memory', path.join(ws, 'empty.json'));
  assert.equal(mem.code, 2);
  assert.match(mem.stderr, /score memory: nothing to score — the file has no items/);
  // a memory-eval file given to score azure: one message that names the right command, not 8 per-line errors
  const wrong = cli('score', 'azure', path.join(FIX, 'luochuan', 'evaluation_samples_true.json'));
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /0 of 8 rows could be scored \(most often: missing string "response"/);
  assert.match(wrong.stderr, /this looks like a memory-eval JSON file: use `spanproof score memory /);
  assert.doesNotMatch(wrong.stderr, /not valid JSON/);
});

test('score azure reads a pretty-printed JSON array as its records; "—" cells keep the table aligned', (t) => {
  const ws = tempWs(t);
  const rows = [
    { query: 'q1', response: 'the cat sat', ground_truth: 'the cat sat' },
    { query: 'q2', response: 'a dog', ground_truth: 'the cat sat' },
  ];
  const file = path.join(ws, 'azure.json');
  writeFileSync(file, JSON.stringify(rows, null, 2));
  const j = JSON.parse(cli('score', 'azure', file, '--metrics', 'em,f1', '--json').stdout) as { items: number; rowsRead: number; rejected: unknown[]; aggregate: Record<string, { mean: number }>; notes: string[] };
  assert.equal(j.items, 2);
  assert.equal(j.rowsRead, 2);
  assert.deepEqual(j.rejected, []);
  // em: 1 and 0 → mean 0.5; SQuAD F1: 1 and 0 (no shared token after dropping articles) → 0.5
  assert.equal(j.aggregate.em.mean, 0.5);
  assert.equal(j.aggregate.f1.mean, 0.5);
  assert.match(j.notes[0], /read as a JSON array/);
  // no reference anywhere → every cell "—"; the columns line up with the header and with measured rows
  writeFileSync(file, JSON.stringify([{ query: 'q', response: 'r' }], null, 2));
  const r = cli('score', 'azure', file, '--metrics', 'em,f1');
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.split('\n');
  const header = lines.find((l) => l.startsWith('metric'))!;
  const em = lines.find((l) => l.startsWith('em '))!;
  assert.equal(em, 'em                 —  [    —,     —]    0/1');
  assert.equal(em.indexOf('0/1'), header.indexOf('measured'));
  assert.equal(em.indexOf('['), header.indexOf('95% CI'));
});
