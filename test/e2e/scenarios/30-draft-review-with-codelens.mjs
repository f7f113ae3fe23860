// Scenario 30 (issue #14): Draft Questions… from the palette against a fake OpenAI-compatible server on
// 127.0.0.1 started by this scenario; the drafted evidence shows its CodeLens, "Accept draft" is clicked
// in the editor, and a run from the palette scores the accepted draft while the others stay out.
import { mkdirSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import * as H from '../harness.mjs';
const { join, gtOf, sleep } = H;

/** The fake server (test/helpers/fakeServer.ts) bundled for this Node process. */
async function fakeServer() {
  const out = join(H.tempDir('spanproof-e2e-fake-'), 'fakeServer.mjs');
  await esbuild.build({ entryPoints: [join(H.repo, 'test', 'helpers', 'fakeServer.ts')], bundle: true, platform: 'node', target: 'node20', format: 'esm', outfile: out, logLevel: 'warning' });
  return import(pathToFileURL(out).href);
}

export default {
  name: 'draft-review-with-codelens',
  async run({ page, server, report }) {
    const { startFakeServer, defaultDraftReply } = await fakeServer();
    const srv = await startFakeServer({ draft: defaultDraftReply });
    try {
      const ws = H.copyWorkspace('draft');
      const hand = gtOf(ws).questions.length;
      mkdirSync(join(ws, '.vscode'), { recursive: true });
      writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({
        'spanproof.judge.endpoint': srv.url, 'spanproof.draft.model': 'drafter',
        'spanproof.chunkers': ['fixed'], 'spanproof.retrievers': ['bm25'], 'spanproof.rerank': [false],
      }));
      await H.openWorkbench(page, server, ws);
      await sleep(1500);
      await H.runCommand(page, 'Spanproof: Draft Questions…');
      const input = await H.inputBox(page, 'Draft Questions');
      await input.fill('Whole workspace');
      await sleep(300);
      await page.keyboard.press('Enter');
      await H.inputBox(page, 'how many questions');
      await input.fill('3');
      await page.keyboard.press('Enter');
      // The endpoint comes from the workspace's settings: Spanproof asks once before sending anything there.
      const asked = await H.answerDialog(page, /^Allow http:\/\/127\.0\.0\.1/);
      if (!asked.includes('spanproof.judge.endpoint')) throw new Error(`the confirmation does not name the setting: ${asked}`);
      await H.waitForNotification(page, /drafted \d+ of 3 question/, 60000);
      const drafts = await H.waitFor(() => { const d = gtOf(ws).questions.filter((q) => q.status === 'draft'); return d.length >= 2 && d; }, 'drafts in the file');
      if (srv.requests.length < 3) throw new Error(`expected ≥ 3 requests to the fake server, saw ${srv.requests.length}`);
      report({ name: `draft: ${drafts.length} drafts from ${srv.requests.length} request(s)`, ok: true, ms: 0 });
      // The CodeLens on the first draft's evidence, clicked in the editor.
      const d = drafts[0];
      const e = d.evidence[0];
      const text = H.readFileSync(join(ws, e.source), 'utf8');
      await H.openFile(page, e.source);
      await H.gotoLine(page, text.slice(0, e.start).split('\n').length);
      const lens = page.locator('.contentWidgets .codelens-decoration a, .codelens-decoration a', { hasText: 'Accept draft' }).first();
      await lens.waitFor({ timeout: 30000 });
      await H.shot(page, '30-draft-codelens');
      await lens.click();
      await H.waitFor(() => gtOf(ws).questions.find((q) => q.id === d.id)?.status === undefined, 'the draft accepted');
      // A run from the palette: the accepted draft is scored, the other drafts are not.
      await H.runCommand(page, 'Spanproof: Run Evaluation');
      const run = await H.waitFor(() => H.runsOf(ws).find((r) => r.run.status === 'succeeded'), 'a succeeded run', 180000);
      const results = JSON.parse(H.readFileSync(join(run.dir, 'results.json'), 'utf8'));
      const left = drafts.length - 1;
      if (results.acceptance.total !== hand + 1 || results.acceptance.draftsExcluded !== left) {
        throw new Error(`acceptance ${JSON.stringify({ total: results.acceptance.total, draftsExcluded: results.acceptance.draftsExcluded })}, expected total ${hand + 1}, draftsExcluded ${left}`);
      }
    } finally {
      await srv.close();
    }
  },
};
