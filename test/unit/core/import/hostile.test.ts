/**
 * Importers and scorers against hostile datasets (#16 items 4, 10, 15): a dataset cell never reaches
 * outside the folder it names (`../`, absolute paths, symbolic links — the corpus loader's rule); a
 * SQuAD answer with empty text and an out-of-range `answer_start` is rejected instead of looping
 * forever; wrong SQuAD types, deep nesting and a symlink loop under `--documents` are bad input
 * (exit 2 naming file/field/fix), never an internal error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { runImport, writeImport } from '../../../../src/core/import';
import { parseJsonLines } from '../../../../src/core/files';
import { readAzureJsonl } from '../../../../src/core/score/answers';
import { readMemoryEval } from '../../../../src/core/score/memory';
import { runBounded } from '../../../helpers/bounded';
import { REPO } from '../../../helpers/paths';
import { tempDir } from '../../../helpers/tmp';

const SECRET = 'BEGIN PRIVATE KEY MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7';
const CLAUSE = 'This Agreement shall be governed by the laws of the State of New York.';

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO, 'src', 'cli', 'main.ts'), ...args], { cwd: REPO, encoding: 'utf8', timeout: 120000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('item 4: pathway-cuad — a file cell of ../../.., an absolute path or a symlink out of --documents is rejected; nothing outside is copied', async (t) => {
  const root = tempDir('spanproof-cuad-hostile-', t);
  const docs = path.join(root, 'contracts');
  mkdirSync(docs);
  writeFileSync(path.join(docs, 'good.txt'), `Preamble. ${CLAUSE} End.`);
  writeFileSync(path.join(root, 'secret.txt'), `${SECRET} ${CLAUSE}`);
  symlinkSync(path.join(root, 'secret.txt'), path.join(docs, 'linked.txt'));
  const tsv = path.join(root, 'labeled.tsv');
  const row = (file: string) => `${file}\t['${CLAUSE}']\t[]`;
  writeFileSync(tsv, ['file\tGoverning Law\tGoverning Law-Answer', row('good.txt'), row('../secret.txt'), row(path.join(root, 'secret.txt')), row('linked.txt')].join('\n') + '\n');
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  const res = await runImport('pathway-cuad', tsv, { workspace: ws, documents: docs });
  assert.equal(res.report.converted, 1, 'only the contract inside --documents');
  const reasons = res.report.rejected.map((r) => r.reason);
  assert.equal(reasons.length, 3);
  for (const r of reasons) assert.match(r, /outside --documents/);
  assert.ok(!JSON.stringify(res.documents).includes('PRIVATE KEY'), 'no file outside --documents was read into the import');
  await writeImport(res, ws);
  const written = spawnSync('grep', ['-rl', 'PRIVATE KEY', ws], { encoding: 'utf8' }).stdout;
  assert.equal(written, '', 'nothing outside --documents was copied into the workspace');
});

test('item 4: ragas --documents — a symbolic link out of the folder is not read; item 15: a symlink loop is no crash', async (t) => {
  const root = tempDir('spanproof-ragas-hostile-', t);
  const docs = path.join(root, 'docs');
  mkdirSync(path.join(docs, 'sub'), { recursive: true });
  writeFileSync(path.join(docs, 'a.md'), `# A\n\n${CLAUSE}\n`);
  writeFileSync(path.join(root, 'secret.md'), `${SECRET}\n`);
  symlinkSync(path.join(root, 'secret.md'), path.join(docs, 'leak.md'));
  symlinkSync('..', path.join(docs, 'sub', 'loop')); // docs/sub/loop -> docs
  const file = path.join(root, 'r.jsonl');
  writeFileSync(file, JSON.stringify({ user_input: 'Which law governs?', reference: 'New York', reference_contexts: [CLAUSE], response: 'NY', retrieved_contexts: [] }) + '\n');
  const res = await runImport('ragas', file, { workspace: path.join(root, 'ws'), documents: docs });
  assert.equal(res.report.converted, 1);
  assert.ok(!JSON.stringify(res).includes('PRIVATE KEY'), 'the linked file outside --documents was not read');
});

test('item 10: a SQuAD answer with "text": "" and an out-of-range answer_start is rejected — the import finishes', () => {
  const dir = tempDir('spanproof-squad-loop-');
  const file = path.join(dir, 'squad.json');
  writeFileSync(file, JSON.stringify({ data: [{ title: 't', paragraphs: [{ context: 'The default port is 8000. It listens on all interfaces.', qas: [
    { id: 'empty', question: 'Port?', answers: [{ text: '', answer_start: 999 }] },
    { id: 'ok', question: 'Which port?', answers: [{ text: '8000', answer_start: 20 }] },
  ] }] }] }));
  const r = runBounded(`
    const { runImport } = require('./src/core/import');
    runImport('squad', ${JSON.stringify(file)}, { workspace: ${JSON.stringify(path.join(dir, 'ws'))} }).then((res) => console.log(JSON.stringify({ converted: res.report.converted, rejected: res.report.rejected })));
  `, 30000);
  assert.equal(r.timedOut, false, 'the import loops forever');
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.converted, 1);
  assert.deepEqual(out.rejected.map((x: { id: string }) => x.id), ['empty']);
  assert.match(out.rejected[0].reason, /empty/);
});

test('item 15: wrong SQuAD types are bad input naming the field (exit 2), never an internal error', (t) => {
  const dir = tempDir('spanproof-squad-types-', t);
  const cases: Array<[unknown, RegExp]> = [
    [{ data: { title: 'not an array' } }, /"data"/],
    [{ data: [{ title: 't', paragraphs: 'text' }] }, /data\[0\]\.paragraphs/],
    [{ data: [{ title: 't', paragraphs: [{ context: 'c', qas: 'x' }] }] }, /data\[0\]\.paragraphs\[0\]\.qas/],
    [{ data: [null] }, /data\[0\]/],
  ];
  cases.forEach(([json, field], i) => {
    const file = path.join(dir, `s${i}.json`);
    writeFileSync(file, JSON.stringify(json));
    const r = cli(['import', 'squad', file, '--workspace', path.join(dir, `ws${i}`)]);
    assert.equal(r.code, 2, `case ${i}: ${r.stderr}`);
    assert.match(r.stderr, field);
    assert.doesNotMatch(r.stderr, /internal error|TypeError| {4}at /);
  });
});

test('item 15: a ground truth nested 100 000 levels deep is bad input naming the file and path (validate and --fix), not "Maximum call stack"', (t) => {
  const ws = tempDir('spanproof-deep-gt-', t);
  mkdirSync(path.join(ws, '.spanproof'));
  writeFileSync(path.join(ws, 'a.md'), 'The default port is 8000. Another sentence here.\n');
  const deep = '['.repeat(100000) + ']'.repeat(100000);
  const gtFile = path.join(ws, '.spanproof', 'groundtruth.json');
  writeFileSync(gtFile, `{"spanproof":1,"questions":[{"id":"q1","question":"Port?","evidence":[{"source":"a.md","exact":"The default port is 8000.","start":5,"end":30}],"x":${deep}}]}`);
  for (const args of [['validate'], ['validate', '--fix']]) {
    const r = cli([...args, '--workspace', ws]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr.slice(0, 300)}`);
    assert.match(r.stderr, /nested more than 100 levels/);
    assert.ok(r.stderr.includes(gtFile) && r.stderr.includes('questions[0].x'), r.stderr.slice(0, 300));
  }
  assert.ok(existsSync(gtFile) && readFileSync(gtFile, 'utf8').length > 200000, 'untouched');
});

test('item 15: deep nesting in SQuAD / JSONL datasets is bad input or a rejected line', (t) => {
  const dir = tempDir('spanproof-deep-data-', t);
  const deep = '['.repeat(50000) + ']'.repeat(50000);
  const squad = path.join(dir, 'squad.json');
  writeFileSync(squad, `{"data":${deep}}`);
  const r = cli(['import', 'squad', squad, '--workspace', path.join(dir, 'ws')]);
  assert.equal(r.code, 2, r.stderr.slice(0, 300));
  assert.match(r.stderr, /nested more than 100 levels/);
  const ragas = path.join(dir, 'r.jsonl');
  writeFileSync(ragas, `${JSON.stringify({ user_input: 'Q?', reference: 'A.', retrieved_contexts: ['A.'], response: 'A.' })}\n{"user_input":"deep","x":${deep}}\n`);
  const s = cli(['score', 'ragas', ragas, '--metrics', 'f1', '--json']);
  assert.equal(s.code, 0, s.stderr.slice(0, 300));
  assert.match(JSON.stringify(JSON.parse(s.stdout)), /nested more than 100 levels/);
});

test('item 15: deep nesting in an answers JSON array, a JSONL line and a memory-eval file is a rejected row or bad input', (t) => {
  const dir = tempDir('spanproof-deep-answers-', t);
  const deep = '['.repeat(20000) + ']'.repeat(20000);
  const arr = path.join(dir, 'answers.json');
  writeFileSync(arr, `[{"query":"Q?","response":"A.","ground_truth":"A."},{"query":"deep","x":${deep}}]`);
  const read = readAzureJsonl(arr);
  assert.deepEqual(read.rejected.map((r) => r.row), [2]);
  assert.match(read.rejected[0].reason, /nested more than 100 levels deep/);
  assert.match(parseJsonLines(`{"a":1}\n${deep}\n`)[1].error ?? '', /nested more than 100 levels deep \(at \[0\]/);
  const mem = path.join(dir, 'memory.json');
  writeFileSync(mem, `[{"query":"q","context":${deep}}]`);
  assert.throws(() => readMemoryEval(mem), (e: Error & { code?: string; field?: string }) => e.code === 'bad-input' && /nested more than 100/.test(e.message) && e.field?.startsWith('[0].context[0]') === true);
});
