/**
 * Issue #16 item 20: quotes whose only difference from the document is whitespace (a wrapped line, a
 * double space, a no-break space, a tab) are stale; `validate --fix --whitespace` rewrites each to the
 * document's text and shows the change; a quote that also differs otherwise, or occurs twice up to
 * whitespace, is left stale. Without --whitespace, validate says how many could be rewritten.
 * Expected offsets are counted by hand in DOC below.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../../helpers/tmp';
import { runCli } from '../../helpers/cli';

// 0: "Alpha beta gamma\n" (17) → 17: "delta\u00a0epsilon zeta.\n" (20) → 37: "eta\ttheta  iota kappa.\n" (23) → 60: "same words here. same  words here.\n"
const DOC = 'Alpha beta gamma\ndelta\u00a0epsilon zeta.\neta\ttheta  iota kappa.\nsame words here. same  words here.\n';
const q = (id: string, exact: string) => ({ id, question: `${id}?`, evidence: [{ source: 'a.md', exact }] });
const GT = { spanproof: 1, questions: [q('wrap', 'beta gamma delta epsilon'), q('tab', 'eta theta iota kappa.'), q('twice', 'same\twords here.'), q('other', 'beta gamma omega')] };

test('validate --fix --whitespace rewrites whitespace-only stale quotes to the document text, and only those', async (t) => {
  const ws = tempDir('spanproof-ws-');
  t.after(() => rmSync(ws, { recursive: true, force: true }));
  writeFileSync(path.join(ws, 'a.md'), DOC);
  mkdirSync(path.join(ws, '.spanproof'));
  const gt = path.join(ws, '.spanproof', 'groundtruth.json');
  const original = `${JSON.stringify(GT, null, 2)}\n`;
  writeFileSync(gt, original);

  const plain = await runCli(['validate', '--workspace', ws]);
  assert.equal(plain.code, 1);
  assert.match(plain.stdout, /\n2 stale quote\(s\) differ from the document only in whitespace; `spanproof validate --fix --whitespace` rewrites them/);
  const preview = await runCli(['validate', '--workspace', ws, '--whitespace']);
  assert.match(preview.stdout, /WHITESPACE wrap a\.md: line 1: "beta gamma delta epsilon" → "beta gamma⏎delta⍽epsilon" \(not written: add --fix\)/);
  assert.equal(readFileSync(gt, 'utf8'), original, 'a preview writes nothing');

  const r = await runCli(['validate', '--workspace', ws, '--fix', '--whitespace', '--json']);
  assert.equal(r.code, 1, r.stderr); // "twice" (ambiguous up to whitespace) and "other" stay stale
  const out = JSON.parse(r.stdout) as { written: boolean; stale: Array<{ id: string }>; whitespace: Array<{ id: string; to: string; start: number; end: number }> };
  assert.equal(out.written, true);
  assert.deepEqual(out.stale.map((s) => s.id).sort(), ['other', 'twice']);
  assert.deepEqual(out.whitespace.map((f) => [f.id, f.to, f.start, f.end]), [
    ['wrap', 'beta gamma\ndelta\u00a0epsilon', 6, 30],
    ['tab', 'eta\ttheta  iota kappa.', 37, 59],
  ]);
  const file = JSON.parse(readFileSync(gt, 'utf8')) as typeof GT & { questions: Array<{ evidence: Array<{ exact: string; start?: number; end?: number }> }> };
  assert.deepEqual(file.questions[0].evidence[0], { source: 'a.md', exact: 'beta gamma\ndelta\u00a0epsilon', start: 6, end: 30 });
  assert.deepEqual(file.questions[1].evidence[0], { source: 'a.md', exact: 'eta\ttheta  iota kappa.', start: 37, end: 59 });
  assert.deepEqual(file.questions[2].evidence[0], GT.questions[2].evidence[0], 'ambiguous up to whitespace: untouched');
  assert.deepEqual(file.questions[3].evidence[0], GT.questions[3].evidence[0], 'a real difference: untouched');
  assert.equal(DOC.slice(6, 30), 'beta gamma\ndelta\u00a0epsilon');
  assert.equal(DOC.slice(37, 59), 'eta\ttheta  iota kappa.');
});
