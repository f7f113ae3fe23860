/**
 * `spanproof import` keeps to its folders (fresh-user pass items 2, 8, 10): `import chroma` reads
 * `corpora/<id>.md` only when its real path stays in the dataset folder (a link out of it is a
 * rejected row, and its target is never copied); nothing is written where a symbolic link leads out
 * of the workspace; and the ground truth written (and guarded) is the workspace's configured
 * `spanproof.groundTruthPath`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/tmp';

const SECRET = '-----BEGIN KEY----- totally secret key material';

/** A Chroma dataset whose `corpora/key.md` links to a secret outside the dataset folder. */
function chromaWithLink(root: string, rows: string[]): string {
  const data = path.join(root, 'data');
  mkdirSync(path.join(data, 'corpora'), { recursive: true });
  mkdirSync(path.join(root, 'secret'));
  writeFileSync(path.join(root, 'secret', 'id_rsa'), SECRET + '\n');
  writeFileSync(path.join(data, 'corpora', 'pub.md'), 'Public doc says FastAPI is fast and modern for APIs.\n');
  symlinkSync('../../secret/id_rsa', path.join(data, 'corpora', 'key.md'));
  writeFileSync(path.join(data, 'questions_df.csv'), ['question,references,corpus_id', ...rows].join('\n') + '\n');
  return path.join(data, 'questions_df.csv');
}
const PUB_ROW = 'q1,"[{""content"": ""FastAPI is fast and modern"", ""start_index"": 16, ""end_index"": 42}]",pub';
const KEY_ROW = 'q2,"[{""content"": ""a guess that matches nothing at all"", ""start_index"": 0, ""end_index"": 34}]",key';
const SECRET_ROW = 'q3,"[{""content"": ""totally secret key material"", ""start_index"": 20, ""end_index"": 47}]",key';

/** Every file under `dir` (relative), for "nothing of the secret was copied". */
function filesUnder(dir: string): string[] {
  return existsSync(dir) ? (readdirSync(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))) : [];
}

test('item 2: import chroma — corpora/key.md linking out of the dataset folder is a rejected row; its target is never copied', async (t) => {
  const root = tempDir('spanproof-chroma-link-', t);
  const csv = chromaWithLink(root, [PUB_ROW, KEY_ROW, SECRET_ROW]);
  const ws = path.join(root, 'ws');
  const r = await runCli(['import', 'chroma', csv, '--workspace', ws, '--json']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { report: { converted: number; documents: number; rejected: Array<{ row: number; reason: string }> } };
  assert.equal(out.report.converted, 1);
  assert.deepEqual(out.report.rejected.map((x) => x.row), [3, 4]);
  for (const x of out.report.rejected) assert.match(x.reason, /corpora\/key\.md links outside the dataset folder; not read/);
  assert.equal(out.report.documents, 1);
  assert.ok(!existsSync(path.join(ws, 'corpora', 'key.md')), 'the link target is not copied');
  for (const f of filesUnder(ws)) assert.ok(!readFileSync(path.join(ws, f), 'utf8').includes('secret key material'), f);
});

test('item 12: import chroma — a corpus read for a rejected row only is not copied; all rejected: no "copied" note next to "nothing written"', async (t) => {
  const root = tempDir('spanproof-chroma-allrej-', t);
  const bad = 'q1,"[{""content"": ""text that is not in the corpus at all"", ""start_index"": 0, ""end_index"": 37}]",pub';
  const csv = chromaWithLink(root, [bad, KEY_ROW]);
  const ws = path.join(root, 'ws');
  const r = await runCli(['import', 'chroma', csv, '--workspace', ws]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stdout, /nothing written/);
  assert.doesNotMatch(r.stdout, /copied \d+ file/);
  assert.deepEqual(filesUnder(ws), []);
});

/** A one-question SQuAD v2 file (paragraph → `squad/001-x/p001.txt`). */
function squadFile(root: string): string {
  const c = 'FastAPI is fast. It uses Pydantic for validation of data models here.';
  const file = path.join(root, 'sq.json');
  writeFileSync(file, JSON.stringify({ version: 'v2.0', data: [{ title: 'x', paragraphs: [{ context: c, qas: [{ id: 'a', question: 'q?', answers: [{ text: 'It uses Pydantic', answer_start: 17 }] }] }] }] }));
  return file;
}
const GT = (id: string): string => JSON.stringify({ spanproof: 1, questions: [{ id, question: 'mine?', evidence: [{ source: 'a.md', exact: 'These are mine, all of them.' }] }] }, null, 2) + '\n';

for (const c of [
  { name: 'ws/squad -> ../outside (documents)', link: 'squad', to: '../outside', args: [] as string[] },
  { name: 'ws/.spanproof -> ../outside (ground truth, import report)', link: '.spanproof', to: '../outside', args: [] as string[] },
  { name: 'ws/.spanproof/groundtruth.json -> ../../outside/gt.json with --replace', link: '.spanproof/groundtruth.json', to: '../../outside/gt.json', args: ['--replace'] },
]) {
  test(`item 8: import refuses to write through a link out of the workspace — ${c.name}`, async (t) => {
    const root = tempDir('spanproof-import-link-out-', t);
    const ws = path.join(root, 'ws');
    const outside = path.join(root, 'outside');
    mkdirSync(path.dirname(path.join(ws, c.link)), { recursive: true });
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'gt.json'), GT('theirs'));
    symlinkSync(c.to, path.join(ws, c.link));
    const before = filesUnder(outside);
    const r = await runCli(['import', 'squad', squadFile(root), '--workspace', ws, ...c.args]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, new RegExp(`${c.link.replace(/\./g, '\\.')} is a symbolic link to ${c.to.replace(/\./g, '\\.')}, outside the workspace`));
    assert.match(r.stderr, /refusing to write .* through it\. Fix: .*nothing was written/);
    assert.match(r.stderr, /Fix: /);
    assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
    assert.deepEqual(filesUnder(outside), before, 'nothing written outside');
    assert.equal(readFileSync(path.join(outside, 'gt.json'), 'utf8'), GT('theirs'));
    assert.ok(!existsSync(path.join(ws, 'squad', '001-x')) || c.link === 'squad', 'nothing written inside either');
  });
}

