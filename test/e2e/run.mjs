/* global getComputedStyle */
// `npm run test:e2e`: the scenarios of issue 5 in a real VS Code (code-server 4.100.3 + chromium).
// Prints one line per scenario and a final `N passed, N failed` line; exit 1 when any failed.
// Env: SPANPROOF_E2E_OUT (screenshots), SPANPROOF_E2E_ONLY=1,4 (subset), SPANPROOF_E2E_VSIX (install that VSIX
// instead of loading the repo unpacked), SPANPROOF_E2E_SKIP_BUILD=1.
import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync, rmSync, mkdirSync, cpSync } from 'node:fs';
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import * as H from './harness.mjs';

const { repo, sleep, join, existsSync, readFileSync } = H;

execFileSync(join(repo, 'test', 'e2e', 'install.sh'), { stdio: 'inherit' });
if (!process.env.SPANPROOF_E2E_SKIP_BUILD) execFileSync('node', ['scripts/build.mjs'], { cwd: repo, stdio: 'inherit' });

rmSync(H.outDir, { recursive: true, force: true });
const only = process.env.SPANPROOF_E2E_ONLY?.split(',').map(Number);
const results = [];
const itDir = H.tempDir('spanproof-it-');
const itOut = join(itDir, 'results.json');
const server = await H.startCodeServer({ vsix: process.env.SPANPROOF_E2E_VSIX, env: { SPANPROOF_IT_OUT: itOut } });
const browser = await H.launchBrowser();
const gtOf = (ws) => JSON.parse(readFileSync(join(ws, '.spanproof', 'groundtruth.json'), 'utf8'));
const runsOf = (ws) => {
  const root = join(ws, '.spanproof', 'runs');
  return existsSync(root) ? readdirSync(root).sort().map((id) => ({ id, dir: join(root, id), run: JSON.parse(readFileSync(join(root, id, 'run.json'), 'utf8')) })) : [];
};
const sha = (f) => createHash('sha256').update(readFileSync(f)).digest('hex');

