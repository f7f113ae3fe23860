// Three-way merge of ground-truth files by question id (SPEC §16: merged or refused, never silent).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mergeGroundTruth } from '../../../src/extension/merge';
import type { GroundTruthFile, Question } from '../../../src/core/groundtruth';

const q = (id: string, question = `Q ${id}`): Question => ({ id, question, evidence: [{ source: 'a.md', exact: `quote of ${id} long enough` }] });
const file = (...qs: Question[]): GroundTruthFile => ({ spanproof: 1, questions: qs });

test('edits of different questions on both sides are merged', () => {
  const base = file(q('a'), q('b'));
  const ours = file(q('a', 'ours'), q('b'));
  const theirs = file(q('a'), q('b', 'theirs'));
  const m = mergeGroundTruth(base, ours, theirs);
  assert.deepEqual(m.conflicts, []);
  assert.deepEqual(m.merged!.questions.map((x) => x.question), ['ours', 'theirs']);
});

test('a question added on each side keeps both; theirs first, then ours', () => {
  const m = mergeGroundTruth(file(q('a')), file(q('a'), q('new-ours')), file(q('a'), q('new-theirs')));
  assert.deepEqual(m.merged!.questions.map((x) => x.id), ['a', 'new-theirs', 'new-ours']);
});

test('the same question edited differently on both sides is a conflict and nothing is merged', () => {
  const m = mergeGroundTruth(file(q('a')), file(q('a', 'ours')), file(q('a', 'theirs')));
  assert.deepEqual(m.conflicts, ['a']);
  assert.equal(m.merged, null);
});

test('deleted on disk and untouched here stays deleted; deleted on disk but edited here conflicts', () => {
  assert.deepEqual(mergeGroundTruth(file(q('a'), q('b')), file(q('a'), q('b')), file(q('a'))).merged!.questions.map((x) => x.id), ['a']);
  assert.deepEqual(mergeGroundTruth(file(q('a'), q('b')), file(q('a'), q('b', 'edited')), file(q('a'))).conflicts, ['b']);
});

test('identical edits on both sides are not a conflict; top-level keys merge too', () => {
  const base = { ...file(q('a')), corpus: 'x' };
  const m = mergeGroundTruth(base, { ...file(q('a', 'same')), corpus: 'y' }, { ...file(q('a', 'same')), corpus: 'x' });
  assert.deepEqual(m.conflicts, []);
  assert.equal(m.merged!.corpus, 'y');
  assert.equal(m.merged!.questions[0].question, 'same');
});
