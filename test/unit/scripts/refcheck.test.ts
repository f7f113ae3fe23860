// The reference-case checker on the shipped copies of the reference files (byte-for-byte copies of
// ../shared/reference/metrics, test/fixtures/metrics/SOURCE.md — so the check runs without ../shared).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_FIXTURES, runRefcheck, summaryLine } from '../../../scripts/refcheck';
import { tempDir } from '../../helpers/tmp';

test('refcheck: every shipped reference case passes, none unsupported', () => {
  const s = runRefcheck(DEFAULT_FIXTURES);
  const bad = s.results.filter((r) => r.status !== 'passed').map((r) => `${r.id}: ${r.messages.join('; ')}`);
  assert.deepEqual(bad, []);
  assert.ok(s.passed >= 92, summaryLine(s));
  assert.equal(s.results.filter((r) => r.kind === 'retrieval').length >= 15, true);
});

test('refcheck: a wrong expected value fails, an unknown metric is unsupported, file cases resolve relative paths', () => {
  const dir = tempDir('refcheck-');
  writeFileSync(join(dir, 'q.txt'), 'q1 0 a 1\nq1 0 b 0\n');
  writeFileSync(join(dir, 'r.txt'), 'q1 Q0 b 1 2.0 t\nq1 Q0 a 2 1.0 t\n');
  const f = join(dir, 'cases.json');
  writeFileSync(f, JSON.stringify({ cases: [
    { id: 'file_ok', qrels_file: 'q.txt', run_file: 'r.txt', expected: { q1: { 'precision@1': 0, mrr: 0.5 }, mean: { num_q: 1 } } },
    { id: 'file_wrong', qrels_file: 'q.txt', run_file: 'r.txt', expected: { q1: { mrr: 1 } } },
    { id: 'dup_error', qrels: { q1: { a: 1 } }, run: { q1: [['a', 1], ['a', 2]] }, expected_error: 'duplicate docno' },
    { id: 'bertscore', metric: 'bertscore', level: 'sentence', params: {}, hypothesis: 'x', references: ['y'], expected: 0.5, tolerance: 0.1 },
  ] }));
  const s = runRefcheck([f]);
  const by = Object.fromEntries(s.results.map((r) => [r.id, r.status]));
  assert.deepEqual(by, { file_ok: 'passed', file_wrong: 'failed', dup_error: 'passed', bertscore: 'unsupported' });
  assert.equal(summaryLine(s), 'reference cases: 2 passed, 1 failed, 1 unsupported');
});
