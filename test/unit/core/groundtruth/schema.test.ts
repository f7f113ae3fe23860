import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { isSpanproofError, type SpanproofError } from '../../../../src/core/errors';
import {
  parseGroundTruth, readGroundTruth, serializeGroundTruth, writeGroundTruth, type GroundTruthFile,
} from '../../../../src/core/groundtruth';
import { tempDir } from '../../../helpers/tmp';
import { SHARED_DATA } from '../../../helpers/paths';

function badInput(json: string): SpanproofError {
  try {
    parseGroundTruth(json, 'gt.json');
  } catch (e) {
    assert.ok(isSpanproofError(e));
    assert.equal(e.code, 'bad-input');
    assert.equal(e.file, 'gt.json');
    assert.ok(e.fix, 'has a fix');
    return e;
  }
  assert.fail('expected bad-input');
}

const q = (evidence: unknown): string => JSON.stringify({ spanproof: 1, questions: [{ id: 'a', question: 'x', evidence: [{ source: 's.md', exact: 'long enough quote' }] }, { id: 'b', question: 'y', evidence }] });

test('parseGroundTruth names the JSON path and the fix', () => {
  let e = badInput(q([{ source: 's.md', start: 1, end: 2 }]));
  assert.equal(e.field, 'questions[1].evidence[0].exact');
  assert.equal(e.message, 'gt.json: questions[1].evidence[0].exact: missing (expected string). Fix: set "exact" to the verbatim quote from the document (a non-empty string).');
  assert.match(e.message, /Fix: set "exact" to the verbatim quote/);

  e = badInput(q([{ source: 's.md', exact: 'long enough quote', start: -3, end: 5 }]));
  assert.equal(e.field, 'questions[1].evidence[0].start');
  assert.match(e.message, /Fix: offsets are optional/);

  e = badInput(q([{ source: 's.md', exact: 'long enough quote', start: 3 }]));
  assert.equal(e.field, 'questions[1].evidence[0].end');
  e = badInput(q([{ source: 's.md', exact: 'long enough quote', start: 9, end: 9 }]));
  assert.equal(e.field, 'questions[1].evidence[0].end');
  e = badInput(q([{ source: 's.md', exact: 'long enough quote', start: 1.5, end: 9 }]));
  assert.equal(e.field, 'questions[1].evidence[0].start');
  e = badInput(q([]));
  assert.equal(e.field, 'questions[1].evidence');
  e = badInput(JSON.stringify({ spanproof: 0, questions: [] }));
  assert.equal(e.field, 'spanproof');
  assert.match(e.message, /Fix: set "spanproof": 1/);
  // a larger format number is a newer Spanproof's file, not a typo (#16 item 15)
  e = badInput(JSON.stringify({ spanproof: 2, questions: [] }));
  assert.equal(e.field, 'spanproof');
  assert.match(e.message, /written by a newer Spanproof \(format 2\); update Spanproof/);
  // a format number that is not a whole number is damage, not a newer Spanproof (fresh-user item 12)
  for (const v of ['1.5', '2.5', '1e400']) {
    e = badInput(`{"spanproof": ${v}, "questions": []}`);
    assert.equal(e.field, 'spanproof');
    assert.doesNotMatch(e.message, /newer/);
    assert.match(e.message, new RegExp(`spanproof: invalid format version ${v === '1e400' ? 'Infinity' : v.replace('.', '\\.')} \\(a whole number; this version reads 1\\)\\. Fix: set "spanproof": 1`));
  }
  e = badInput(JSON.stringify({ spanproof: 1, questions: [{ id: 'a', question: 'x', evidence: [{ source: 's', exact: 'e' }], match: 'some' }] }));
  assert.equal(e.field, 'questions[0].match');
  e = badInput(JSON.stringify({ spanproof: 1, questions: [{ id: 'a', question: 'x', evidence: [{ source: 's', exact: 'e' }] }, { id: 'a', question: 'y', evidence: [{ source: 's', exact: 'e' }] }] }));
  assert.equal(e.field, 'questions[1].id');
  assert.match(e.message, /duplicate question id "a" \(also questions\[0\]\)/);
  // an empty or blank question text was accepted and scored as a retriever miss (fresh-user #13)
  for (const text of ['', '   ', '\n\t']) {
    e = badInput(JSON.stringify({ spanproof: 1, questions: [{ id: 'a', question: 'x', evidence: [{ source: 's', exact: 'e' }] }, { id: 'b', question: text, evidence: [{ source: 's', exact: 'e' }] }] }));
    assert.equal(e.field, 'questions[1].question', JSON.stringify(text));
    assert.match(e.message, /questions\[1\]\.question: the question text is empty\. Fix: give the question its text as a non-empty string "question"\./);
  }
});

test('parseGroundTruth: syntax errors name line and column', () => {
  let e = badInput('{"spanproof": 1,\n  "questions": [1,2\n');
  assert.equal(e.field, 'line 3, column 1'); // end of input after the second newline
  e = badInput('{"spanproof": 1,\n  "questions": [1 2]}');
  assert.equal(e.field, 'line 2, column 19'); // the "2" (position 35)
  assert.match(e.message, /not valid JSON/);
});