async function scenario(n, name, fn) {
  if (only && !only.includes(n)) return;
  const page = await browser.newPage();
  const t0 = Date.now();
  try {
    await fn(page);
    await H.shot(page, `${n}-${name}-pass`);
    results.push({ n, name, ok: true, ms: Date.now() - t0 });
    console.log(`ok ${n} - ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (e) {
    await H.shot(page, `${n}-${name}-FAIL`).catch(() => undefined);
    results.push({ n, name, ok: false, ms: Date.now() - t0, error: String(e?.stack ?? e) });
    console.log(`not ok ${n} - ${name}\n  ${String(e?.message ?? e).split('\n').join('\n  ')}`);
  } finally {
    await page.goto('about:blank').catch(() => undefined);
    await page.close().catch(() => undefined);
  }
}

// Shared by 2, 3 and 5: one workspace in which runs accumulate.
const runWs = H.copyWorkspace('runs');

try {
  // 0: in-host integration suites (extensionTestsPath route), each test reported on its own line.
  if (!only || only.includes(0)) {
    const bundle = join(itDir, 'index.js');
    await esbuild.build({ entryPoints: [join(repo, 'test', 'integration', 'index.ts')], bundle: true, platform: 'node', target: 'node20', format: 'cjs', external: ['vscode', 'onnxruntime-node'], outfile: bundle, logLevel: 'warning' });
    const page = await browser.newPage();
    const t0 = Date.now();
    try {
      const ws = H.copyWorkspace('integration');
      await H.openWorkbench(page, server, ws, [
        ['extensionDevelopmentPath', `vscode-remote://remote${repo}`],
        ['extensionTestsPath', `vscode-remote://remote${bundle}`],
      ]);
      await H.waitFor(() => existsSync(itOut), 'in-host results', 300000);
      for (const t of JSON.parse(readFileSync(itOut, 'utf8'))) {
        results.push({ n: 0, name: `in-host: ${t.name}`, ok: t.ok, ms: t.ms, error: t.error });
        console.log(`${t.ok ? 'ok' : 'not ok'} 0 - in-host: ${t.name} (${(t.ms / 1000).toFixed(1)} s)${t.ok ? '' : `\n  ${t.error.split('\n').join('\n  ')}`}`);
      }
    } catch (e) {
      await H.shot(page, '0-integration-FAIL').catch(() => undefined);
      results.push({ n: 0, name: 'in-host integration', ok: false, ms: Date.now() - t0, error: String(e?.stack ?? e) });
      console.log(`not ok 0 - in-host integration\n  ${String(e?.message ?? e)}`);
    } finally {
      await page.goto('about:blank').catch(() => undefined);
      await page.close().catch(() => undefined);
    }
  }

  await scenario(1, 'new-question-from-selection', async (page) => {
    const ws = H.copyWorkspace('author');
    rmSync(join(ws, '.spanproof'), { recursive: true, force: true }); // the command must create the file
    await H.openWorkbench(page, server, ws);
    await H.openFile(page, 'tutorial/cors.md');
    await H.gotoLine(page, 15);
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await H.runCommand(page, 'Spanproof: New Question from Selection');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill('Are http://localhost and http://localhost:8080 the same origin?');
    await page.keyboard.press('Enter');
    await sleep(500);
    await input.fill('No: different ports make different origins.');
    await page.keyboard.press('Enter');
    await H.waitForNotification(page, /added question q-[0-9a-f]{4}/);
    // Ground-truth file written, with the selection as a selector.
    const gt = await H.waitFor(() => existsSync(join(ws, '.spanproof', 'groundtruth.json')) && gtOf(ws), 'groundtruth.json');
    const q = gt.questions[0];
    const text = readFileSync(join(ws, 'tutorial', 'cors.md'), 'utf8');
    const line = text.split('\n')[14];
    if (gt.questions.length !== 1 || q.evidence[0].exact !== line || text.slice(q.evidence[0].start, q.evidence[0].end) !== line) {
      throw new Error(`unexpected ground truth: ${JSON.stringify(gt).slice(0, 400)}`);
    }
    if (q.answer !== 'No: different ports make different origins.') throw new Error(`answer not saved: ${q.answer}`);
    // Decoration: a dashed-border overlay in the editor.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Home');
    await H.waitFor(
      () => page.evaluate(() => [...document.querySelectorAll('.view-overlays .cdr, .view-overlays div')].some((e) => getComputedStyle(e).borderStyle.includes('dashed'))),
      'evidence decoration',
    );
    // Tree entry in the Questions view.
    await page.locator('.activitybar .action-item a[aria-label^="Spanproof"]').first().click();
    const qrow = page.locator('.pane-body .monaco-list-row', { hasText: 'Are http://localhost' }).first();
    await qrow.waitFor({ timeout: 15000 });
    // Expand the question and click its evidence: the editor selects the span.
    await page.locator('.monaco-editor .view-lines').first().click(); // move the editor cursor away from the span first
    await page.keyboard.press('Control+Home');
    await H.waitFor(async () => (await page.locator('.statusbar-item', { hasText: /Ln 1, Col 1$/ }).count()) > 0, 'cursor at 1:1');
    await qrow.click();
    const erow = page.locator('.pane-body .monaco-list-row', { hasText: 'Even if they are all in' }).first();
    await erow.waitFor({ timeout: 10000 });
    await erow.click();
    await H.waitFor(async () => /Ln 15, Col 110 \(109 selected\)/.test((await page.locator('.statusbar-item', { hasText: 'selected' }).allTextContents()).join(' ')), 'span selected from the tree');
  });

  await scenario(2, 'run-evaluation-30-configs', async (page) => {
    await H.openWorkbench(page, server, runWs);
    await sleep(1500);
    await H.runCommand(page, 'Spanproof: Run Evaluation');
    await H.waitFor(async () => /Spanproof/.test(await H.notificationText(page)) || (await page.locator('.statusbar-item', { hasText: 'Spanproof' }).filter({ hasText: '%' }).count()) > 0, 'progress');
    await H.shot(page, '2-progress');
    const frame = await H.webviewFrame(page, 180000);
    await frame.locator('[data-testid=ranking-table] tbody tr[data-config]').first().waitFor({ timeout: 180000 });
    const n = await frame.locator('[data-testid=ranking-table] tbody tr[data-config]').count();
    if (n !== 30) throw new Error(`expected 30 ranked configs, saw ${n}`);
    const status = await frame.locator('[data-testid=run-status]').textContent();
    if (status?.trim() !== 'succeeded') throw new Error(`run status ${status}`);
    // Sorting by a column sets aria-sort.
    await frame.locator('button[data-sort="latency"]').click();
    await H.waitFor(async () => (await frame.locator('th[aria-sort="ascending"] button[data-sort="latency"]').count()) === 1, 'aria-sort');
    await frame.locator('button[data-sort="rank"]').click();
    await sleep(300);
    await H.shot(page, '2-results-panel');
    // Bias study of the run (chunks kept by the extension's runs).
    await frame.locator('[data-tab="bias"]').click();
    await frame.locator('[data-testid=bias] table').first().waitFor({ timeout: 60000 });
    const authors = await frame.locator('[data-testid=bias] table').first().locator('tbody tr').count();
    if (authors !== 5) throw new Error(`bias study shows ${authors} author chunkers, expected 5`);
    await sleep(500);
    await H.shot(page, '2-bias-study');
    // Answers tab (SPEC §14): this run generated no answers, and the tab says so.
    await frame.locator('[data-tab="answers"]').click();
    await H.waitFor(async () => {
      const t = (await frame.locator('[data-testid=answers]').textContent()) ?? '';
      return t.length > 0 && !t.includes('Loading answers');
    }, 'answers tab rendered');
    await frame.locator('[data-tab="ranking"]').click();
    await sleep(500);
  });

  await scenario(3, 'matrix-miss-to-detail-to-editor', async (page) => {
    const run = runsOf(runWs).filter((r) => r.run.status === 'succeeded').pop();
    if (!run) throw new Error('needs the run of scenario 2');
    const miss = readFileSync(join(run.dir, 'questions.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((r) => r['hit@5'] === 0 && r.cause);
    if (!miss) throw new Error('the run has no miss');
    await H.openWorkbench(page, server, runWs);
    await sleep(1500);
    await H.runCommand(page, 'Spanproof: Show Results');
    const frame = await H.webviewFrame(page);
    await frame.locator('[data-tab="ranking"]').click({ timeout: 30000 }); // the panel may restore another tab
    await frame.locator('[data-testid=ranking-table]').waitFor({ timeout: 30000 });
    await frame.locator('[data-tab="matrix"]').click();
    const canvas = frame.locator('[data-testid=matrix]');
    await canvas.waitFor();
    await sleep(500);
    const pt = await frame.evaluate(([q, c]) => window.spanproofMatrixCell(q, c), [miss.question, miss.config]);
    if (!pt) throw new Error('matrix cell not found');
    await H.shot(page, '3-matrix');
    await canvas.click({ position: { x: pt.x, y: pt.y } });
    const detail = frame.locator(`[data-testid=question-detail][data-question="${miss.question}"][data-config="${miss.config}"]`);
    await detail.waitFor({ timeout: 10000 });
    const cause = (await frame.locator('[data-testid=cause]').textContent())?.trim();
    if (!cause?.includes(miss.cause)) throw new Error(`detail shows cause ${cause}, expected ${miss.cause}`);
    await sleep(800);
    await H.shot(page, '3-question-detail');
    const chunk = frame.locator('[data-testid=result-list] button.chunk').first();
    const source = await chunk.getAttribute('data-source');
    await chunk.click();
    await page.locator('.tabs-container .tab.active', { hasText: basename(source) }).first().waitFor({ timeout: 15000 });
    await H.shot(page, '3-editor-revealed');
  });

  await scenario(4, 'stale-quote-problem-and-quick-fix', async (page) => {
    const ws = H.copyWorkspace('stale');
    await H.openWorkbench(page, server, ws);
    await H.openFile(page, 'tutorial/body.md');
    await H.gotoLine(page, '15:44');
    await page.keyboard.press('Control+Shift+ArrowRight');
    await page.keyboard.type('unspecified');
    // Problems entry.
    await H.runCommand(page, 'View: Focus Problems');
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'Stale evidence' }).first();
    await row.waitFor({ timeout: 20000 });
    await H.shot(page, '4-problem');
    // Quick fix from the editor: cursor inside the diagnostic, Ctrl+.
    await page.locator('.monaco-editor .view-lines').first().click();
    await H.gotoLine(page, '15:50');
    await page.keyboard.press('Control+.');
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'Re-anchor evidence to the nearest match' }).first();
    await fix.waitFor({ timeout: 10000 });
    // The preferred fix is the focused first row (a pointer block covers the widget for clicks).
    const focused = await page.locator('.action-widget .monaco-list-row.focused').first().textContent();
    if (!focused?.includes('Re-anchor evidence to the nearest match')) throw new Error(`focused quick fix: ${focused}`);
    await page.keyboard.press('Enter');
    const gt = await H.waitFor(() => {
      const g = gtOf(ws);
      return g.questions.find((q) => q.id === 'fa-d-008')?.evidence[0].exact.includes('unspecified behavior') && g;
    }, 'ground truth re-anchored', 20000);
    const e = gt.questions.find((q) => q.id === 'fa-d-008').evidence[0];
    if (!e.exact.startsWith('Sending a body with a `GET` request has an unspecified behavior')) throw new Error(`re-anchored to ${e.exact}`);
    await H.waitFor(async () => (await page.locator('.markers-panel .monaco-list-row', { hasText: 'Stale evidence' }).count()) === 0, 'problem cleared');
    await H.shot(page, '4-fixed');
  });

  await scenario(5, 'cancel-keeps-earlier-runs', async (page) => {
    // A fresh copy with the earlier runs of scenario 2 but without the index cache, so the new run
    // takes long enough to be cancelled mid-way.
    const ws = H.copyWorkspace('cancel');
    cpSync(join(runWs, '.spanproof', 'runs'), join(ws, '.spanproof', 'runs'), { recursive: true });
    const before = runsOf(ws).filter((r) => r.run.status === 'succeeded');
    if (!before.length) throw new Error('needs the run of scenario 2');
    const hashes = before.map((r) => sha(join(r.dir, 'results.json')));
    await H.openWorkbench(page, server, ws);
    await sleep(1500);
    await H.runCommand(page, 'Spanproof: Run Evaluation');
    await H.waitFor(async () => (await page.locator('.statusbar-item', { hasText: /Spanproof (\d+%|: starting)/ }).count()) > 0, 'run started');
    await sleep(1000);
    await H.runCommand(page, 'Spanproof: Cancel Evaluation');
    await H.waitForNotification(page, /evaluation cancelled/, 30000);
    const after = runsOf(ws);
    const cancelled = after.filter((r) => r.run.status === 'cancelled');
    if (!cancelled.length) throw new Error(`no cancelled run on disk: ${after.map((r) => `${r.id}:${r.run.status}`).join(', ')}`);
    before.forEach((r, i) => {
      if (sha(join(r.dir, 'results.json')) !== hashes[i]) throw new Error(`earlier run ${r.id} changed`);
      if (JSON.parse(readFileSync(join(r.dir, 'run.json'), 'utf8')).status !== 'succeeded') throw new Error(`earlier run ${r.id} status changed`);
    });
    await H.shot(page, '5-cancelled');
  });
  await scenario(6, 'panel-state-restored-after-reload-and-themes', async (page) => {
    if (!runsOf(runWs).some((r) => r.run.status === 'succeeded')) throw new Error('needs the run of scenario 2');
    await H.openWorkbench(page, server, runWs);
    await sleep(1500);
    await H.runCommand(page, 'Spanproof: Show Results');
    let frame = await H.webviewFrame(page);
    await frame.locator('[data-tab="causes"]').click();
    await frame.locator('[data-tab="causes"][aria-selected="true"]').waitFor();
    await sleep(500); // setState is sent to the host asynchronously
    await H.runCommand(page, 'Developer: Reload Window');
    await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
    await sleep(2000);
    frame = await H.webviewFrame(page, 60000);
    await frame.locator('[data-tab="causes"][aria-selected="true"]').waitFor({ timeout: 30000 });
    // Theme-aware: the panel follows light and high-contrast themes (screenshots for review).
    for (const [theme, name] of [['Light Modern', 'light'], ['High Contrast', 'high-contrast'], ['Dark Modern', 'dark']]) {
      await H.runCommand(page, 'Preferences: Color Theme');
      const input = page.locator('.quick-input-widget input');
      await input.fill(theme);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: theme }).first().waitFor();
      await sleep(300);
      await page.keyboard.press('Enter');
      await H.waitFor(() => frame.evaluate((n) => document.body.classList.contains(n === 'light' ? 'vscode-light' : n === 'dark' ? 'vscode-dark' : 'vscode-high-contrast'), name), `${name} theme in the webview`);
      await sleep(800);
      await H.shot(page, `6-theme-${name}`);
    }
  });
  await scenario(7, 'import-squad-dataset', async (page) => {
    const ws = H.tempDir('spanproof-e2e-import-');
    writeFileSync(join(ws, 'README.md'), '# empty corpus\n');
    const input = join(H.tempDir('spanproof-e2e-squad-'), 'squad2_tiny.json');
    writeFileSync(input, readFileSync(join(repo, 'test', 'fixtures', 'e2e', 'squad2_tiny.json')));
    await H.openWorkbench(page, server, ws);
    await H.runCommand(page, 'Spanproof: Import Dataset…');
    const qi = page.locator('.quick-input-widget input');
    await qi.fill('squad');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'squad' }).first().waitFor();
    await page.keyboard.press('Enter');
    // code-server's simple open dialog: type the path.
    await sleep(800);
    await qi.fill(input);
    await sleep(800);
    await page.keyboard.press('Enter');
    const button = page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Import' }).first();
    await button.waitFor({ timeout: 30000 });
    await H.shot(page, '7-import-confirm');
    await button.click();
    const note = await H.waitForNotification(page, /imported \d+ questions/, 30000);
    const gt = gtOf(ws);
    const n = Number(/imported (\d+) questions/.exec(note)[1]);
    if (gt.questions.length !== n || n < 1) throw new Error(`ground truth has ${gt.questions.length} questions, notification said ${n}`);
  });
  // 8: Workspace Trust — a second server with trust enabled; the folder is opened in Restricted Mode.
  if (!only || only.includes(8)) {
    const restricted = await H.startCodeServer({ vsix: process.env.SPANPROOF_E2E_VSIX, workspaceTrust: true });
    try {
      await scenario(8, 'untrusted-workspace-authoring-only', async (page) => {
        const ws = H.copyWorkspace('untrusted');
        await page.goto(`${restricted.url}/?folder=${encodeURIComponent(ws)}`);
        await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
        const no = page.locator('.monaco-dialog-box .monaco-button', { hasText: /No, I don.t trust/ }).first();
        await no.waitFor({ timeout: 30000 });
        await no.click();
        await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60000 });
        await sleep(2000);
        // Running is disabled: the palette does not offer Run Evaluation.
        await H.runCommand(page, 'Spanproof: Show Results'); // available: viewing results is allowed
        const rframe = await H.webviewFrame(page, 30000);
        // The panel's Run Evaluation button is disabled, and its tooltip says why.
        await rframe.locator('[data-testid=run-button][disabled]').waitFor({ timeout: 15000 });
        const tip = await rframe.locator('[data-testid=run-button-wrap]').getAttribute('title');
        if (!/trusted workspace/.test(tip ?? '')) throw new Error(`disabled Run Evaluation has no trust tooltip: ${tip}`);
        await page.keyboard.press('F1');
        const input = page.locator('.quick-input-widget input');
        await input.waitFor({ state: 'visible' });
        await input.fill('>Spanproof: ');
        await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Spanproof: Validate Ground Truth' }).first().waitFor();
        await sleep(1000);
        const labels = (await page.locator('.quick-input-list .monaco-list-row').allTextContents()).map((t) => t.trim());
        if (!labels.some((l) => l.includes('Spanproof: Open Ground Truth File'))) throw new Error(`palette rows not read: ${labels.join(' | ')}`);
        if (labels.some((l) => /Spanproof: Run Evaluation(?! for)/.test(l))) throw new Error(`Run Evaluation offered in Restricted Mode: ${labels.join(' | ')}`);
        await page.keyboard.press('Escape');
        // Authoring ground truth works.
        await H.openFile(page, 'tutorial/cors.md');
        await H.gotoLine(page, 15);
        await page.keyboard.press('Home');
        await page.keyboard.press('Shift+End');
        await H.runCommand(page, 'Spanproof: New Question from Selection');
        await input.waitFor({ state: 'visible' });
        await input.fill('Do different ports make different origins?');
        await page.keyboard.press('Enter');
        await sleep(500);
        await page.keyboard.press('Enter');
        await H.waitForNotification(page, /added question q-[0-9a-f]{4}/);
        if (gtOf(ws).questions.length !== 21) throw new Error('question not written in Restricted Mode');
      });
    } finally {
      await restricted.stop();
    }
  }
} finally {
  await browser.close().catch(() => undefined);
  await server.stop();
  H.cleanup();
}

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
mkdirSync(H.outDir, { recursive: true });
writeFileSync(join(H.outDir, 'results.json'), JSON.stringify(results, null, 2));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
