/**
 * `spanproof validate` end to end: the real CLI (src/cli/main.ts through tsx) in a child process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../../helpers/tmp';
import { REPO, SHARED_DATA } from '../../helpers/paths';

const CLI = path.join(REPO, 'src', 'cli', 'main.ts');
const FIXTURES = path.join(REPO, 'test', 'fixtures', 'groundtruth');

function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', CLI, 'validate', ...args], { cwd: REPO, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs `body` on a private copy of the fixtures (the `mini` workspace and the bad files), so nothing in the repo can change. */
function inCopy(body: (dir: string) => void): void {
  const dir = tempDir('spanproof-validate-');
  cpSync(FIXTURES, dir, { recursive: true });
  try {
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function fingerprint(file: string): { mtimeMs: number; bytes: string } {
  return { mtimeMs: statSync(file).mtimeMs, bytes: readFileSync(file).toString('base64') };
}

test('validate: every question resolved → exit 0, human summary and §11 JSON', () => {
  inCopy((dir) => {
    const ws = path.join(dir, 'mini');
    const human = cli('--workspace', ws);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /Accepted 2\/2 \(100\.0%\): 0 moved; 0 stale, 0 ambiguous, 0 rejected/);
    const json = cli('--workspace', ws, '--json');
    assert.equal(json.code, 0);
    assert.deepEqual(JSON.parse(json.stdout), { total: 2, resolved: 2, moved: 0, stale: [], ambiguous: [], rejected: [], relocated: [], skipped: [] });
  });
});

for (const [file, field, fix] of [
  ['bad/not-json.json', 'line 3, column 1', 'correct the JSON syntax'],
  ['bad/missing-exact.json', 'questions[0].evidence[0].exact', 'set "exact" to the verbatim quote'],
  ['bad/negative-offset.json', 'questions[0].evidence[0].start', 'offsets are optional'],
] as const) {
  test(`validate: ${file} → exit 2 naming file, JSON path and fix; the file is untouched`, () => {
    inCopy((dir) => {
      const gt = path.join(dir, file);
      const before = fingerprint(gt);
      const r = cli('--workspace', path.join(dir, 'mini'), '--groundtruth', gt, '--json');
      assert.equal(r.code, 2);
      assert.equal(r.stdout, '');
      assert.ok(r.stderr.startsWith(`spanproof: ${gt}: ${field}: `), r.stderr);
      assert.ok(r.stderr.includes(`Fix: ${fix}`), r.stderr);
      assert.deepEqual(fingerprint(gt), before);
    });
  });
}

test('validate: a missing ground-truth file → exit 2, not found', () => {
  inCopy((dir) => {
    const r = cli('--workspace', path.join(dir, 'bad'));
    assert.equal(r.code, 2);
    assert.match(r.stderr, /groundtruth\.json: ground-truth file not found\. Fix: /);
  });
});

test('validate: evidence whose source does not exist → stale "source not found", excluded, exit 1', () => {
  inCopy((dir) => {
    const gt = path.join(dir, 'missing-source.json');
    const before = fingerprint(gt);
    const r = cli('--workspace', path.join(dir, 'mini'), '--groundtruth', gt, '--json');
    assert.equal(r.code, 1);
    const report = JSON.parse(r.stdout);
    assert.equal(report.total, 2);
    assert.equal(report.resolved, 1);
    assert.equal(report.moved, 1); // "install" had no offsets; they are found (13..55) but not written
    assert.deepEqual(report.stale, [{ id: 'deleted', source: 'docs/deleted.md', exact: 'This page was removed from the docs.', reason: 'source not found', evidence: 0 }]);
    assert.deepEqual(report.relocated, [{ id: 'install', source: 'docs/guide.md', evidence: 0, from: {}, to: { start: 13, end: 55, line: 3 } }]);
    const human = cli('--workspace', path.join(dir, 'mini'), '--groundtruth', gt);
    assert.equal(human.code, 1);
    assert.match(human.stdout, /Accepted 1\/2 \(50\.0%\)/);
    assert.match(human.stdout, /STALE {5}deleted docs\/deleted\.md: "This page was removed from the docs\." — source not found/);
    assert.match(human.stdout, /Moved offsets are not written by validate/);
    assert.deepEqual(fingerprint(gt), before, 'validate without --fix never writes');
  });
});

test('validate --fix: moved offsets written atomically with a .bak of the previous version', () => {
  inCopy((dir) => {
    const ws = path.join(dir, 'mini');
    const gt = path.join(ws, '.spanproof', 'groundtruth.json');
    const original = readFileSync(gt, 'utf8');
    // An edit above the quote: "\r\nA new line.\r\n" = 15 units inserted before "Run the installer…".
    const guide = path.join(ws, 'docs', 'guide.md');
    writeFileSync(guide, readFileSync(guide, 'utf8').replace('# Install\r\n', '# Install\r\n\r\nA new line.\r\n'));
    const r = cli('--workspace', ws, '--fix', '--json');
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.moved, 1);
    assert.equal(report.written, true);
    assert.equal(readFileSync(`${gt}.bak`, 'utf8'), original);
    const fixed = JSON.parse(readFileSync(gt, 'utf8'));
    assert.deepEqual([fixed.questions[0].evidence[0].start, fixed.questions[0].evidence[0].end], [13 + 15, 100 + 15]);
    // Only the offsets changed.
    assert.equal(readFileSync(gt, 'utf8'), original.replace('"start": 13', '"start": 28').replace('"end": 100', '"end": 115'));
    const again = cli('--workspace', ws, '--fix', '--json');
    assert.equal(again.code, 0);
    assert.equal(JSON.parse(again.stdout).written, false);
  });
});

