/**
 * Issue #16 item 14: the candidate list of an ambiguous quote was unbounded (2 M candidates, 189 MB of
 * JSON). It holds the first MAX_CANDIDATES occurrences in document order and says how many there are;
 * a list within the cap is unchanged (no `total` key, so results.json stays byte-identical). Stale quotes
 * in one document share one tokenisation and find the same nearest match as alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveEvidence, resolveGroundTruth } from '../../../../src/core/groundtruth';
import { MAX_CANDIDATES } from '../../../../src/core/groundtruth/resolve';

const LINE = 'The same sentence here.\n';

test('an ambiguous quote lists the first MAX_CANDIDATES occurrences and counts them all', () => {
  const text = LINE.repeat(500);
  const r = resolveEvidence({ source: 'a.md', exact: 'The same sentence here.' }, text);
  assert.equal(r.status, 'ambiguous');
  if (r.status !== 'ambiguous') return;
  assert.equal(MAX_CANDIDATES, 20);
  assert.equal(r.candidates.length, 20);
  assert.equal(r.total, 500);
  assert.deepEqual(r.candidates.slice(0, 2), [{ start: 0, end: 23, line: 1 }, { start: 24, end: 47, line: 2 }]);
  const few = resolveEvidence({ source: 'a.md', exact: 'The same sentence here.' }, LINE.repeat(3));
  assert.ok(few.status === 'ambiguous' && few.candidates.length === 3 && !('total' in few), 'within the cap: as before');
  const gt = { spanproof: 1 as const, questions: [{ id: 'q', question: 'q?', evidence: [{ source: 'a.md', exact: 'The same sentence here.' }] }] };
  const acc = resolveGroundTruth(gt, () => text).acceptance;
  assert.equal(acc.ambiguous[0].candidatesTotal, 500);
  assert.equal(acc.ambiguous[0].candidates.length, 20);
});

test('stale quotes of one document find the same nearest match together as alone', () => {
  const text = 'Alpha beta gamma delta.\nEpsilon zeta eta theta.\n';
  const quotes = ['alpha beta gamma omega', 'epsilon zeta eta iota'];
  const alone = quotes.map((exact) => resolveEvidence({ source: 'a.md', exact }, text));
  const gt = { spanproof: 1 as const, questions: quotes.map((exact, i) => ({ id: `q${i}`, question: 'q?', evidence: [{ source: 'a.md', exact }] })) };
  const together = resolveGroundTruth(gt, () => text).acceptance.stale.map((s) => s.nearest);
  assert.deepEqual(together, alone.map((r) => (r.status === 'stale' ? r.nearest : undefined)));
  assert.deepEqual(together.map((n) => n?.text), ['Alpha beta gamma', 'Epsilon zeta eta']);
});
