/**
 * #16 N5: CSV formula injection. A text cell starting with = + - @ tab or CR was written as it is, so a
 * spreadsheet ran a config id or question id like =HYPERLINK("http://x","y") as a formula. Every CSV
 * Spanproof writes (the report's CSV, MLflow's heatmap.csv) now prefixes such a cell with ' (OWASP) and
 * quotes it as usual; numbers (a negative difference) stay numbers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvCell } from '../../../../src/core/text';
import { renderCsv } from '../../../../src/core/report';
import { heatmapCsv } from '../../../../src/core/export/mlflow';
import { DEFAULT_SETTINGS } from '../../../../src/core/settings';
import type { RunData } from '../../../../src/core/runs';

const EVIL = '=HYPERLINK("http://x","y")';

test('csvCell: a text cell opening with = + - @ tab or CR gets a leading quote, then RFC 4180 quoting; numbers and other text are unchanged', () => {
  assert.equal(csvCell(EVIL), `"'=HYPERLINK(""http://x"",""y"")"`);
  assert.equal(csvCell('+1'), "'+1");
  assert.equal(csvCell('-2+3'), "'-2+3");
  assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
  assert.equal(csvCell('\t=1'), "'\t=1");
  assert.equal(csvCell('\r=1'), `"'\r=1"`);
  assert.equal(csvCell('a=b'), 'a=b');
  assert.equal(csvCell('fixed/bm25/none'), 'fixed/bm25/none');
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell(-0.05), '-0.05');
  assert.equal(csvCell(false), 'false');
  assert.equal(csvCell(null), '');
  assert.equal(csvCell(NaN), '');
});

function run(configId: string, questionId: string, source: string): RunData {
  const cfg = { id: configId, chunker: '-c', retriever: '@r', rerank: false, scored: 1, failed: [], metrics: {}, causes: {} as never, contextChars: 10, tauSweep: {}, vsTop: null, rank: 1, explanation: '' };
  return {
    run: { id: 'r', status: 'succeeded', progress: { finished: 1, total: 1 }, error: null, startedAt: '', endedAt: null, toolVersion: '0', settings: DEFAULT_SETTINGS, workspace: '/w', groundTruthFile: '/w/gt.json', runDir: '/w/r', location: { kind: 'workspace' }, corpusHash: '', groundTruthHash: '', acceptance: null, seed: 1 },
    results: { spanproof: 1, k: 1, tau: 0.9, n: 1, primaryMetric: 'hit@1', seed: 1, resamples: 10, questions: 1, acceptance: { total: 1, resolved: 1, moved: 0, stale: [], ambiguous: [], rejected: [], relocated: [] }, configs: [cfg], skipped: [], errors: [] },
    ranking: null,
    timings: null,
    questions: [{ question: questionId, config: configId, status: 'ok', results: [{ source, start: 0, end: 4, score: 1 }], pool: [], 'coverage@5': 1, 'hit@5': 1, rr: 1, cause: null }],
    evidence: { questions: [{ id: questionId, question: 'q?', match: 'all', spans: [{ source, start: 0, end: 4, text: 'text' }] }] },
  };
}

test('report CSV: a config id, chunker and retriever opening with = - @ are written with a leading quote', () => {
  const line = renderCsv(run(EVIL, 'q1', 'a.md')).split('\r\n')[1];
  // config, chunker, retriever, rerank, rank (no ranking.json: empty) …
  assert.ok(line.startsWith(`"'=HYPERLINK(""http://x"",""y"")",'-c,'@r,false,,`), line);
});

test('MLflow heatmap.csv: a question id and a document path opening with = or + are written with a leading quote', () => {
  assert.equal(heatmapCsv(run('fixed/bm25/none', EVIL, '+a.md')), `document,"'=HYPERLINK(""http://x"",""y"")"\n'+a.md,1.000E\n`);
});
