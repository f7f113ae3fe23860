/**
 * Files that are not regular files (#16 hardening N1): a named pipe (FIFO) where Spanproof reads a
 * file made the CLI wait forever for a writer, and a symbolic link to /dev/zero made it read until
 * memory ran out. Every reader now goes through src/core/files/read.ts: settings.json, the ground
 * truth, run files, importer inputs and corpus documents are refused (or, for a corpus document,
 * skipped with the reason) at once, naming the file. Each CLI here is killed after 60 s, so a
 * regression fails the test instead of hanging the suite. Also: a run file with a UTF-8 BOM is read
 * (it was "damaged"), and a settings.json that is a symbolic link loop is exit 2 (it was ignored).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, type CliResult } from '../../helpers/cli';
import { writeEmptySucceededRun } from '../../helpers/runDirs';
import { tempDir } from '../../helpers/tmp';

const BOUND_MS = 60_000;
const cli = (args: string[]): Promise<CliResult> => runCli(args, {}, undefined, BOUND_MS);
const FIX = 'Fix: replace it with a regular file (a named pipe, device or socket is never read, also not through a symbolic link).';

/** A workspace of one document and a ground truth of one question about it. */
function workspace(root: string, name: string): string {
  const ws = join(root, name);
  mkdirSync(join(ws, '.spanproof'), { recursive: true });
  mkdirSync(join(ws, '.vscode'));
  writeFileSync(join(ws, 'a.md'), '# A\n\nWidgets are blue and round.\n');
  writeFileSync(join(ws, '.spanproof', 'groundtruth.json'), JSON.stringify({ spanproof: 1, questions: [{ id: 'q1', question: 'What colour are widgets?', evidence: [{ source: 'a.md', exact: 'Widgets are blue' }] }] }));
  return ws;
}

/** Puts a FIFO (`fifo`) or a link to /dev/zero (`zero`) at `file`, replacing what is there. */
function special(file: string, kind: 'fifo' | 'zero'): void {
  rmSync(file, { force: true });
  if (kind === 'fifo') execFileSync('mkfifo', [file]);
  else symlinkSync('/dev/zero', file);
}

/** The refusal the CLI prints for `file` (named as `what`) of `kind`. */
function refusal(file: string, what: string, kind: 'fifo' | 'zero'): string {
  const is = kind === 'fifo' ? 'a named pipe (FIFO), not a regular file' : 'a device, not a regular file (it links to /dev/zero)';
  return `spanproof: ${file}: ${what} is ${is}; it was not read. ${FIX}`;
}

function assertRefused(r: CliResult, expected: string): void {
  assert.notEqual(r.code, null, `killed after ${BOUND_MS} ms: the read hung`);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.trim(), expected);
}

test('settings.json, the ground truth and a --config file that are a FIFO or a link to /dev/zero: exit 2 at once, naming the file', { skip: process.platform === 'win32' }, async (t) => {
  const root = tempDir('spanproof-special-', t);
  const cases: Array<Promise<void>> = [];
  for (const kind of ['fifo', 'zero'] as const) {
    const s = workspace(root, `settings-${kind}`);
    special(join(s, '.vscode', 'settings.json'), kind);
    cases.push(cli(['validate', '--workspace', s]).then((r) => assertRefused(r, refusal(join(s, '.vscode', 'settings.json'), 'the workspace settings file', kind))));
    const g = workspace(root, `gt-${kind}`);
    const gt = join(g, '.spanproof', 'groundtruth.json');
    special(gt, kind);
    // a link out of the workspace at the default path is refused as such; named with --groundtruth it is read
    if (kind === 'fifo') cases.push(cli(['validate', '--workspace', g]).then((r) => assertRefused(r, refusal(gt, 'the ground-truth file', kind))));
    else cases.push(cli(['validate', '--workspace', g, '--groundtruth', gt]).then((r) => assertRefused(r, refusal(gt, 'the ground-truth file', kind))));
    const c = workspace(root, `config-${kind}`);
    const config = join(root, `config-${kind}.json`);
    special(config, kind);
    cases.push(cli(['validate', '--workspace', c, '--config', config]).then((r) => assertRefused(r, refusal(config, 'the config file', kind))));
  }
  await Promise.all(cases);
});

test('a run file (run.json, results.json, evidence.json) that is a FIFO or a link to /dev/zero: report is exit 2 naming it', { skip: process.platform === 'win32' }, async (t) => {
  const root = tempDir('spanproof-special-run-', t);
  const cases: Array<Promise<void>> = [];
  for (const [i, [name, kind]] of ([['run.json', 'fifo'], ['results.json', 'zero'], ['evidence.json', 'fifo']] as const).entries()) {
    const runDir = writeEmptySucceededRun(root, `r${i}`);
    special(join(runDir, name), kind);
    cases.push(cli(['report', runDir]).then((r) => assertRefused(r, refusal(join(runDir, name), 'the file', kind))));
  }
  await Promise.all(cases);
});

