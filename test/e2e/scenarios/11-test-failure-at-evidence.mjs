// Scenario 11: a question that misses in the recommended config, run with Test: Run Test at Cursor from
// its evidence: the failure message (cause, where the cut fell) opens in the editor at the deciding
// evidence span; the CodeLens above the evidence reads "hit in n/m · recommended: miss (cause)" and
// "Run this question". Needs the run of scenario 2.
import * as H from '../harness.mjs';
const { join, readFileSync, sleep } = H;

/** 1-based line of UTF-16 offset `off` in `text` (\r\n, \r and \n end lines, as in VS Code). */
function lineOf(text, off) {
  return text.slice(0, off).split(/\r\n|\r|\n/).length;
}

export default {
  name: 'test-failure-at-evidence',
  async run({ page, server }) {
    const ws = H.sharedWorkspace('runs');
    const run = H.latestRun(ws);
    const miss = run?.judged.find((r) => !r.hit && r.cause && r.miss);
    if (!miss) throw new Error('needs a miss in the recommended config of scenario 2\'s run');
    const gt = H.gtOf(ws);
    const q = gt.questions.find((x) => x.id === miss.question);
    const first = q.evidence[0];
    const text = readFileSync(join(ws, ...first.source.split('/')), 'utf8');
    const start = text.indexOf(first.exact);
    if (start < 0) throw new Error(`evidence of ${q.id} not found verbatim`);
    await H.openWorkbench(page, server, ws);
    await sleep(1500);
    await H.openFile(page, first.source);
    const line = lineOf(text, start);
    await H.gotoLine(page, line);
    // CodeLens over the evidence.
    const hits = run.records.filter((r) => r.question === q.id && r.status === 'ok' && r[`hit@${run.k}`] === 1).length;
    const scored = run.records.filter((r) => r.question === q.id && r.status === 'ok').length;
    const lens = page.locator('.codelens-decoration', { hasText: `hit in ${hits}/${scored} · recommended: miss (${miss.cause})` }).first();
    await lens.waitFor({ timeout: 30000 });
    if (!(await page.locator('.codelens-decoration', { hasText: 'Run this question' }).count())) throw new Error('no "Run this question" lens');
    await H.shot(page, '11-codelens');
    // Run the test at the cursor, then go to its failure.
    await page.locator('.monaco-editor .view-lines').first().click();
    await H.gotoLine(page, line);
    await H.runCommand(page, 'Test: Run Test at Cursor');
    // The failure shows inline after the evidence; clicking it opens the message in a peek.
    // (VS Code 1.100 draws it as a content widget after the span's last line.)
    const inline = page.locator('.monaco-editor .test-error-content-widget').filter({ hasText: new RegExp(`Miss\\s—\\s${miss.cause}\\sin\\s${run.verdict.recommended.replace(/[/]/g, '\\/')}`) }).first();
    await inline.waitFor({ timeout: 120000 });
    await H.shot(page, '11-test-failure-inline');
    const peek = page.locator('.monaco-editor .peekview-widget');
    let attempt = 0;
    await H.waitFor(async () => {
      if (await peek.count()) return true;
      if (attempt++ % 2 === 0) await inline.click().catch(() => undefined);
      else await H.runCommand(page, 'Test: Go to Next Test Failure').catch(() => undefined);
      await sleep(1500);
      return (await peek.count()) > 0;
    }, 'the failure peek in the editor', 60000);
    const body = (await peek.first().textContent()) ?? '';
    if (!new RegExp(`Miss\\s—\\s${miss.cause}`).test(body) || !body.includes(run.verdict.recommended)) throw new Error(`peek does not explain the miss: ${body.slice(0, 300)}`);
    if (!/Where\sthe\scut\sfell|No\schunk\sof\sthe\sindex\stouches/.test(body)) throw new Error(`peek lacks the cut: ${body.slice(0, 300)}`);
    // At the deciding evidence span: the editor's cursor line is the span's first line.
    const ev = miss.miss.evidence;
    const evText = ev.source === first.source ? text : readFileSync(join(ws, ...ev.source.split('/')), 'utf8');
    const evLine = lineOf(evText, ev.start);
    await H.waitFor(async () => (await page.locator('.statusbar-item', { hasText: new RegExp(`Ln ${evLine}, Col`) }).count()) > 0, `the editor at line ${evLine} of ${ev.source}`);
    await sleep(500);
    await H.shot(page, '11-test-failure-at-evidence');
  },
};
