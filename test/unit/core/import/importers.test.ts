/**
 * Importers end to end on fixtures (and on ../shared/data when present): every row converted or
 * rejected with a reason, offsets converted from code points, and the imported ground truth resolving
 * against the written workspace with the project's own resolver (SPEC §3.2).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { loadCorpus } from '../../../../src/core/corpus';
import { resolveGroundTruth, readGroundTruth } from '../../../../src/core/groundtruth';
import { runImport, weknoraId, weknoraPassageSource, writeImport, type ImportFormat, type ImportResult } from '../../../../src/core/import';
import { isSpanproofError } from '../../../../src/core/errors';
import { tempDir } from '../../../helpers/tmp';
import { REPO, SHARED_DATA } from '../../../helpers/paths';

const FIX = path.join(REPO, 'test', 'fixtures', 'interop');
const DATA = SHARED_DATA;

function tmp(): string {
  return tempDir('spanproof-import-');
}

/** Imports into a fresh workspace, writes it, and resolves the ground truth against the written corpus. */
async function importAndResolve(format: ImportFormat, input: string, extra: { documents?: string } = {}): Promise<{ res: ImportResult; ws: string; resolved: number; total: number }> {
  const ws = tmp();
  const res = await runImport(format, input, { workspace: ws, ...extra });
  await writeImport(res, ws);
  const corpus = await loadCorpus(ws);
  const texts = new Map(corpus.documents.map((d) => [d.source, d.text]));
  const gt = await readGroundTruth(path.join(ws, '.spanproof', 'groundtruth.json'));
  const r = resolveGroundTruth(gt, (s) => texts.get(s));
  assert.equal(r.acceptance.moved, 0, 'importers write exact offsets');
  return { res, ws, resolved: r.acceptance.resolved, total: r.acceptance.total };
}

function accounted(res: ImportResult): void {
  assert.equal(res.report.converted + res.report.rejected.length, res.report.rowsRead, 'every row is converted or rejected');
  assert.equal(res.groundTruth.questions.length, res.report.converted);
  for (const r of res.report.rejected) assert.ok(r.reason.length > 5);
}

test('chroma fixture (56 chatlogs questions): 100% converted and resolved; corpus copied into the workspace', async () => {
  const { res, ws, resolved, total } = await importAndResolve('chroma', path.join(FIX, 'chroma', 'questions_df.csv'));
  accounted(res);
  assert.equal(res.report.rowsRead, 56);
  assert.equal(total, 56);
  assert.equal(resolved, 56);
  assert.equal(readFileSync(path.join(ws, 'corpora', 'chatlogs.md'), 'utf8'), readFileSync(path.join(FIX, 'chroma', 'corpora', 'chatlogs.md'), 'utf8'));
  // the one reference whose text occurs twice in chatlogs.md keeps the cited (first) occurrence
  const rep = res.groundTruth.questions.flatMap((q) => q.evidence).filter((e) => e.exact.startsWith('The city has adopted strict energy efficiency standards'));
  assert.ok(rep.length >= 1);
  for (const e of rep) assert.equal(e.start, 21199);
  rmSync(ws, { recursive: true, force: true });
});

