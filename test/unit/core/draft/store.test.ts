/**
 * Writing drafts and reviewing them as text edits (issue #14 §5–6): hand-written questions keep every
 * byte, whatever the file's layout (compact, tabs, CRLF); accepting removes only `"status"`,
 * rejecting removes only the draft; the previous version goes to `<file>.bak` (or `.bak.N`: a backup is never overwritten).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { insertDrafts, reviewFile, reviewText, writeDrafts } from '../../../../src/core/draft';
import { parseGroundTruth, type Question } from '../../../../src/core/groundtruth';
import { tempDir } from '../../../helpers/tmp';
import { runBounded } from '../../../helpers/bounded';
import { execFileSync } from 'node:child_process';

const COMPACT = '{"spanproof": 1, "corpus": "x", "questions": [{"id": "h1", "question": "q1", "evidence": [{"source": "a.md", "exact": "hello world, friend"}], "tags": ["a","b"], "custom": {"k": 1}}]}\n';
const TABS_CRLF = '{\r\n\t"spanproof": 1,\r\n\t"questions": [\r\n\t\t{\r\n\t\t\t"id": "h1", "question": "q1",\r\n\t\t\t"evidence": [{"source": "a.md", "exact": "hello world, friend"}]\r\n\t\t},\r\n\t\t{"id": "h2", "question": "q2", "evidence": [{"source": "a.md", "exact": "another quote here"}]}\r\n\t]\r\n}\r\n';

function draft(id: string, question = `drafted ${id}`): Question {
  return {
    id, question, answer: 'an answer',
    evidence: [{ source: 'a.md', exact: 'hello world, friend', prefix: 'x', start: 1, end: 20 }],
    status: 'draft',
    provenance: { model: 'm', endpoint: 'http://127.0.0.1:1/v1', promptVersion: 'draft-questions@1#abc', passage: { source: 'a.md', start: 0, end: 40 }, createdAt: '2026-12-01T00:00:00.000Z' },
  };
}

/** The exact text of each question object by id. */
function questionTexts(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const n of findNodeAtLocation(parseTree(text)!, ['questions'])?.children ?? []) out.set(findNodeAtLocation(n, ['id'])!.value, text.slice(n.offset, n.offset + n.length));
  return out;
}

for (const [name, file] of [['compact', COMPACT], ['tabs + CRLF', TABS_CRLF]] as const) {
  test(`insertDrafts (${name}): hand questions byte-identical, everything before the insertion point unchanged, drafts appended`, () => {
    const out = insertDrafts(file, [draft('d1'), draft('d2')], 'gt.json');
    const before = questionTexts(file);
    const after = questionTexts(out);
    for (const [id, t] of before) assert.equal(after.get(id), t, id);
    const lastHand = [...before.values()].pop()!;
    const cut = file.indexOf(lastHand) + lastHand.length;
    assert.equal(out.slice(0, cut), file.slice(0, cut));
    assert.equal(out.slice(out.length - (file.length - cut)), file.slice(cut));
    const gt = parseGroundTruth(out, 'gt.json');
    assert.deepEqual(gt.questions.map((q) => [q.id, q.status]), [...before.keys()].map((id) => [id, undefined]).concat([['d1', 'draft'], ['d2', 'draft']]));
    assert.deepEqual(gt.questions.at(-1)!.provenance, draft('d2').provenance);
    if (file.includes('\r\n')) assert.ok(!/[^\r]\n/.test(out), 'CRLF kept');
  });
}

test('insertDrafts: a new file is created; an empty questions array gets the draft; a taken id is replaced', () => {
  const created = parseGroundTruth(insertDrafts(null, [draft('d1')], 'gt.json'), 'gt.json');
  assert.equal(created.questions[0].id, 'd1');
  const empty = parseGroundTruth(insertDrafts('{\n  "spanproof": 1,\n  "questions": []\n}\n', [draft('d1')], 'gt.json'), 'gt.json');
  assert.equal(empty.questions.length, 1);
  const clash = parseGroundTruth(insertDrafts(COMPACT, [draft('h1')], 'gt.json'), 'gt.json');
  assert.equal(clash.questions.length, 2);
  assert.match(clash.questions[1].id, /^draft-[0-9a-f]{8}$/);
});