test('an importer input or a document it reads that is a FIFO or a link to /dev/zero: import is exit 2 naming it', { skip: process.platform === 'win32' }, async (t) => {
  const root = tempDir('spanproof-special-import-', t);
  const ws = join(root, 'ws');
  mkdirSync(ws);
  const fifo = join(root, 'in.jsonl');
  special(fifo, 'fifo');
  const zero = join(root, 'zero.csv');
  special(zero, 'zero');
  const docs = join(root, 'contracts');
  mkdirSync(docs);
  special(join(docs, 'c1.txt'), 'fifo');
  const squad = join(root, 'squad.json');
  writeFileSync(squad, JSON.stringify({ data: [{ title: 't', paragraphs: [{ context: 'The port is 8000.', qas: [{ id: 'q1', question: 'Which port?', answers: [{ text: '8000', answer_start: 12 }] }] }] }] }));
  const gtWs = join(root, 'gt-ws');
  mkdirSync(join(gtWs, '.spanproof'), { recursive: true });
  special(join(gtWs, '.spanproof', 'groundtruth.json'), 'fifo');
  const tsv = join(root, 'labeled.tsv');
  writeFileSync(tsv, 'file\tParties\tParties-Answer\nc1\t["Acme"]\tAcme\n');
  await Promise.all([
    cli(['import', 'ragas', fifo, '--workspace', ws]).then((r) => assertRefused(r, refusal(fifo, 'the RAGAS JSONL', 'fifo'))),
    cli(['import', 'chroma', zero, '--workspace', ws]).then((r) => assertRefused(r, refusal(zero, 'the Chroma questions CSV', 'zero'))),
    cli(['import', 'pathway-cuad', fifo, '--documents', docs, '--workspace', ws]).then((r) => assertRefused(r, refusal(fifo, 'the CUAD TSV', 'fifo'))),
    cli(['import', 'pathway-cuad', tsv, '--documents', docs, '--workspace', ws]).then((r) => assertRefused(r, refusal(join(docs, 'c1.txt'), 'the contract', 'fifo'))),
    // the ground truth an import replaces (it was read to compare before the write)
    cli(['import', 'squad', squad, '--workspace', gtWs, '--replace']).then((r) => assertRefused(r, refusal(join(gtWs, '.spanproof', 'groundtruth.json'), 'the ground-truth file', 'fifo'))),
  ]);
});

test('a corpus document that links to a FIFO in the workspace is skipped at once with the reason, never read', { skip: process.platform === 'win32' }, async (t) => {
  const root = tempDir('spanproof-special-doc-', t);
  const ws = workspace(root, 'ws');
  rmSync(join(ws, 'a.md'));
  execFileSync('mkfifo', [join(ws, 'pipe')]);
  symlinkSync('pipe', join(ws, 'a.md'));
  const r = await cli(['validate', '--workspace', ws]);
  assert.notEqual(r.code, null, 'killed: the corpus load hung on the FIFO');
  assert.equal(r.code, 1, r.stderr); // its question's evidence is stale: the document was not read
  assert.match(r.stdout, /skipped a\.md: unreadable \(a named pipe \(FIFO\), not a regular file; not read\)/);
  assert.match(r.stdout, /STALE {5}q1 a\.md: "Widgets are blue" — source skipped: unreadable \(a named pipe/);
});

test('a run file that starts with a UTF-8 BOM is read like one without (it was "not valid JSON")', async (t) => {
  const root = tempDir('spanproof-bom-run-', t);
  const runDir = writeEmptySucceededRun(root, 'r1');
  for (const f of ['run.json', 'results.json']) writeFileSync(join(runDir, f), `\uFEFF${readFileSync(join(runDir, f), 'utf8')}`);
  const r = await cli(['report', runDir]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^# Spanproof run r1\n/);
});

test('a .vscode/settings.json that is a symbolic link loop is exit 2 naming it (it was silently ignored)', { skip: process.platform === 'win32' }, async (t) => {
  const root = tempDir('spanproof-eloop-', t);
  const ws = workspace(root, 'ws');
  const file = join(ws, '.vscode', 'settings.json');
  symlinkSync('settings.json', file);
  const r = await cli(['validate', '--workspace', ws]);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.trim(), `spanproof: ${file}: cannot read the workspace settings file: it is a symbolic link that leads back to itself (a link loop, ELOOP). Fix: make .vscode/settings.json a readable JSON file (or remove it: the CLI then uses the defaults, --config and flags).`);
});