test('validate --config: corpus globs and minQuoteLength come from the run settings', () => {
  inCopy((dir) => {
    const ws = path.join(dir, 'mini');
    const config = path.join(dir, 'settings.json');
    writeFileSync(config, JSON.stringify({ include: ['docs/*.md'] }));
    const r = cli('--workspace', ws, '--config', config, '--json');
    assert.equal(r.code, 1, r.stderr);
    const report = JSON.parse(r.stdout);
    // notes.txt is no longer in the corpus.
    assert.deepEqual([report.total, report.resolved], [2, 1]);
    assert.deepEqual(report.stale.map((s: { id: string; reason: string }) => [s.id, s.reason]), [['release', 'source not found']]);
    // The 87-unit CRLF quote of guide.md passes a minimum of 50; the 34-unit quote of notes.txt does not.
    writeFileSync(config, JSON.stringify({ minQuoteLength: 50 }));
    const r2 = cli('--workspace', ws, '--config', config, '--json');
    assert.equal(r2.code, 1);
    assert.equal(JSON.parse(r2.stdout).resolved, 1);
    assert.deepEqual(JSON.parse(r2.stdout).rejected, [{ id: 'release', reason: 'quote is 34 characters long (ignoring surrounding whitespace), shorter than the minimum of 50; quote a longer passage, or lower minQuoteLength', source: 'docs/notes.txt', evidence: 0 }]);
    writeFileSync(config, JSON.stringify({ minQuoteLength: 'twelve' }));
    assert.equal(cli('--workspace', ws, '--config', config).code, 2);
  });
});

const FASTAPI = path.join(SHARED_DATA, 'fastapi-docs');
test('validate on the shipped FastAPI sample: 45/45, exit 0', () => {
  const r = cli('--workspace', FASTAPI, '--groundtruth', `${FASTAPI}.groundtruth.json`, '--json');
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.deepEqual([report.total, report.resolved, report.moved, report.stale.length, report.ambiguous.length, report.rejected.length], [45, 45, 0, 0, 0, 0]);
});

test('#16 item 20: a quote that never had offsets is LOCATED, not MOVED; questions: [] is exit 2 like run', () => {
  const ws = tempDir('spanproof-validate-located-');
  const quote = 'The located quote is long enough to pass the minimum quote length rule.';
  writeFileSync(path.join(ws, 'doc.md'), `# Title\n\n${quote}\n`);
  const gt = path.join(ws, 'gt.json');
  writeFileSync(gt, JSON.stringify({ spanproof: 1, questions: [{ id: 'q1', question: 'Where?', evidence: [{ source: 'doc.md', exact: quote }] }] }));
  const r = cli('--workspace', ws, '--groundtruth', gt);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^ {2}LOCATED {3}q1 doc\.md: offsets 9–80 \(line 3\); the quote had none$/m);
  assert.doesNotMatch(r.stdout, /MOVED/);
  assert.match(r.stdout, /1 moved \(1 evidence item\(s\) located: they had no offsets\)/);
  writeFileSync(gt, JSON.stringify({ spanproof: 1, questions: [] }));
  const empty = cli('--workspace', ws, '--groundtruth', gt);
  assert.equal(empty.code, 2, empty.stdout);
  // one message, the one run gives — no "Accepted 0/0 (100.0%)" report above it
  assert.equal(empty.stdout, '');
  assert.equal(empty.stderr, `spanproof: ${gt}: no question can be scored: the ground truth has no questions. Fix: add questions with evidence to its "questions" array (the format: docs/ground-truth.md).\n`);
  writeFileSync(gt, '');
  const blank = cli('--workspace', ws, '--groundtruth', gt);
  assert.equal(blank.code, 2, blank.stdout);
  assert.match(blank.stderr, /gt\.json: the ground-truth file is empty\. Fix: /);
  rmSync(ws, { recursive: true, force: true });
});
