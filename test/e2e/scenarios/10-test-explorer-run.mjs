// Scenario 10: the status bar shows the latest run's verdict; Test: Run All Tests from the Test Explorer
// runs every question in the recommended config and each question row shows passed or failed exactly as
// the run's records in that config say (hit at the run's k); Test: Rerun Failed Tests runs only those.
// Needs the run of scenario 2.
import * as H from '../harness.mjs';
const { sleep } = H;

export default {
  name: 'test-explorer-run',
  async run({ page, server }) {
    const ws = H.sharedWorkspace('runs');
    const run = H.latestRun(ws);
    if (!run?.verdict.recommended) throw new Error('needs the run of scenario 2 with a recommended config');
    await H.openWorkbench(page, server, ws);
    await sleep(1500);
    // Status bar: "<recommended config> · <evidence status>", a click opens the results.
    const bar = page.locator('.statusbar-item', { hasText: run.verdict.recommended }).first();
    await bar.waitFor({ timeout: 30000 });
    const barText = (await bar.textContent())?.trim() ?? '';
    if (run.verdict.status && !barText.includes(run.verdict.status)) throw new Error(`status bar "${barText}" lacks the status ${run.verdict.status}`);
    await H.shot(page, '10-status-bar-verdict', { locator: page.locator('.part.statusbar') });

    await H.runCommand(page, 'Testing: Focus on Test Explorer View');
    const rows = page.locator('.test-explorer .monaco-list-row');
    await rows.first().waitFor({ timeout: 30000 });
    await H.runCommand(page, 'Test: Run All Tests');
    // The explorer's result summary ("passed/total") must match the run's records in the recommended
    // config, question by question: the Test Results view lists each question with its state.
    const gt = H.gtOf(ws);
    const text = new Map(gt.questions.map((q) => [q.id, q.question]));
    const wantPassed = run.judged.filter((r) => r.hit).length;
    const want = `${wantPassed}/${run.judged.length}`;
    let last = '';
    await H.waitFor(async () => {
      last = await page.evaluate(() => [...document.querySelectorAll('.part.sidebar *')].find((e) => e.children.length === 0 && /^\d+\/\d+$/.test(e.textContent.trim()))?.textContent.trim() ?? '');
      return last === want;
    }, `the Test Explorer summary ${want}`, 180000).catch((e) => {
      throw new Error(`${e.message} (it shows "${last}")`);
    });
    // Expand the documents that hold a failed question (their twisties: a click on the label would open the document).
    await H.runCommand(page, 'View: Close All Editors');
    for (const row of await rows.filter({ has: page.locator('.codicon-testing-failed-icon') }).all()) {
      if ((await row.getAttribute('aria-expanded')) === 'false') await row.locator('.monaco-tl-twistie').click();
    }
    await sleep(800);
    await H.shot(page, '10-test-explorer');
    // Room for every row of the Test Results tree.
    const tab = page.locator('.part.panel .composite-bar .action-item', { hasText: /test results/i }).first();
    if (await tab.count()) await tab.click();
    else await H.runCommand(page, 'Test: Show Output');
    await H.runCommand(page, 'View: Toggle Maximized Panel');
    await sleep(800);
    const panelRows = page.locator('.part.panel .monaco-list-row');
    for (const r of run.judged) {
      const row = panelRows.filter({ hasText: text.get(r.question).slice(0, 40) }).first();
      await row.waitFor({ timeout: 15000 });
      const icon = r.hit ? '.codicon-testing-passed-icon' : '.codicon-testing-failed-icon';
      if (!(await row.locator(icon).count())) throw new Error(`${r.question} should be ${r.hit ? 'passed' : 'failed'} in the Test Results view`);
    }
    await H.shot(page, '10-test-results');
    await H.runCommand(page, 'View: Toggle Maximized Panel');
    // Rerun Failed Tests: a run of exactly the failed questions (the handler's output says how many).
    const failed = run.judged.length - wantPassed;
    if (failed > 0) {
      await H.runCommand(page, 'Test: Rerun Failed Tests');
      await H.waitFor(async () => (await page.locator('.part.panel .xterm-rows').allTextContents()).join(' ').includes(`Judging ${failed} question(s)`), `a rerun of the ${failed} failed questions`, 120000);
    }
  },
};