test('chroma: code-point offsets after emoji become UTF-16 offsets; bad rows are rejected with reasons', async () => {
  const dir = tmp();
  mkdirSync(path.join(dir, 'corpora'));
  const text = 'Intro 😀😀 line.\nThe quick brown fox jumps over the lazy dog.\nEnd 🎉 of the 🎉 corpus text here.\n';
  writeFileSync(path.join(dir, 'corpora', 'emo.md'), text);
  const cp = Array.from(text);
  const q1 = 'The quick brown fox jumps over the lazy dog.';
  const s1 = cp.join('').indexOf(q1); // UTF-16 index …
  const cps1 = Array.from(text.slice(0, s1)).length; // … and its code-point index (2 less: two emoji before it)
  assert.equal(s1 - cps1, 2);
  const q2 = 'of the 🎉 corpus text';
  const cps2 = Array.from(text.slice(0, text.indexOf(q2))).length;
  const csvCell = (v: string): string => `"${v.replace(/"/g, '""')}"`;
  const refs = (c: string, s: number): string => csvCell(JSON.stringify([{ content: c, start_index: s, end_index: s + Array.from(c).length }]));
  writeFileSync(path.join(dir, 'q.csv'), [
    'question,references,corpus_id',
    `What does the fox do?,${refs(q1, cps1)},emo`,
    `What is at the end?,${refs(q2, cps2)},emo`,
    `Broken references?,"not json",emo`,
    `Unknown corpus?,${refs(q1, cps1)},nope`,
    `Offsets wrong but text present?,${refs(q1, 0)},emo`,
    `Text absent?,${refs('Nothing like this sentence appears anywhere at all', 0)},emo`,
  ].join('\n'));
  const ws = tmp();
  const res = await runImport('chroma', path.join(dir, 'q.csv'), { workspace: ws });
  accounted(res);
  assert.equal(res.report.converted, 3);
  assert.deepEqual(res.report.rejected.map((r) => r.row), [4, 5, 7]);
  assert.match(res.report.rejected[0].reason, /not a JSON array/);
  assert.match(res.report.rejected[1].reason, /corpus nope/);
  assert.match(res.report.rejected[2].reason, /not found/);
  const [e1, e2, e3] = res.groundTruth.questions.map((q) => q.evidence[0]);
  assert.equal(text.slice(e1.start!, e1.end!), q1);
  assert.equal(e1.start, s1);
  assert.equal(text.slice(e2.start!, e2.end!), q2);
  assert.equal(e3.start, s1, 'realigned by content');
  assert.equal(res.report.counts['offsets-realigned'], 1);
  rmSync(dir, { recursive: true, force: true });
  rmSync(ws, { recursive: true, force: true });
});

test('chroma on the shared set: 276/276 questions imported and resolved', async () => {
  const csv = path.join(DATA, 'chroma', 'questions_df.csv');
  const { res, ws, resolved, total } = await importAndResolve('chroma', csv);
  accounted(res);
  assert.equal(total, 276);
  assert.equal(resolved, 276);
  assert.equal(res.groundTruth.questions.reduce((s, q) => s + q.evidence.length, 0), 452);
  rmSync(ws, { recursive: true, force: true });
});

test('squad tiny: numeric 64-bit ids kept as strings, answers widened to their sentence, unanswerable reported', async () => {
  const { res, ws, resolved, total } = await importAndResolve('squad', path.join(FIX, 'squad', 'squad2_tiny.json'));
  accounted(res);
  assert.equal(resolved, total);
  const q = res.groundTruth.questions[0];
  assert.equal(q.id, '7211011040021040393');
  assert.equal(q.evidence.length, 1, 'three answers in one sentence → one evidence span');
  assert.equal(q.evidence[0].exact, 'My name is Carla and I live together with Abdul in Berlin');
  assert.equal(q.evidence[0].answerStart, 11);
  assert.deepEqual(q.answers, ['Carla', 'Abdul', 'Carla and I live together with Abdul']);
  assert.ok(readFileSync(path.join(ws, 'squad', '001-test1', 'p001.txt'), 'utf8').startsWith('My name is Carla'));
  rmSync(ws, { recursive: true, force: true });
});

