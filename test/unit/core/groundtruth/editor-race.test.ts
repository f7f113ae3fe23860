/**
 * #16 item 7, an editor beside `validate --fix`: an external editor does not take Spanproof's lock, so
 * the only defence is the check right before the rename (src/core/groundtruth/io.ts). Real processes:
 * one "editor" that reads the file, appends a question and replaces it by temp + rename every ~20 ms
 * (no lock), and two fixer processes that rewrite the file through `writeGroundTruthText` as fast as
 * they can. Before the check moved to just before the rename, the 40–60 ms between the read under the
 * lock and the rename let ≈ 10–25 % of the editor's writes be overwritten (116 of 150 kept). What is
 * left is the window between two system calls (stat, rename) that POSIX cannot close without an
 * exchanging rename Node does not offer (docs/ground-truth.md): ≈ 0.5 expected losses in 120 on an idle
 * machine, more when a busy one preempts a fixer between the two calls (2 of 120 were seen with other
 * test suites running). So the test allows up to 4 of 120 (3 %): far below what the old code lost (≈ 25
 * of 120), and not at the mercy of the machine's load.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../../../helpers/paths';
import { tempDir } from '../../../helpers/tmp';

function child(script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: REPO });
    let out = '';
    let err = '';
    c.stdout.on('data', (d) => (out += d));
    c.stderr.on('data', (d) => (err += d));
    c.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err}`))));
  });
}

test('item 7: an editor writing beside two fixers (no lock on its side) — its writes survive but for the stat→rename window', { timeout: 180000 }, async (t) => {
  const dir = tempDir('spanproof-gt-editor-', t);
  const file = join(dir, 'groundtruth.json');
  const stop = join(dir, 'stop');
  writeFileSync(file, `${JSON.stringify({ spanproof: 1, questions: [{ id: 'q0', question: 'Q', evidence: [{ source: 'a.md', exact: 'a quote long enough' }] }] }, null, 2)}\n`);
  const N = 120;
  const editor = `
    const fs = require('node:fs');
    const f = ${JSON.stringify(file)};
    (async () => {
      for (let i = 0; i < ${N}; i++) {
        const d = JSON.parse(fs.readFileSync(f, 'utf8'));
        d.questions[0].question = 'edited ' + i;
        d.questions.push({ id: 'ed-' + i, question: 'q?', evidence: [{ source: 'a.md', exact: 'another long quote' }] });
        fs.writeFileSync(f + '.edtmp', JSON.stringify(d, null, 2));
        fs.renameSync(f + '.edtmp', f);
        await new Promise((r) => setTimeout(r, 15 + Math.random() * 10));
      }
      fs.writeFileSync(${JSON.stringify(stop)}, '');
    })();
  `;
  const fixer = (w: number) => `
    const fs = require('node:fs');
    const { readGroundTruthWithText, writeGroundTruthText } = require('./src/core/groundtruth');
    (async () => {
      let n = 0;
      while (!fs.existsSync(${JSON.stringify(stop)})) {
        const { text } = await readGroundTruthWithText(${JSON.stringify(file)});
        try {
          await writeGroundTruthText(${JSON.stringify(file)}, (cur) => (cur ?? text).replace(/"question": "[^"]*"/, '"question": "fixed ${w}-' + n++ + '"'), { expectedContent: text });
        } catch (e) {
          if (!/changed on disk/.test(e.message)) throw e;
        }
      }
    })().catch((e) => { process.stderr.write(String(e.stack || e)); process.exit(3); });
  `;
  await Promise.all([child(editor), child(fixer(1)), child(fixer(2))]);
  const ids = new Set((JSON.parse(readFileSync(file, 'utf8')) as { questions: Array<{ id: string }> }).questions.map((q) => q.id));
  const lost = Array.from({ length: N }, (_, i) => `ed-${i}`).filter((id) => !ids.has(id));
  assert.ok(lost.length <= 4, `${lost.length} of ${N} editor writes were overwritten: ${lost.slice(0, 10).join(', ')}`);
});
