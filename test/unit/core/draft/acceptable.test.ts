/**
 * #16 N8, the rule shared by `review --accept` and the editor's Accept Draft: of the drafts an accept
 * names, those whose evidence no longer resolves in the current text are kept out of the accept, with
 * the problem; an explicit list keeps its other ids (unknown ones are still refused by reviewText).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { acceptWithout, draftsToAccept, unresolvedDrafts } from '../../../../src/core/draft';
import { resolveGroundTruth, type Question } from '../../../../src/core/groundtruth';

const DOC = 'The default port is 8000. Logs go to stderr unless configured otherwise.';
const q = (id: string, exact: string, draft = true): Question => ({ id, question: `${id}?`, ...(draft ? { status: 'draft' } : {}), evidence: [{ source: 'a.md', exact }] }) as Question;
const questions = [q('hand', 'The default port is 8000.', false), q('ok', 'Logs go to stderr unless configured otherwise.'), q('gone', 'The server listens on all interfaces.')];

test('unresolvedDrafts names the drafts whose quote is not in the text; acceptWithout drops them from the accept', () => {
  const res = resolveGroundTruth({ spanproof: 1, questions }, (s) => (s === 'a.md' ? DOC : undefined));
  assert.deepEqual(draftsToAccept(questions, 'all').map((x) => x.id), ['ok', 'gone']);
  const refused = unresolvedDrafts(['ok', 'gone'], res);
  assert.deepEqual(refused.map((d) => d.id), ['gone']);
  assert.match(refused[0].problem, /not found/);
  assert.deepEqual(acceptWithout(questions, 'all', refused), { accept: ['ok'] });
  assert.deepEqual(acceptWithout(questions, ['gone', 'ok', 'nope'], refused), { accept: ['ok', 'nope'] });
  assert.deepEqual(acceptWithout(questions, 'all', []), { accept: 'all' });
});
