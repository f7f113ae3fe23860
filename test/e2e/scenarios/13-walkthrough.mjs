// Scenario 13: Spanproof: Get Started opens the walkthrough with its six steps, each step's image loads,
// and a step's command link runs its command (Show Results opens the results panel).
import * as H from '../harness.mjs';
const { sleep } = H;

const STEPS = ['Open a folder of documents', 'Highlight the passage that answers a question', 'New Question from Selection', 'Run Evaluation', 'Read the verdict', 'Import a dataset or pick a model'];

export default {
  name: 'walkthrough',
  async run({ page, server }) {
    const ws = H.copyWorkspace('walkthrough');
    await H.openWorkbench(page, server, ws);
    await sleep(1500);
    await H.runCommand(page, 'Spanproof: Get Started');
    const root = page.locator('.gettingStartedContainer');
    await root.locator('text=Get started with Spanproof').first().waitFor({ timeout: 30000 });
    for (const t of STEPS) await root.locator('.getting-started-step', { hasText: t }).first().waitFor({ timeout: 10000 });
    // Every step's image loads (the media of the expanded step is shown; expand each in turn).
    for (const t of STEPS) {
      await root.locator('.getting-started-step', { hasText: t }).first().click();
      await H.waitFor(async () => {
        for (const f of page.frames()) {
          const ok = await f.evaluate(() => [...document.querySelectorAll('img')].some((i) => i.complete && i.naturalWidth > 0 && /walkthrough/.test(i.src))).catch(() => false);
          if (ok) return true;
        }
        const img = root.locator('.getting-started-media img').first();
        return (await img.count()) > 0 && (await img.evaluate((i) => i.complete && i.naturalWidth > 0));
      }, `the image of step "${t}"`, 15000);
    }
    await root.locator('.getting-started-step', { hasText: 'Read the verdict' }).first().click();
    await sleep(800);
    await H.shot(page, '13-walkthrough');
    // The step's command link runs the command: the results panel opens.
    await root.locator('.getting-started-step', { hasText: 'Read the verdict' }).locator('a, .monaco-button', { hasText: 'Show Results' }).first().click();
    await H.webviewFrame(page, 30000);
  },
};
