// Scenario 20: keyboard focus on a ranking row survives a running evaluation. A run is started from the
// palette; while it streams progress a row is focused with the keyboard; on every progress tick and
// after the final result (the panel switches to the new run) `document.activeElement` in the webview
// must be the same <tr> element, for the same config, the page must not have scrolled, and ↓ must still
// move on from that row. Asserted, not screenshotted. (Before the lit rewrite every tick rebuilt the
// page: the focus fell to <body> at the first tick.)
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as H from '../harness.mjs';
const { join, runsOf, sleep } = H;

/** Probe evaluated in the webview frame: is the remembered element still the focused one? */
function probe() {
  const a = document.activeElement;
  const p = document.querySelector('[data-testid=progress]');
  return {
    same: a === window.__spFocused,
    // The ranking chart is updated in place, never re-created, by ticks and by the new run's data.
    sameChart: !!window.__spChart && document.querySelector('sp-chart')?.chart === window.__spChart,
    connected: !!window.__spFocused?.isConnected,
    active: a ? `${a.tagName.toLowerCase()}${a.dataset?.config ? `[data-config=${a.dataset.config}]` : ''}` : 'none',
    config: a?.dataset?.config ?? null,
    progress: p ? p.textContent.trim() : null,
    run: document.querySelector('[data-testid=run-status]')?.dataset.run ?? null,
    scrollY: window.scrollY,
    hasFocus: document.hasFocus(),
    log: window.__spLog,
  };
}

