/**
 * Drafted questions in the ground-truth file (issue #14 §5): `"status"` may only be `"draft"`,
 * `provenance` must be an object, both are written after the known keys, and `withoutDrafts` splits
 * them off for scoring.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGroundTruth, serializeGroundTruth, withoutDrafts } from '../../../../src/core/groundtruth';

const q = (id: string, extra: Record<string, unknown> = {}) => ({ id, question: 'q', evidence: [{ source: 'a.md', exact: 'some quote text' }], ...extra });

test('status "draft" and an object provenance parse; any other status or a non-object provenance is refused with the fix', () => {
  const gt = parseGroundTruth(JSON.stringify({ spanproof: 1, questions: [q('a'), q('b', { status: 'draft', provenance: { model: 'm' } })] }), 'gt.json');
  const { scored, drafts } = withoutDrafts(gt);
  assert.deepEqual(scored.questions.map((x) => x.id), ['a']);
  assert.deepEqual(drafts.map((x) => x.id), ['b']);
  assert.equal(withoutDrafts(scored).scored, scored);
  assert.throws(() => parseGroundTruth(JSON.stringify({ spanproof: 1, questions: [q('a', { status: 'accepted' })] }), 'gt.json'), /questions\[0\]\.status: .*the only status is "draft"/s);
  assert.throws(() => parseGroundTruth(JSON.stringify({ spanproof: 1, questions: [q('a', { provenance: 'x' })] }), 'gt.json'), /questions\[0\]\.provenance/);
});

test('status and provenance are serialised after the known keys, before unknown ones', () => {
  const text = serializeGroundTruth({ spanproof: 1, questions: [{ custom: 1, provenance: { model: 'm' }, status: 'draft', ...q('a') } as never] }, { indent: 0 });
  assert.deepEqual(Object.keys(JSON.parse(text).questions[0]), ['id', 'question', 'evidence', 'status', 'provenance', 'custom']);
});
