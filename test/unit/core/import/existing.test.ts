/**
 * An import into a workspace that already has a ground truth (#16 item 8): a new user's 18 hand-written
 * questions became the 5 imported ones, silently. Now the import refuses (exit 2, nothing written)
 * unless `--replace` (the file is kept as a backup) or `--merge` (imported questions added by id; an id
 * already there with different content is a conflict: the workspace's version is kept and listed).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { questionsAtRisk, runImport, writeImport } from '../../../../src/core/import';
import { runCli } from '../../../helpers/cli';
import { tempDir } from '../../../helpers/tmp';

const CONTEXT = 'The default port is 8000. It listens on all interfaces.';
const HAND = `{
  "spanproof": 1,
  "corpus": "hand",
  "questions": [
    {"id": "mine-1", "question": "Which port?", "evidence": [{"source": "a.md", "exact": "The default port is 8000."}], "x-note": "kept"},
    {"id": "q-port", "question": "My own wording of the port question?", "evidence": [{"source": "a.md", "exact": "The default port is 8000."}]}
  ]
}
`;

function setup(t: Parameters<typeof tempDir>[1]): { ws: string; squad: string; gtFile: string } {
  const root = tempDir('spanproof-import-existing-', t);
  const ws = path.join(root, 'ws');
  mkdirSync(path.join(ws, '.spanproof'), { recursive: true });
  writeFileSync(path.join(ws, 'a.md'), `${CONTEXT}\n`);
  const gtFile = path.join(ws, '.spanproof', 'groundtruth.json');
  writeFileSync(gtFile, HAND);
  const squad = path.join(root, 'squad.json');
  writeFileSync(squad, JSON.stringify({ data: [{ title: 't', paragraphs: [{ context: CONTEXT, qas: [
    { id: 'q-port', question: 'Which port is the default?', answers: [{ text: '8000', answer_start: 20 }] },
    { id: 'q-iface', question: 'Which interfaces?', answers: [{ text: 'all interfaces', answer_start: 40 }] },
  ] }] }] }));
  return { ws, squad, gtFile };
}

test('import into a workspace with a ground truth refuses without --replace/--merge: exit 2, nothing written', async (t) => {
  const { ws, squad, gtFile } = setup(t);
  const r = await runCli(['import', 'squad', squad, '--workspace', ws]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /already has a ground truth with 2 question/);
  assert.match(r.stderr, /--replace/);
  assert.match(r.stderr, /--merge/);
  assert.equal(readFileSync(gtFile, 'utf8'), HAND);
  assert.deepEqual(readdirSync(path.join(ws, '.spanproof')), ['groundtruth.json'], 'no backup, no report');
  assert.equal(existsSync(path.join(ws, 'squad')), false, 'no document written');
  const res = await runImport('squad', squad, { workspace: ws });
  await assert.rejects(writeImport(res, ws), (e: Error & { code?: string }) => e.code === 'bad-input');
});

test('--replace replaces it and keeps the hand-written file as a backup', async (t) => {
  const { ws, squad, gtFile } = setup(t);
  const r = await runCli(['import', 'squad', squad, '--workspace', ws, '--replace']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(readFileSync(gtFile, 'utf8')).questions.map((q: { id: string }) => q.id), ['q-port', 'q-iface']);
  assert.equal(readFileSync(`${gtFile}.bak`, 'utf8'), HAND);
});

test('--replace keeps the file\'s BOM and its CRLF line endings (#16 N10c: the BOM was kept, every \\r\\n became \\n)', async (t) => {
  const { ws, squad, gtFile } = setup(t);
  const windows = `\uFEFF${HAND.replace(/\n/g, '\r\n')}`;
  writeFileSync(gtFile, windows);
  const r = await runCli(['import', 'squad', squad, '--workspace', ws, '--replace']);
  assert.equal(r.code, 0, r.stderr);
  const text = readFileSync(gtFile, 'utf8');
  assert.ok(text.startsWith('\uFEFF{\r\n'), JSON.stringify(text.slice(0, 10)));
  assert.equal(text.split('\r\n').length, text.split('\n').length, 'every line break is \\r\\n');
  assert.ok(text.endsWith('}\r\n'));
  assert.deepEqual(JSON.parse(text.slice(1)).questions.map((q: { id: string }) => q.id), ['q-port', 'q-iface']);
  assert.equal(readFileSync(`${gtFile}.bak`, 'utf8'), windows);
  // the same import again finds the file as it would write it: nothing to write
  const again = await runCli(['import', 'squad', squad, '--workspace', ws, '--replace', '--json']);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(readFileSync(gtFile, 'utf8'), text);
});

test('--merge adds the new ids, keeps the workspace\'s version of a conflicting id and lists it; the hand-written text and unknown fields survive', async (t) => {
  const { ws, squad, gtFile } = setup(t);
  const r = await runCli(['import', 'squad', squad, '--workspace', ws, '--merge', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out.written.merge, { added: ['q-iface'], unchanged: [], conflicts: ['q-port'] });
  const gt = JSON.parse(readFileSync(gtFile, 'utf8'));
  assert.deepEqual(gt.questions.map((q: { id: string }) => q.id), ['mine-1', 'q-port', 'q-iface']);
  assert.equal(gt.questions[1].question, 'My own wording of the port question?', 'the conflicting id keeps the workspace version');
  assert.equal(gt.questions[0]['x-note'], 'kept');
  assert.equal(gt.corpus, 'hand');
  assert.equal(readFileSync(`${gtFile}.bak`, 'utf8'), HAND);
  const human = await runCli(['import', 'squad', squad, '--workspace', ws, '--merge']);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /1 conflict.*q-port/s);
});

test('--replace and --merge together are refused', async (t) => {
  const { ws, squad } = setup(t);
  const r = await runCli(['import', 'squad', squad, '--workspace', ws, '--replace', '--merge']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /either --replace or --merge/);
});

test('questionsAtRisk (what VS Code asks Merge / Replace on): the existing questions a plain import would lose or change', async (t) => {
  const { ws, squad } = setup(t);
  const res = await runImport('squad', squad, { workspace: ws });
  assert.equal(questionsAtRisk(res, ws), 2, 'mine-1 would be lost, q-port changed');
  const empty = tempDir('spanproof-import-empty-', t);
  assert.equal(questionsAtRisk(res, empty), 0);
});

test('--merge leaves every byte of the existing file as written (__proto__ key, integers beyond 2^53, 1.10, 4-space indent, key order) and appends the new question in its indentation', async (t) => {
  const { ws, squad, gtFile } = setup(t);
  const lossy = `{
    "questions": [
        {
            "question": "My own wording of the port question?",
            "id": "q-port",
            "evidence": [{"exact": "The default port is 8000.", "source": "a.md", "myExtra": 9007199254740993, "float": 1.10}]
        }
    ],
    "__proto__": {"polluted": true},
    "bigId": 123456789012345678901234567890,
    "spanproof": 1
}
`;
  writeFileSync(gtFile, lossy);
  const r = await runCli(['import', 'squad', squad, '--workspace', ws, '--merge', '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).written.merge, { added: ['q-iface'], unchanged: [], conflicts: ['q-port'] });
  const after = readFileSync(gtFile, 'utf8');
  const cut = after.indexOf('        }') + '        }'.length;
  const keptHead = lossy.slice(0, lossy.indexOf('        }') + '        }'.length);
  assert.equal(after.slice(0, cut), keptHead, 'the existing question is byte for byte as it was');
  assert.ok(after.endsWith(lossy.slice(lossy.indexOf('\n    ],'))), 'everything after the questions array is unchanged');
  const added = after.slice(cut, after.indexOf('\n    ],'));
  assert.match(added, /^,\n {8}\{\n {12}"id": "q-iface",\n/, 'the new question is indented like the file (4 spaces)');
  assert.equal(JSON.parse(after).questions[1].id, 'q-iface');
  assert.equal(readFileSync(`${gtFile}.bak`, 'utf8'), lossy);
});

test('--merge: the acceptance printed is the whole merged file\'s and says so (it said 2/2 — the imported questions — for a file of 3)', async (t) => {
  const { ws, squad } = setup(t);
  const r = await runCli(['import', 'squad', squad, '--workspace', ws, '--merge', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const acc = JSON.parse(r.stdout).acceptance as { of: string; total: number; resolved: number };
  assert.deepEqual([acc.of, acc.total, acc.resolved], ['merged ground truth', 3, 3]);
  const human = await runCli(['import', 'squad', squad, '--workspace', ws, '--merge']);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /Acceptance of the whole merged .*groundtruth\.json against .*: 3\/3 questions resolve/);
  const replaced = await runCli(['import', 'squad', squad, '--workspace', ws, '--replace']);
  assert.match(replaced.stdout, /Acceptance of the imported questions against .*: 2\/2 questions resolve/);
});