export default {
  name: 'ranking-focus-kept-through-a-run',
  async run({ page, server }) {
    // The runs of scenario 2 without the index cache, so the new run is slow enough to stream many ticks.
    const ws = H.copyWorkspace('focus');
    // A larger candidate pool (50, default 20) makes the reranker stage stream progress for longer.
    mkdirSync(join(ws, '.vscode'), { recursive: true });
    writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'spanproof.poolSize': 50 }));
    const earlier = join(H.sharedWorkspace('runs'), '.spanproof', 'runs');
    if (runsOf(H.sharedWorkspace('runs')).some((r) => r.run.status === 'succeeded')) cpSync(earlier, join(ws, '.spanproof', 'runs'), { recursive: true });
    await H.openWorkbench(page, server, ws);
    await sleep(1500);
    let frame;
    if (!runsOf(ws).some((r) => r.run.status === 'succeeded')) {
      // Run on its own (SPANPROOF_E2E_ONLY=20): make the first run here.
      await H.runCommand(page, 'Spanproof: Run Evaluation');
      frame = await H.webviewFrame(page, 240000);
      await H.waitFor(async () => (await frame.locator('[data-testid=run-status]').textContent())?.trim() === 'succeeded' && !(await frame.locator('[data-testid=progress]').count()), 'the first run', 300000);
      rmSync(join(ws, '.spanproof', 'cache'), { recursive: true, force: true }); // the next run starts cold
    } else {
      await H.runCommand(page, 'Spanproof: Show Results');
      frame = await H.webviewFrame(page);
    }
    await frame.locator('[data-tab="ranking"]').click({ timeout: 30000 }); // the panel may restore another tab
    const rows = frame.locator('[data-testid=ranking-table] tbody tr[data-config]');
    await rows.nth(2).waitFor({ timeout: 30000 });
    const before = await frame.evaluate(probe);

    await H.runCommand(page, 'Spanproof: Run Evaluation');
    await frame.locator('[data-testid=progress]').waitFor({ timeout: 60000 });
    // While it runs, focus a row with the keyboard: click the second row, then ↓ moves the roving focus to the third.
    await rows.nth(1).locator('td').first().click({ timeout: 10000 });
    await page.keyboard.press('ArrowDown');
    const focused = await frame.evaluate(() => {
      window.__spFocused = document.activeElement;
      window.__spChart = document.querySelector('sp-chart')?.chart;
      window.__spLog = [];
      const t0 = performance.now();
      const note = (what) => (e) => window.__spLog.push(`${Math.round(performance.now() - t0)} ${what} ${e.target?.tagName ?? e.target} -> ${e.relatedTarget?.tagName ?? ''} active=${document.activeElement?.tagName}`);
      document.addEventListener('focusout', note('focusout'), true);
      document.addEventListener('focusin', note('focusin'), true);
      window.addEventListener('blur', note('wblur'));
      window.addEventListener('focus', note('wfocus'));
      return document.activeElement?.dataset?.config ?? null;
    });
    const third = await rows.nth(2).getAttribute('data-config');
    if (!focused || focused !== third) throw new Error(`↓ should focus the third row (${third}); focused: ${focused}`);
    const start = await frame.evaluate(probe);
    if (!start.same || !start.sameChart) throw new Error(`focus or chart lost at once: ${JSON.stringify(start)}`);
    if (start.progress === null) throw new Error('the run finished before the row was focused: nothing was tested');

    const ticks = new Set([start.progress]);
    let shot = false;
    let last;
    let polls = 0;
    const t0 = Date.now();
    for (;;) {
      last = await frame.evaluate(probe);
      if (!last.same) throw new Error(`focus lost after ${ticks.size} progress texts: now ${last.active} (was tr[data-config=${focused}]); ${JSON.stringify(last)}`);
      if (!last.sameChart) throw new Error(`the ranking chart was re-created during the run: ${JSON.stringify(last)}`);
      if (last.progress === null) break; // the run finished
      if (last.scrollY !== start.scrollY) throw new Error(`the panel scrolled during the run: ${start.scrollY} → ${last.scrollY}`);
      ticks.add(last.progress);
      polls++;
      if (!shot && ticks.size >= 3) {
        await H.shot(page, '20-focus-during-run');
        shot = true;
      }
      if (Date.now() - t0 > 300000) throw new Error('the run did not finish in 300 s');
      await sleep(150);
    }
    if (ticks.size < 3) throw new Error(`only ${ticks.size} distinct progress texts seen while focused: ${[...ticks].join(' | ')}`);
    // The final result: the panel switches to the new run; the same row element keeps the focus.
    const after = await H.waitFor(async () => {
      const p = await frame.evaluate(probe);
      if (!p.same) throw new Error(`focus lost at the final result: now ${p.active}; ${JSON.stringify(p)}`);
      return p.run && p.run !== before.run ? p : null;
    }, 'the new run in the panel', 60000);
    await sleep(1000); // let any late render land
    const settled = await frame.evaluate(probe);
    if (!settled.same || settled.config !== focused || !settled.connected) throw new Error(`after the final result the focus is on ${settled.active}, expected tr[data-config=${focused}]`);
    if (!settled.sameChart) throw new Error('the ranking chart was re-created for the new run instead of updated');
    // The focus is real: ↓ moves it on from that row.
    await page.keyboard.press('ArrowDown');
    const next = await frame.evaluate(() => document.activeElement?.dataset?.config ?? null);
    const order = await rows.evaluateAll((trs) => trs.map((t) => t.dataset.config));
    if (next !== order[order.indexOf(focused) + 1]) throw new Error(`↓ after the run went to ${next}, expected the row after ${focused}`);
    // A theme change recolours the same chart (colours from --vscode-* variables, read again).
    const colour = () => frame.evaluate(() => document.querySelector('sp-chart')?.chart?.options.scales.y.ticks.color);
    const theme = async (name, bodyClass) => {
      await H.runCommand(page, 'Preferences: Color Theme');
      await page.locator('.quick-input-widget input').fill(name);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
      await sleep(300);
      await page.keyboard.press('Enter');
      await H.waitFor(() => frame.evaluate((c) => document.body.classList.contains(c), bodyClass), `the ${name} theme in the webview`);
    };
    const dark = await colour();
    await page.locator('.part.statusbar').first().click({ position: { x: 5, y: 5 } }); // the palette from the workbench, not from inside the webview
    await theme('Light Modern', 'vscode-light');
    const light = await H.waitFor(async () => ((await colour()) !== dark ? colour() : null), 'chart colours of the light theme');
    if (!(await frame.evaluate(probe)).sameChart) throw new Error('the theme change re-created the ranking chart');
    await theme('Dark Modern', 'vscode-dark'); // the server's theme is shared by the scenarios after this one
    console.log(`  focus kept on tr[data-config=${focused}] for ${((Date.now() - t0) / 1000).toFixed(1)} s of the run (${polls} checks, ${ticks.size} progress texts: ${[...ticks][0]} … ${[...ticks].pop()}) and the switch to run ${after.run}; chart updated in place (tick colour ${dark} → ${light} in the light theme)`);
  },
};