test('item 8: links that stay inside the workspace (and a linked workspace) are written through as before', async (t) => {
  const root = tempDir('spanproof-import-link-in-', t);
  const real = path.join(root, 'real');
  mkdirSync(path.join(real, 'qa'), { recursive: true });
  mkdirSync(path.join(real, '.spanproof'));
  writeFileSync(path.join(real, 'qa', 'gt.json'), GT('mine'));
  symlinkSync('../qa/gt.json', path.join(real, '.spanproof', 'groundtruth.json'));
  symlinkSync('real', path.join(root, 'ws'));
  const r = await runCli(['import', 'squad', squadFile(root), '--workspace', path.join(root, 'ws'), '--replace']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(readFileSync(path.join(real, 'qa', 'gt.json'), 'utf8'), /"It uses Pydantic/);
});

/** A workspace whose .vscode/settings.json sets spanproof.groundTruthPath to `setting`. */
function configuredWorkspace(root: string, setting: string): string {
  const ws = path.join(root, 'ws');
  mkdirSync(path.join(ws, '.vscode'), { recursive: true });
  mkdirSync(path.join(ws, 'qa'));
  writeFileSync(path.join(ws, 'a.md'), 'These are mine, all of them.\n');
  writeFileSync(path.join(ws, 'qa', 'gt.json'), GT('mine'));
  writeFileSync(path.join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'spanproof.groundTruthPath': setting }));
  return ws;
}

test('item 10: import guards and writes the configured spanproof.groundTruthPath (qa/gt.json), which validate then reads', async (t) => {
  const root = tempDir('spanproof-import-gtpath-', t);
  const ws = configuredWorkspace(root, 'qa/gt.json');
  const sq = squadFile(root);
  const refused = await runCli(['import', 'squad', sq, '--workspace', ws]);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /qa[/\\]gt\.json: the workspace already has a ground truth with 1 question\(s\)/);
  assert.ok(!existsSync(path.join(ws, '.spanproof', 'groundtruth.json')), 'no second ground truth beside the configured one');
  assert.equal(readFileSync(path.join(ws, 'qa', 'gt.json'), 'utf8'), GT('mine'));

  const merged = await runCli(['import', 'squad', sq, '--workspace', ws, '--merge', '--json']);
  assert.equal(merged.code, 0, merged.stderr);
  const out = JSON.parse(merged.stdout) as { written: { groundTruthFile: string }; acceptance: { total: number } };
  assert.equal(out.written.groundTruthFile, path.join(ws, 'qa', 'gt.json'));
  assert.equal(out.acceptance.total, 2);
  assert.ok(!existsSync(path.join(ws, '.spanproof', 'groundtruth.json')));
  const gt = JSON.parse(readFileSync(path.join(ws, 'qa', 'gt.json'), 'utf8')) as { questions: Array<{ id: string }> };
  assert.deepEqual(gt.questions.map((q) => q.id), ['mine', 'a']);
  assert.ok(existsSync(path.join(ws, '.spanproof', 'import-report.json')), 'the import report stays in .spanproof/');
  const v = await runCli(['validate', '--workspace', ws, '--json']);
  assert.equal(v.code, 0, v.stdout + v.stderr);
  const acceptance = JSON.parse(v.stdout) as { total: number; resolved: number };
  assert.deepEqual([acceptance.total, acceptance.resolved], [2, 2], 'validate reads the merged qa/gt.json');
});

test('item 10: a spanproof.groundTruthPath leaving the workspace is refused by import (exit 2 naming the setting); nothing written', async (t) => {
  const root = tempDir('spanproof-import-gtpath-out-', t);
  const ws = configuredWorkspace(root, '../outside/gt.json');
  mkdirSync(path.join(root, 'outside'));
  const r = await runCli(['import', 'squad', squadFile(root), '--workspace', ws]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /spanproof\.groundTruthPath/);
  assert.match(r.stderr, /Fix: /);
  assert.deepEqual(filesUnder(path.join(root, 'outside')), []);
  assert.ok(!existsSync(path.join(ws, 'squad')));
});