test('squad: answer_start in code points after an emoji; unanswerable listed as rejected', async () => {
  const dir = tmp();
  const ctx = 'Emoji 😀 first. The capital of France is Paris, a large city. 🎉 Done.';
  const ans = 'Paris';
  const cpStart = Array.from(ctx.slice(0, ctx.indexOf(ans))).length;
  writeFileSync(path.join(dir, 's.json'), JSON.stringify({ version: 'v2.0', data: [{ title: 'T é st', paragraphs: [{ context: ctx, qas: [
    { id: 'a', question: 'Capital of France?', answers: [{ text: ans, answer_start: cpStart }] },
    { id: 'b', question: 'Capital of Mars?', answers: [], is_impossible: true },
    { id: 'c', question: '', answers: [{ text: ans, answer_start: cpStart }] },
  ] }] }] }));
  const { res, ws, resolved, total } = await importAndResolve('squad', path.join(dir, 's.json'));
  accounted(res);
  assert.equal(total, 1);
  assert.equal(resolved, 1);
  const e = res.groundTruth.questions[0].evidence[0];
  assert.equal(e.answerStart, ctx.indexOf(ans));
  assert.equal(e.answerStart, cpStart + 1, 'one emoji before the answer: +1 code unit');
  assert.equal(e.exact, 'The capital of France is Paris, a large city.');
  assert.equal(res.report.counts.unanswerable, 1);
  assert.deepEqual(res.report.rejected.map((r) => r.id), ['b', 'c']);
  assert.match(res.report.rejected[0].reason, /unanswerable/);
  assert.equal(e.source, 'squad/001-T-e-st/p001.txt');
  rmSync(dir, { recursive: true, force: true });
  rmSync(ws, { recursive: true, force: true });
});

test('squad on the shared subset: 626 read = 293 converted + 333 unanswerable, all resolve', async () => {
  const f = path.join(DATA, 'squad', 'squad2_dev_small.json');
  const { res, ws, resolved, total } = await importAndResolve('squad', f);
  accounted(res);
  assert.equal(res.report.rowsRead, 626);
  assert.equal(res.report.counts.unanswerable, 333);
  assert.equal(total, 293);
  assert.equal(resolved, 293);
  rmSync(ws, { recursive: true, force: true });
});

test('weknora fixture: string and int64 (BigInt) ids, passages → documents, graded qrels kept, answer attached', async () => {
  const { res, ws, resolved, total } = await importAndResolve('weknora', path.join(FIX, 'weknora'));
  accounted(res);
  assert.equal(total, 1);
  assert.equal(resolved, 1);
  const q = res.groundTruth.questions[0];
  assert.equal(q.id, '1');
  assert.equal(q.question, '计算机的操作系统有哪些');
  assert.equal(q.answer, '计算机的操作系统有 UNIX、Linux、FreeBSD、Mac OS 和 DOS。', 'answers.id and qas.aid are int64 in the file');
  assert.equal(q.match, 'any');
  assert.deepEqual(q.evidence.map((e) => e.pid), ['2', '3', '1', '4']);
  assert.deepEqual([...res.qrels!.get('1')!], [['weknora/passage-2.txt', 1], ['weknora/passage-3.txt', 1], ['weknora/passage-1.txt', 1], ['weknora/passage-4.txt', 1]]);
  assert.equal(readFileSync(path.join(ws, '.spanproof', 'qrels.txt'), 'utf8'), '1 0 weknora/passage-2.txt 1\n1 0 weknora/passage-3.txt 1\n1 0 weknora/passage-1.txt 1\n1 0 weknora/passage-4.txt 1\n');
  assert.ok(readFileSync(path.join(ws, 'weknora', 'passage-4.txt'), 'utf8').startsWith('DOS - 磁盘操作系统'));
  rmSync(ws, { recursive: true, force: true });
});

test('weknora: a missing table or column is a clear error naming the file and the fix', async () => {
  const dir = tmp();
  cpSync(path.join(FIX, 'weknora'), dir, { recursive: true });
  rmSync(path.join(dir, 'qrels.parquet'));
  await assert.rejects(runImport('weknora', dir, { workspace: dir }), (e: unknown) => isSpanproofError(e) && e.code === 'not-found' && /qrels\.parquet/.test(e.message) && /Fix:/.test(e.message));
  rmSync(dir, { recursive: true, force: true });
});

