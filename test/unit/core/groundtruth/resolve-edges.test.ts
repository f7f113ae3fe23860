// Resolution at its edges (SPEC §3.2): rule 1 wins over context, offsets past the end, the tie-break
// of prefix/suffix scoring at the document's ends, the candidate cap at exactly MAX_CANDIDATES, and
// what resolveGroundTruth copies into questions and the acceptance report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseSource, resolveEvidence, resolveGroundTruth, type GroundTruthFile } from '../../../../src/core/groundtruth';
import { MAX_CANDIDATES } from '../../../../src/core/groundtruth/resolve';

const Q = 'repeat this quote'; // 17 code units
// "A: " = 3 → first occurrence [3, 20); ". B: " = 5 → second [25, 42) = the end of the text
const TWO = `A: ${Q}. B: ${Q}`;

test('rule 1: offsets that hold the quote resolve even when the prefix points at another occurrence, up to the very end', () => {
  assert.equal(TWO.length, 42);
  assert.deepEqual(resolveEvidence({ source: 't.md', exact: Q, start: 25, end: 42, prefix: 'A: ' }, TWO), { status: 'resolved', span: { source: 't.md', start: 25, end: 42 } });
  // without offsets the prefix decides: "A: " (3 matching) beats "B: " (2: ": ")
  assert.deepEqual(resolveEvidence({ source: 't.md', exact: Q, prefix: 'A: ' }, TWO), { status: 'moved', span: { source: 't.md', start: 3, end: 20 } });
});

test('an end past the text is not rule 1 (slice would clamp): re-anchored, moved to the real end', () => {
  // slice(25, 50) is the quote, but 50 > 42; rule 2: equal context, nearest the old start 25 → [25, 42)
  assert.deepEqual(resolveEvidence({ source: 't.md', exact: Q, start: 25, end: 50 }, TWO), { status: 'moved', span: { source: 't.md', start: 25, end: 42 } });
});

test('moved, not resolved, when only the end offset agrees', () => {
  const text = 'Some words: the only quote here.'; // "Some words: " = 12 → [12, 26)
  assert.deepEqual(resolveEvidence({ source: 'd.md', exact: 'the only quote', start: 10, end: 26 }, text), { status: 'moved', span: { source: 'd.md', start: 12, end: 26 } });
});

test('no prefix or suffix means no context: occurrences after "!" or before "S" stay tied', () => {
  assert.equal(resolveEvidence({ source: 'x.md', exact: Q }, `Wow!${Q}, and ${Q}.`).status, 'ambiguous');
  assert.equal(resolveEvidence({ source: 'x.md', exact: Q }, `${Q}Stop, and ${Q}.`).status, 'ambiguous');
});

test('prefix agreement reaches the first character of the document; suffix agreement counts only matching characters', () => {
  // "X" + Q at 1: the one character before it is the document's first → score 1; "Y" before the second → 0
  assert.deepEqual(resolveEvidence({ source: 'x.md', exact: Q, prefix: 'X' }, `X${Q}. Y${Q}.`), { status: 'moved', span: { source: 'x.md', start: 1, end: 18 } });
  // Q at 0 followed by " AAA. " (6) → second at 23, followed by " BB" (end): suffix " BB" scores 1 vs 3
  const text = `${Q} AAA. ${Q} BB`;
  assert.deepEqual(resolveEvidence({ source: 'x.md', exact: Q, suffix: ' BB' }, text), { status: 'moved', span: { source: 'x.md', start: 23, end: 40 } });
});

test('a colon inside a relative path is not a drive letter', () => {
  assert.equal(normaliseSource('docs/a:b.md'), 'docs/a:b.md');
  assert.equal(normaliseSource('notes/c:/x.md'), 'notes/c:/x.md');
});

test('the candidate cap: exactly MAX_CANDIDATES occurrences have no total; one more has, in the report too', () => {
  const LINE = 'The same sentence here.\n';
  const at = resolveEvidence({ source: 'a.md', exact: 'The same sentence here.' }, LINE.repeat(MAX_CANDIDATES));
  assert.ok(at.status === 'ambiguous' && at.candidates.length === 20 && !('total' in at));
  const over = resolveEvidence({ source: 'a.md', exact: 'The same sentence here.' }, LINE.repeat(MAX_CANDIDATES + 1));
  assert.ok(over.status === 'ambiguous' && over.candidates.length === 20 && over.total === 21);
  const gt: GroundTruthFile = { spanproof: 1, questions: [{ id: 'q', question: '?', evidence: [{ source: 'a.md', exact: 'The same sentence here.' }] }] };
  assert.equal(resolveGroundTruth(gt, () => LINE.repeat(21)).acceptance.ambiguous[0].candidatesTotal, 21);
  assert.equal('candidatesTotal' in resolveGroundTruth(gt, () => LINE.repeat(20)).acceptance.ambiguous[0], false);
});

test('resolveGroundTruth: a question without answer or tags, "from" offsets as written, the nearest match of a stale quote', () => {
  const text = 'Some words: the only quote here.';
  const stale = 'words: the single quote here';
  const gt: GroundTruthFile = {
    spanproof: 1,
    questions: [
      { id: 'a', question: 'A?', evidence: [{ source: 'd.md', exact: 'the only quote', start: 10, end: 26 }] },
      { id: 'b', question: 'B?', evidence: [{ source: 'd.md', exact: 'the only quote' }] },
      { id: 'c', question: 'C?', evidence: [{ source: 'd.md', exact: stale }] },
    ],
  };
  const r = resolveGroundTruth(gt, () => text);
  assert.deepEqual(r.questions[0], { id: 'a', question: 'A?', match: 'all', tags: [], spans: [{ source: 'd.md', start: 12, end: 26 }] });
  assert.deepEqual(r.acceptance.relocated.map((x) => [x.id, x.from, x.to]), [
    ['a', { start: 10, end: 26 }, { start: 12, end: 26, line: 1 }],
    ['b', {}, { start: 12, end: 26, line: 1 }],
  ]);
  const alone = resolveEvidence({ source: 'd.md', exact: stale }, text);
  assert.ok(alone.status === 'stale' && alone.nearest !== undefined);
  assert.deepEqual(r.acceptance.stale[0].nearest, alone.nearest);
});