test('reviewText: accept removes only "status" (provenance kept), reject removes only the draft; hand questions untouched', () => {
  const withDrafts = insertDrafts(TABS_CRLF, [draft('d1'), draft('d2')], 'gt.json');
  const hand = questionTexts(TABS_CRLF);
  const acc = reviewText(withDrafts, { accept: ['d2'] }, 'gt.json');
  const accGt = parseGroundTruth(acc.text, 'gt.json');
  assert.deepEqual(acc.ids, ['d2']);
  const d2 = accGt.questions.find((q) => q.id === 'd2')!;
  assert.equal(d2.status, undefined);
  assert.deepEqual(d2.provenance, draft('d2').provenance);
  assert.equal(accGt.questions.find((q) => q.id === 'd1')!.status, 'draft');
  const rej = reviewText(acc.text, { reject: ['d1'] }, 'gt.json');
  assert.deepEqual(parseGroundTruth(rej.text, 'gt.json').questions.map((q) => q.id), ['h1', 'h2', 'd2']);
  for (const t of [acc.text, rej.text]) for (const [id, s] of hand) assert.equal(questionTexts(t).get(id), s, id);
  const all = parseGroundTruth(reviewText(withDrafts, { accept: 'all' }, 'gt.json').text, 'gt.json');
  assert.ok(all.questions.every((q) => q.status === undefined));
});

test('reviewText edit: rewords only the draft\'s question; hand questions untouched', () => {
  const t = insertDrafts(TABS_CRLF, [draft('d1')], 'gt.json');
  const out = reviewText(t, { edit: 'd1', question: 'A better "question"?' }, 'gt.json').text;
  const gt = parseGroundTruth(out, 'gt.json');
  assert.equal(gt.questions[2].question, 'A better "question"?');
  assert.equal(gt.questions[2].status, 'draft');
  for (const [id, s] of questionTexts(TABS_CRLF)) assert.equal(questionTexts(out).get(id), s, id);
  assert.equal(out.replace('A better \\"question\\"?', 'drafted d1'), t);
  assert.throws(() => reviewText(t, { edit: 'h1', question: 'x' }, 'gt.json'), /not a draft/);
});

test('reviewText refuses unknown ids and hand-written questions', () => {
  const t = insertDrafts(COMPACT, [draft('d1')], 'gt.json');
  assert.throws(() => reviewText(t, { accept: ['nope'] }, 'gt.json'), /no question "nope" in the ground truth/);
  assert.throws(() => reviewText(t, { reject: ['h1'] }, 'gt.json'), /question "h1" is not a draft/);
});

test('writeDrafts and reviewFile: atomic writes with the previous version in .bak; a concurrent change is refused by reviewFile', async () => {
  const dir = tempDir('spanproof-draft-store-');
  const file = join(dir, 'gt.json');
  writeFileSync(file, COMPACT);
  const w = await writeDrafts(file, [draft('d1')]);
  assert.equal(w.written, true);
  assert.equal(readFileSync(`${file}.bak`, 'utf8'), COMPACT);
  const now = readFileSync(file, 'utf8');
  assert.equal(parseGroundTruth(now, file).questions.length, 2);
  writeFileSync(file, `${now}\n`); // someone edits the file after `now` was read
  await assert.rejects(reviewFile(file, now, { accept: ['d1'] }), /changed on disk since it was read/);
  assert.equal(readFileSync(file, 'utf8'), `${now}\n`);
  writeFileSync(file, now);
  const r = await reviewFile(file, now, { accept: 'all' });
  assert.deepEqual(r.ids, ['d1']);
  assert.equal(r.backup, `${file}.bak.1`, 'the older backup is never overwritten (#16 item 8)');
  assert.equal(readFileSync(`${file}.bak.1`, 'utf8'), now);
  assert.equal(readFileSync(`${file}.bak`, 'utf8'), COMPACT);
  assert.equal(parseGroundTruth(readFileSync(file, 'utf8'), file).questions[1].status, undefined);
  const fresh = join(dir, 'sub', 'new.json');
  assert.deepEqual(await writeDrafts(fresh, [draft('d9')]), { written: true });
  assert.ok(!existsSync(`${fresh}.bak`));
});

test('writeDrafts into a ground truth that is a FIFO is refused at once naming it (its read waited forever)', { skip: process.platform === 'win32' }, (t) => {
  const dir = tempDir('spanproof-drafts-fifo-', t);
  const fifo = join(dir, 'groundtruth.json');
  execFileSync('mkfifo', [fifo]);
  const q = { id: 'd1', question: 'Which port?', evidence: [{ source: 'a.md', exact: 'The default port is 8000.' }], status: 'draft' };
  const r = runBounded(`require('./src/core/draft').writeDrafts(${JSON.stringify(fifo)}, [${JSON.stringify(q)}]).then(() => console.log('written'), (e) => console.log(e.code + ' ' + e.message))`, 30_000);
  assert.equal(r.timedOut, false, 'the read hung');
  assert.equal(r.stdout.trim(), `bad-input ${fifo}: the ground-truth file is a named pipe (FIFO), not a regular file; it was not read. Fix: replace it with a regular file (a named pipe, device or socket is never read, also not through a symbolic link).`);
});
