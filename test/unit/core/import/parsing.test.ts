/**
 * Import-boundary primitives: code points → UTF-16, the Python-literal list parser (vs CPython
 * ast.literal_eval), and difflib.SequenceMatcher (vs CPython's ratios).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { codePointToUtf16, parsePythonList, utf16ToCodePoint, readCuadTsv } from '../../../../src/core/import';
import { sequenceMatcherRatio, SequenceMatcher } from '../../../../src/core/align';
import { isSpanproofError } from '../../../../src/core/errors';
import { REPO, SHARED_DATA } from '../../../helpers/paths';

const FIX = path.join(REPO, 'test', 'fixtures', 'interop');
const DATA = SHARED_DATA;

test('codePointToUtf16: identity without astral characters; shifts by one after each emoji', () => {
  const plain = codePointToUtf16('abc');
  assert.equal(plain(0), 0);
  assert.equal(plain(3), 3);
  assert.equal(plain(4), undefined);
  // "a😀b😀c": code points a,😀,b,😀,c → UTF-16 indexes 0,1,3,4,6 (and end 7)
  const text = 'a\u{1F600}b\u{1F600}c';
  const f = codePointToUtf16(text);
  assert.deepEqual([0, 1, 2, 3, 4, 5].map(f), [0, 1, 3, 4, 6, 7]);
  assert.equal(f(6), undefined);
  assert.equal(f(-1), undefined);
  assert.equal(text.slice(f(2)!, f(5)!), 'b\u{1F600}c');
  assert.deepEqual([0, 1, 3, 4, 6, 7].map((u) => utf16ToCodePoint(text, u)), [0, 1, 2, 3, 4, 5]);
});

test('parsePythonList: hand cases (escapes, both quote kinds, raw, triple, concatenation, tuples)', () => {
  assert.deepEqual(parsePythonList('[]'), []);
  assert.deepEqual(parsePythonList(' ( ) '), []);
  assert.deepEqual(parsePythonList(`['8th day of May 2014', 'May 8, 2014']`), ['8th day of May 2014', 'May 8, 2014']);
  assert.deepEqual(parsePythonList(`["Company's", 'it\\'s "quoted"']`), ["Company's", `it's "quoted"`]);
  assert.deepEqual(parsePythonList(`['a\\nb', '\\x41\\u00e9\\101', r'\\d+', 'x' "y", '''t'r"i''',]`), ['a\nb', 'Aé' + 'A', '\\d+', 'xy', `t'r"i`]);
  assert.deepEqual(parsePythonList(`['unknown \\q escape']`), ['unknown \\q escape']);
  for (const bad of [`['unterminated]`, `'no list'`, `['a' 'b' ,, ]`, `['a'] trailing`, `[1, 2]`]) {
    assert.throws(() => parsePythonList(bad, 'labeled.tsv: line 3, column "Parties"'), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && /labeled\.tsv: line 3/.test(e.message) && /Fix:/.test(e.message), bad);
  }
});

test('parsePythonList equals ast.literal_eval on the 40 hardest labeled.tsv cells (P10)', () => {
  const fx = JSON.parse(readFileSync(path.join(FIX, 'python-literal-cases.json'), 'utf8')) as { cases: Array<{ cell: string; expected: string[] }> };
  assert.equal(fx.cases.length, 40);
  for (const c of fx.cases) assert.deepEqual(parsePythonList(c.cell), c.expected);
  // Pathway's regex-based reading truncates cells holding both quote kinds; count how many of these it would get wrong
  const pathwayRegex = (cell: string): string[] => [...cell.matchAll(/'(.*?)'|"(.*?)"/g)].map((m) => (m[1] ?? m[2]).replace(/\\'/g, "'"));
  const wrong = fx.cases.filter((c) => JSON.stringify(pathwayRegex(c.cell)) !== JSON.stringify(c.expected)).length;
  assert.ok(wrong > 0, 'a quote-regex reading gets some of these cells wrong');
  assert.equal(wrong, 10, 'a plain quote regex misreads 10 of these 40 cells');
});

test('parsePythonList on every cell of the shared labeled.tsv: same lists as ast.literal_eval (SHA-256)', () => {
  const tsv = path.join(DATA, 'pathway', 'labeled.tsv');
  const fx = JSON.parse(readFileSync(path.join(FIX, 'python-literal-cases.json'), 'utf8')) as { fullFile: { cells: number; excerpts: number; sha256: string } };
  const table = readCuadTsv(tsv);
  const all: string[][] = [];
  for (const r of table.rows) for (const c of table.categories) if (r.clauses[c].trim() !== '') all.push(parsePythonList(r.clauses[c]));
  assert.equal(all.length, fx.fullFile.cells);
  assert.equal(all.reduce((s, l) => s + l.length, 0), fx.fullFile.excerpts);
  assert.equal(createHash('sha256').update(JSON.stringify(all)).digest('hex'), fx.fullFile.sha256);
});

test('SequenceMatcher.ratio equals CPython difflib on 30 random pairs, autojunk on and off', () => {
  const cases = JSON.parse(readFileSync(path.join(FIX, 'sequence-matcher-cases.json'), 'utf8')) as Array<[string, string, number, number]>;
  let junkDiffers = 0;
  for (const [a, b, withJunk, noJunk] of cases) {
    assert.equal(sequenceMatcherRatio(a, b, true), withJunk);
    assert.equal(sequenceMatcherRatio(a, b, false), noJunk);
    if (withJunk !== noJunk) junkDiffers++;
  }
  assert.ok(junkDiffers > 0, 'some pairs have len(b) ≥ 200 and a popular element');
});

test('SequenceMatcher: difflib doc examples and the P5/P6 cases', () => {
  // difflib docs: SequenceMatcher(None, "abcd", "bcde").ratio() == 0.75; lambda x: x == " " example ratio 0.866
  assert.equal(sequenceMatcherRatio('abcd', 'bcde'), 0.75);
  const sm = new SequenceMatcher(' abcd', 'abcd abcd', { isjunk: (x) => x === ' ' });
  assert.deepEqual(sm.findLongestMatch(0, 5, 0, 9), [1, 0, 4]);
  assert.equal(Math.round(new SequenceMatcher('private Thread currentThread;', 'private volatile Thread currentThread;', { isjunk: (x) => x === ' ' }).ratio() * 1000) / 1000, 0.866);
  // P5: "yesthecontractincludesanauditclause" vs "yes" = 2·3/(35+3)
  assert.equal(sequenceMatcherRatio('yesthecontractincludesanauditclause', 'yes'), 6 / 38);
  assert.equal(sequenceMatcherRatio('', ''), 1);
  // P6 (values from CPython 3.11): a 211-character label as b loses its popular characters with autojunk,
  // so pred-vs-label is 0.0465 but label-vs-pred 0.3411; with autojunk off both are 0.3411
  const label = 'thetermofthisagreementshallbefive5yearsfromtheeffectivedateandshallrenewautomaticallyforsuccessiveone1yearperiodsunlesseitherpartygiveswrittennoticeofnonrenewalatleastninety90daysbeforetheendofthethencurrentterm';
  const pred = 'fiveyearsrenewingautomaticallyforoneyearperiods';
  assert.equal(sequenceMatcherRatio(pred, label, true), 0.046511627906976744);
  assert.equal(sequenceMatcherRatio(label, pred, true), 0.34108527131782945);
  assert.equal(sequenceMatcherRatio(pred, label, false), 0.34108527131782945);
  assert.equal(sequenceMatcherRatio(label, pred, false), 0.34108527131782945);
});
