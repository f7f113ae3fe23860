/**
 * Pathway CUAD: the importer on the real TSV rows + a synthetic contract (alignment exact /
 * normalised / fuzzy with similarity), the 0.65 word-overlap hit rule and its metrics in Pathway's
 * mode (bugs reproduced) and the fixed mode (P7–P12), the string-similarity judge (P1–P6) and the
 * per-file × per-question grid. Expected values: SEED-SYSTEMS.md §B.4–B.7 and hand calculations.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadCorpus } from '../../../../src/core/corpus';
import { resolveGroundTruth } from '../../../../src/core/groundtruth';
import { alignExcerpt, type Alignment } from '../../../../src/core/align';
import { comparePathwayHitRule, cuadHitIndex, cuadRetrievalMetrics, readPathwayComparisonFromRun } from '../../../../src/core/compat';
import { passFailGrid, stringSimJudge } from '../../../../src/core/score';
import { runImport, writeImport } from '../../../../src/core/import';
import { isSpanproofError } from '../../../../src/core/errors';
import { tempDir } from '../../../helpers/tmp';
import { REPO } from '../../../helpers/paths';

const FIX = path.join(REPO, 'test', 'fixtures', 'interop', 'pathway');

test('CUAD import: 2 rows × 41 categories read; excerpts placed exactly, whitespace/quote-insensitively and fuzzily; everything else rejected with reasons', async () => {
  const ws = tempDir('spanproof-cuad-');
  const res = await runImport('pathway-cuad', path.join(FIX, 'labeled-head.tsv'), { workspace: ws, documents: FIX });
  const r = res.report;
  assert.equal(r.rowsRead, 82);
  assert.equal(r.converted + r.rejected.length, r.rowsRead);
  assert.equal(r.converted, 15);
  assert.equal(r.counts['contract-missing'], 18, 'row 3 has 18 non-empty clause cells and no contract text');
  assert.equal(r.counts['short-excerpt'], 3, '"MA", "Company" … are not evidence (P8)');
  assert.equal(r.counts['aligned-normalized'], 2, 'line break inside / curly apostrophe');
  assert.equal(r.counts['aligned-fuzzy'], 1, 'the "termnated" typo');
  assert.ok(r.fuzzy.every((f) => f.similarity >= 0.9 && f.similarity < 1));
  const parties = res.groundTruth.questions.find((q) => q.id === 'cuad-01-parties')!;
  assert.equal(parties.match, 'any');
  assert.ok(parties.evidence.some((e) => e.exact === 'MOUNT KNOWLEDGE\nHOLDINGS INC.'), 'evidence is the document text, not the quoted excerpt');
  const date = res.groundTruth.questions.find((q) => q.id === 'cuad-01-agreement-date')!;
  assert.equal(date.answer, '5/8/14');
  assert.deepEqual(date.evidence.map((e) => e.exact), ['8th day of May 2014', 'May 8, 2014'].filter((x) => x.length >= 12));
  await writeImport(res, ws);
  const corpus = await loadCorpus(ws);
  const texts = new Map(corpus.documents.map((d) => [d.source, d.text]));
  const acc = resolveGroundTruth(res.groundTruth, (s) => texts.get(s)).acceptance;
  assert.equal(acc.resolved, 15);
  const extra = JSON.parse(readFileSync(path.join(ws, '.spanproof', 'import-cuad.json'), 'utf8')) as { answers: unknown[]; dropped: Array<{ excerpt: string }> };
  assert.equal(extra.answers.length, 82);
  assert.deepEqual(extra.dropped.map((d) => d.excerpt).sort(), ['Company', 'MA', 'May 8, 2014'].sort());
  rmSync(ws, { recursive: true, force: true });
});

test('CUAD import without --documents is a clear error', async () => {
  await assert.rejects(runImport('pathway-cuad', path.join(FIX, 'labeled-head.tsv'), { workspace: tmpdir() }), (e: unknown) => isSpanproofError(e) && /--documents/.test(e.message));
});

test('hit rule, Pathway mode: space tokens, ≥ 0.65, concatenated label; P7 and P8 reproduced', () => {
  const labels = ['the Company shall pay all fees within thirty days'];
  // 9 label words; doc 1 has 5 of them (0.556), doc 2 all → hit at index 1
  assert.equal(cuadHitIndex(labels, ['Company shall pay nothing.', 'and the Company shall pay all fees within thirty days of invoice'], { mode: 'pathway' }), 1);
  // P7: the same words in capitals are no hit for Pathway (case-sensitive tokens); the fixed mode lowercases
  assert.equal(cuadHitIndex(labels, ['THE COMPANY SHALL PAY ALL FEES WITHIN THIRTY DAYS'], { mode: 'pathway' }), null);
  assert.equal(cuadHitIndex(labels, ['THE COMPANY SHALL PAY ALL FEES WITHIN THIRTY DAYS'], { mode: 'fixed' }), 0);
  // P8: the one-word label "MA" hits any chunk with the token MA
  assert.equal(cuadHitIndex(['MA', 'Company'], ['Payments to MA are due monthly.'], { mode: 'pathway' }), 0);
  assert.equal(cuadHitIndex(['MA', 'Company'], ['Payments to MA are due monthly.'], { mode: 'fixed' }), 'unscorable');
  // P11: an empty label matches a doc with a double space in Pathway mode
  assert.equal(cuadHitIndex([''], ['two  spaces'], { mode: 'pathway' }), 0);
  assert.equal(cuadHitIndex([''], ['two  spaces'], { mode: 'fixed' }), 'unscorable');
  // P12: a string instead of a list is refused
  assert.throws(() => cuadHitIndex('MA' as unknown as string[], ['x']), (e: unknown) => isSpanproofError(e) && /P12/.test(e.message));
});

test('retrieval metrics: hits [0, 0, 3, None] — Pathway mean 0.75, median 3 (P9); fixed mean/median rank over hits', () => {
  const p = cuadRetrievalMetrics([0, 0, 3, null], 'pathway');
  assert.equal(p.n, 4);
  assert.equal(p.meanHit, 0.75);
  assert.equal(p.medianHit, 3);
  assert.equal(p.mrr, (1 + 1 + 0.25) / 4);
  assert.equal(p.hitAt['hit@3'], 0.5);
  assert.equal(p.hitAt['hit@6'], 0.75);
  assert.ok(Number.isNaN(cuadRetrievalMetrics([0, 0], 'pathway').medianHit), 'all hits at rank 0 → NaN median in Pathway');
  const f = cuadRetrievalMetrics([0, 0, 3, null, 'unscorable'], 'fixed');
  assert.equal(f.n, 4);
  assert.equal(f.unscorable, 1);
  assert.equal(f.meanHit, (1 + 1 + 4) / 3);
  assert.equal(f.medianHit, 1);
  assert.equal(f.misses, 1);
});

test('string judge, Pathway mode reproduces P1, P2, P3, P5; fixed mode repairs them', () => {
  const pw = { mode: 'pathway' as const };
  // P1: an exact numeric date is judged wrong (no m/d/yy format), fixed: right
  assert.equal(stringSimJudge('5/8/14', '5/8/14', pw).pass, false);
  assert.equal(stringSimJudge('5/8/14', '5/8/14').pass, true);
  // whole-string month-name date works in both
  assert.equal(stringSimJudge('May 8, 2014', '5/8/14', pw).pass, true);
  assert.equal(stringSimJudge('8 May 2014', '5/8/14', pw).pass, true);
  // P2: verbose / trailing dot
  assert.equal(stringSimJudge('The agreement date is May 8, 2014', '5/8/14', pw).pass, false);
  assert.equal(stringSimJudge('may 8, 2014.', '5/8/14', pw).pass, false);
  assert.equal(stringSimJudge('The agreement date is May 8, 2014', '5/8/14').pass, true);
  assert.equal(stringSimJudge('the 8th day of May 2014.', '5/8/14').pass, true);
  assert.equal(stringSimJudge('May 9, 2014', '5/8/14').pass, false);
  // P3: a 4-digit-year label is a date only in the fixed mode
  assert.equal(stringSimJudge('May 8, 2014', '5/8/2014', pw).rule, 'similarity');
  assert.deepEqual(stringSimJudge('May 8, 2014', '5/8/2014'), { pass: true, rule: 'date', dates: { prediction: '5/8/14', label: '5/8/14' } });
  // fallback: no date in the prediction → similarity instead of a hard False
  assert.equal(stringSimJudge('no date given here', '5/8/14').rule, 'similarity');
  // P5: ratio 6/38 = 0.158 → False in Pathway; the leading "Yes" decides in the fixed mode
  const p5 = stringSimJudge('Yes, the contract includes an audit clause.', 'Yes', pw);
  assert.equal(p5.pass, false);
  assert.equal(p5.ratio, 6 / 38);
  assert.deepEqual(stringSimJudge('Yes, the contract includes an audit clause.', 'Yes'), { pass: true, rule: 'yes-no' });
  assert.equal(stringSimJudge('No.', 'Yes').pass, false);
  // "The governing law is Nevada." vs "Nevada": 0.414 → barely True in both
  const nv = stringSimJudge('The governing law is Nevada.', 'Nevada', pw);
  assert.equal(nv.pass, true);
  assert.equal(Math.round(nv.ratio! * 1000) / 1000, 0.414);
  // no-information rule
  assert.equal(stringSimJudge("I don't know.", 'no information found', pw).pass, true);
  assert.equal(stringSimJudge("I don't know.", '[]').rule, 'no-information');
});

test('pass/fail grid: per file × per question, max over repeats, unasked cells null; per-file / per-question accuracy', () => {
  const g = passFailGrid([
    { file: 'a.pdf', question: 'Parties', pass: true },
    { file: 'a.pdf', question: 'Agreement Date', pass: false },
    { file: 'b.pdf', question: 'Parties', pass: false },
    { file: 'b.pdf', question: 'Parties', pass: true },
  ]);
  assert.deepEqual(g.files, ['a.pdf', 'b.pdf']);
  assert.deepEqual(g.questions, ['Parties', 'Agreement Date']);
  assert.deepEqual(g.cells, [[1, 0], [1, null]]);
  assert.deepEqual(g.perFile, { 'a.pdf': 0.5, 'b.pdf': 0.5 });
  assert.deepEqual(g.perQuestion, { Parties: 2 / 3, 'Agreement Date': 0 });
  assert.equal(g.accuracy, 0.5);
});

test('comparePathwayHitRule: hand case — a chunk holding the clause is a hit for both rules; a paraphrase only for Pathway\'s word overlap', () => {
  const label = 'This Agreement shall be governed by the laws of the State of Nevada';
  const rows = comparePathwayHitRule({
    k: 1,
    labels: new Map([['q1', [label]], ['q2', [label]]]),
    items: [
      { question: 'q1', config: 'c', texts: [`12. ${label}.`, 'other'], spanHit: 1, rr: 1 },
      // the words are all there, scrambled: Pathway's set overlap says hit; the span (the verbatim clause) was not retrieved
      { question: 'q2', config: 'c', texts: ['the laws of Nevada: this Agreement shall be governed by the State of'], spanHit: 0, rr: 0 },
    ],
  });
  assert.equal(rows.length, 1);
  assert.equal(rows[0].pathway.hits, 2);
  assert.equal(rows[0].span.hitAtK, 0.5);
  assert.equal(rows[0].agreement, 0.5);
  assert.equal(rows[0].pathway.hitAt['hit@1'], 1);
});

test('Pathway hit rule beside span hit@5 on a real grid run over the imported synthetic contract', () => {
  const ws = tempDir('spanproof-cuad-run-');
  const REPO_CLI = path.join(REPO, 'src', 'cli', 'main.ts');
  const env = { ...process.env, SPANPROOF_WORKER: path.join(REPO, 'src', 'worker', 'main.ts') };
  const imp = spawnSync(process.execPath, ['--import', 'tsx', REPO_CLI, 'import', 'pathway-cuad', path.join(FIX, 'labeled-head.tsv'), '--documents', FIX, '--workspace', ws], { encoding: 'utf8', env });
  assert.equal(imp.status, 0, imp.stderr);
  const out = path.join(ws, 'run');
  const run = spawnSync(process.execPath, ['--import', 'tsx', REPO_CLI, 'run', '--workspace', ws, '--chunkers', 'fixed,heading', '--retrievers', 'bm25', '--rerank', 'off', '--out', out, '--json'], { encoding: 'utf8', env });
  assert.equal(run.status, 0, run.stderr);
  const rows = comparePathwayHitRule(readPathwayComparisonFromRun(out));
  assert.deepEqual(rows.map((r) => r.config), ['fixed/bm25/none', 'heading/bm25/none']);
  for (const r of rows) {
    assert.equal(r.n, 15);
    assert.ok(r.agreement >= 0 && r.agreement <= 1);
    assert.ok(r.fixed.unscorable <= r.n);
    // on this contract every span hit@5 is also a word-overlap hit within 5 (the rule is the more lenient one here)
    assert.ok(r.pathway.hitAt['hit@5'] >= r.span.hitAtK - 1e-9, `${r.config}: pathway hit@5 ${r.pathway.hitAt['hit@5']} < span ${r.span.hitAtK}`);
  }
  rmSync(ws, { recursive: true, force: true });
});

test('alignExcerpt: a short excerpt with a 1-character typo aligns to its own text, not to an upper-case copy earlier', () => {
  const contract = readFileSync(path.join(FIX, 'CybergyHoldingsInc_20140520_10-Q_EX-10.27_8605784_EX-10.27_Affiliate Agreement.txt'), 'utf8');
  // the title "MARKETING AFFILIATE AGREEMENT" (offset 0) shares the longest case-folded block; the
  // document's "Marketing Affiliate" is at 196
  assert.equal(contract.slice(0, 19), 'MARKETING AFFILIATE');
  assert.equal(contract.indexOf('Marketing Affiliate'), 196);
  const a = alignExcerpt(contract, 'Marketing AffiliatZ') as Alignment;
  assert.equal(a.method, 'fuzzy');
  assert.deepEqual([a.start, a.end], [196, 215]);
  // difflib ratio = 2·M / (|a| + |b|) = 2·18 / (19 + 19) = 0.947 ("Marketing Affiliat" matches)
  assert.equal(a.similarity, 0.947);
  // a typo in the upper-case title still aligns to the title (its own case wins the ratio)
  const t = alignExcerpt(contract, 'MARKETING AFFILIATZ AGREEMENT') as Alignment;
  assert.deepEqual([t.start, t.end, t.similarity], [0, 29, round3(2 * 28 / 58)]);
});

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
