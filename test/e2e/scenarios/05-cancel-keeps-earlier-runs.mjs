// Scenario 5: Cancelling a run keeps every earlier run byte-identical.
import { cpSync } from 'node:fs';
import * as H from '../harness.mjs';
const { join, readFileSync, runsOf, sha, sleep } = H;

export default {
  name: 'cancel-keeps-earlier-runs',
  async run({ page, server }) {
    // A fresh copy with the earlier runs of scenario 2 but without the index cache, and with 12 more
    // copies of the documents (the ground truth unchanged), so the new run takes long enough to be
    // cancelled mid-way: since the static model stopped loading onnxruntime, a cold run of the
    // fixture alone can end before the palette has opened.
    const ws = H.copyWorkspace('cancel');
    for (let k = 1; k <= 12; k++) cpSync(join(ws, 'tutorial'), join(ws, `bulk-${k}`, 'tutorial'), { recursive: true });
    cpSync(join(H.sharedWorkspace('runs'), '.spanproof', 'runs'), join(ws, '.spanproof', 'runs'), { recursive: true });
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
  },
};