test('ragas: contexts become documents (deduplicated) without --documents; bad lines rejected with line numbers', async () => {
  const dir = tmp();
  const lines = readFileSync(path.join(FIX, 'ragas', 'alphabet_tables_head3.jsonl'), 'utf8').trim().split('\n');
  writeFileSync(path.join(dir, 'r.jsonl'), [...lines, '{not json', '{"user_input": "q?", "reference_contexts": "not a list"}', '', '{"user_input": "no contexts", "reference": "x"}'].join('\n'));
  const { res, ws, resolved, total } = await importAndResolve('ragas', path.join(dir, 'r.jsonl'));
  accounted(res);
  assert.equal(res.report.rowsRead, 6);
  assert.equal(total, 3);
  assert.equal(resolved, 3);
  assert.deepEqual(res.report.rejected.map((r) => r.row), [4, 5, 7]);
  const first = JSON.parse(lines[0]) as { reference_contexts: string[]; reference: string };
  assert.equal(res.groundTruth.questions[0].answer, first.reference);
  // the first two rows share their first context → one document
  const s0 = res.groundTruth.questions[0].evidence[0].source;
  assert.equal(res.groundTruth.questions[1].evidence[0].source, s0);
  rmSync(dir, { recursive: true, force: true });
  rmSync(ws, { recursive: true, force: true });
});

test('ragas with --documents: contexts aligned to the source documents', async () => {
  const dir = tmp();
  mkdirSync(path.join(dir, 'docs'));
  writeFileSync(path.join(dir, 'docs', 'report.md'), '# Results\n\nOperating income $ 41,224 $ 78,714 $ 37,490 91 %\n\nOther text that is not evidence at all.\n');
  writeFileSync(path.join(dir, 'r.jsonl'), JSON.stringify({ user_input: 'Operating income change?', reference: '91%', reference_contexts: ['Operating income $ 41,224 $ 78,714 $ 37,490 91 %'] }) + '\n' + JSON.stringify({ user_input: 'Absent?', reference_contexts: ['A sentence that is nowhere in the documents, truly.'] }) + '\n');
  const { res, ws, resolved, total } = await importAndResolve('ragas', path.join(dir, 'r.jsonl'), { documents: path.join(dir, 'docs') });
  accounted(res);
  assert.equal(total, 1);
  assert.equal(resolved, 1);
  assert.equal(res.groundTruth.questions[0].evidence[0].source, 'documents/report.md');
  assert.match(res.report.rejected[0].reason, /not found in the documents/);
  rmSync(dir, { recursive: true, force: true });
  rmSync(ws, { recursive: true, force: true });
});

test('writeImport: an existing ground truth is backed up (never overwritten without a copy); a different document blocks the write', async () => {
  const ws = tmp();
  mkdirSync(path.join(ws, '.spanproof'));
  const mine = '{"spanproof": 1, "questions": []}\n';
  writeFileSync(path.join(ws, '.spanproof', 'groundtruth.json'), mine);
  const res = await runImport('weknora', path.join(FIX, 'weknora'), { workspace: ws });
  const out1 = await writeImport(res, ws);
  assert.equal(out1.backup, path.join(ws, '.spanproof', 'groundtruth.json.bak'));
  assert.equal(readFileSync(out1.backup!, 'utf8'), mine);
  const out2 = await writeImport(res, ws);
  assert.equal(out2.backup, null, 'an identical re-import makes no backup');
  assert.equal(out2.groundTruthUnchanged, true);
  assert.equal(out2.documentsWritten, 0);
  assert.equal(out2.documentsUnchanged, 4);
  const gtFile = path.join(ws, '.spanproof', 'groundtruth.json');
  writeFileSync(gtFile, readFileSync(gtFile, 'utf8').replace('"questions"', '"questions" '));
  const out3 = await writeImport(res, ws);
  assert.equal(out3.backup, path.join(ws, '.spanproof', 'groundtruth.json.bak.1'), 'an older backup is not overwritten');
  assert.equal(out3.groundTruthUnchanged, false);
  assert.equal(readFileSync(out1.backup!, 'utf8'), mine);
  writeFileSync(path.join(ws, 'weknora', 'passage-1.txt'), 'the user edited this');
  await assert.rejects(writeImport(res, ws), (e: unknown) => isSpanproofError(e) && /already exists/.test(e.message));
  assert.equal(readFileSync(path.join(ws, 'weknora', 'passage-1.txt'), 'utf8'), 'the user edited this');
  const report = JSON.parse(readFileSync(path.join(ws, '.spanproof', 'import-report.json'), 'utf8')) as { format: string; rowsRead: number };
  assert.equal(report.format, 'weknora');
  rmSync(ws, { recursive: true, force: true });
});