test('parseGroundTruth: an empty file says it is empty (not "a trailing comma?"); a syntax error never echoes the text', () => {
  for (const text of ['', '\n  \n', '\uFEFF']) {
    const e = badInput(text);
    assert.equal(e.message, 'gt.json: the ground-truth file is empty. Fix: write {"spanproof": 1, "questions": [...]} into it (docs/ground-truth.md), or pass the right file with --groundtruth.');
  }
  // a Markdown document (or a secret) given as the ground truth: V8's message quoted its first characters
  const e = badInput('# Secret notes\napi key sk-123\n');
  assert.equal(e.field, 'line 1, column 1');
  assert.match(e.message, /not valid JSON \(an unexpected character; Unexpected token '#'\)\./);
  assert.doesNotMatch(e.message, /Secret|sk-123/);
  assert.doesNotMatch(badInput('{"spanproof": 1} trailing words here').message, /trailing words/);
});

test('parseGroundTruth accepts a leading BOM and keeps unknown fields', () => {
  const gt = parseGroundTruth('\ufeff{"spanproof":1,"x":{"y":1},"questions":[{"id":"a","question":"q","evidence":[{"source":"s","exact":"e","selectorKind":"quote"}],"extra":[1]}]}', 'f');
  assert.deepEqual(gt, { spanproof: 1, x: { y: 1 }, questions: [{ id: 'a', question: 'q', evidence: [{ source: 's', exact: 'e', selectorKind: 'quote' }], extra: [1] }] });
});

test('serializeGroundTruth: known keys in spec order, unknown keys after in original order, trailing newline', () => {
  const gt = {
    questions: [{ zeta: 1, tags: ['t'], evidence: [{ end: 9, extra: true, start: 2, exact: 'quote', source: 's.md' }], id: 'a', question: 'q', alpha: 2 }],
    custom: 'kept', spanproof: 1,
  } as unknown as GroundTruthFile;
  const text = serializeGroundTruth(gt);
  assert.equal(text, `{
  "spanproof": 1,
  "questions": [
    {
      "id": "a",
      "question": "q",
      "evidence": [
        {
          "source": "s.md",
          "exact": "quote",
          "start": 2,
          "end": 9,
          "extra": true
        }
      ],
      "tags": [
        "t"
      ],
      "zeta": 1,
      "alpha": 2
    }
  ],
  "custom": "kept"
}
`);
  assert.deepEqual(parseGroundTruth(text, 'f'), gt);
});

const SHIPPED = path.join(SHARED_DATA, 'prose.groundtruth.json');
test('serializeGroundTruth reproduces the shipped file byte for byte (1-space indent), apart from its missing final newline', async () => {
  const original = readFileSync(SHIPPED, 'utf8');
  assert.equal(serializeGroundTruth(await readGroundTruth(SHIPPED), { indent: 1 }), original.endsWith('\n') ? original : `${original}\n`);
});

test('writeGroundTruth: atomic write, no write when unchanged, keeps indentation, refuses concurrent changes', async () => {
  const dir = tempDir('spanproof-gt-');
  try {
    const file = path.join(dir, '.spanproof', 'groundtruth.json');
    const gt: GroundTruthFile = { spanproof: 1, questions: [{ id: 'a', question: 'q', evidence: [{ source: 's.md', exact: 'quote text here', start: 0, end: 15 }] }] };
    assert.equal(await writeGroundTruth(file, gt), true); // creates the folder
    const first = readFileSync(file, 'utf8');
    assert.equal(first, serializeGroundTruth(gt));
    const mtime = statSync(file).mtimeMs;
    assert.equal(await writeGroundTruth(file, structuredClone(gt)), false);
    assert.equal(statSync(file).mtimeMs, mtime);
    // Existing 1-space indentation is kept.
    writeFileSync(file, serializeGroundTruth(gt, { indent: 1 }));
    const moved = structuredClone(gt);
    moved.questions[0].evidence[0].start = 5;
    moved.questions[0].evidence[0].end = 20;
    assert.equal(await writeGroundTruth(file, moved), true);
    assert.equal(readFileSync(file, 'utf8'), serializeGroundTruth(moved, { indent: 1 }));
    // Refuses to overwrite a file that changed since it was read.
    await assert.rejects(writeGroundTruth(file, gt, { expectedContent: first }), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && /changed on disk/.test(e.message));
    assert.equal(readFileSync(file, 'utf8'), serializeGroundTruth(moved, { indent: 1 }));
    // No temp files left behind.
    assert.deepEqual(readdirSync(path.dirname(file)), ['groundtruth.json']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('readGroundTruth: a missing file is not-found, naming it', async () => {
  const file = path.join(tmpdir(), 'spanproof-missing-gt-91ab.json');
  await assert.rejects(readGroundTruth(file), (e: unknown) => isSpanproofError(e) && e.code === 'not-found' && e.message.startsWith(`${file}: `));
});

test('serializeGroundTruth {like}: takes the indentation of the current file text', () => {
  const gt: GroundTruthFile = { spanproof: 1, questions: [] };
  assert.equal(serializeGroundTruth(gt, { like: '{\n "spanproof": 1\n}' }), '{\n "spanproof": 1,\n "questions": []\n}\n');
  assert.equal(serializeGroundTruth(gt, { like: '{\n\t"spanproof": 1\n}' }), '{\n\t"spanproof": 1,\n\t"questions": []\n}\n');
  assert.equal(serializeGroundTruth(gt, { like: null }), '{\n  "spanproof": 1,\n  "questions": []\n}\n');
});
