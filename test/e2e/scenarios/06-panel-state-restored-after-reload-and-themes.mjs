// Scenario 6: The panel restores its tab after a window reload and follows light / high-contrast / dark themes.
import * as H from '../harness.mjs';
const { runsOf, sleep } = H;

export default {
  name: 'panel-state-restored-after-reload-and-themes',
  async run({ page, server }) {
    if (!runsOf(H.sharedWorkspace('runs')).some((r) => r.run.status === 'succeeded')) throw new Error('needs the run of scenario 2');
    await H.openWorkbench(page, server, H.sharedWorkspace('runs'));
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
  },
};