test('writeImport of an import that converted nothing throws bad-input and writes nothing', async () => {
  const ws = tmp();
  const res = await runImport('ragas', path.join(FIX, 'luochuan', 'evaluation_samples_true.json'), { workspace: ws });
  assert.equal(res.report.converted, 0);
  await assert.rejects(writeImport(res, ws), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input'
    && /import ragas: no question converted — 99 of 99 rows rejected \(most often: .*\); nothing was written\./.test(e.message)
    && /Fix: this looks like a memory-eval JSON file: use `spanproof score memory /.test(e.message));
  assert.deepEqual(readdirSync(ws), []);
  rmSync(ws, { recursive: true, force: true });
});

test('shared data: weknora folder, both RAGAS JSONL files, and the full CUAD TSV against the one synthetic contract', async () => {
  const wk = await importAndResolve('weknora', path.join(FIX, 'weknora'));
  accounted(wk.res);
  assert.equal(wk.resolved, 1);
  rmSync(wk.ws, { recursive: true, force: true });
  for (const [file, rows, docs] of [['20230203_alphabet_10K.jsonl', 8, 11], ['20230203_alphabet_10K_tables.jsonl', 41, 62]] as const) {
    const rg = await importAndResolve('ragas', path.join(DATA, 'pathway', file));
    accounted(rg.res);
    assert.equal(rg.total, rows);
    assert.equal(rg.resolved, rows);
    assert.equal(rg.res.report.documents, docs, 'distinct reference contexts');
    rmSync(rg.ws, { recursive: true, force: true });
  }
  // 25 contracts × 41 categories = 1025 rows; only the first contract's text exists (synthetic)
  const cu = await importAndResolve('pathway-cuad', path.join(DATA, 'pathway', 'labeled.tsv'), { documents: path.join(FIX, 'pathway') });
  accounted(cu.res);
  assert.equal(cu.res.report.rowsRead, 1025);
  assert.equal(cu.total, 15);
  assert.equal(cu.resolved, 15);
  assert.equal(cu.res.report.counts['no-clause'] + cu.res.report.counts['contract-missing'] + cu.res.report.converted + (cu.res.report.counts['empty-cell'] ?? 0), 1025);
  rmSync(cu.ws, { recursive: true, force: true });
});

test('weknoraId: int64 (BigInt) beyond 2^53, numbers and strings become the same decimal strings; unusable cells are null', () => {
  assert.equal(weknoraId(9007199254740993n), '9007199254740993');
  assert.equal(weknoraId(42n), '42');
  assert.equal(weknoraId(42), '42');
  assert.equal(weknoraId(' 42 '), '42');
  assert.equal(weknoraId(''), null);
  assert.equal(weknoraId(null), null);
  assert.equal(weknoraId(Number.NaN), null);
  assert.equal(weknoraPassageSource('42'), 'weknora/passage-42.txt');
  assert.equal(weknoraPassageSource('doc/7 é'), 'weknora/passage-doc-7-e.txt');
});
