// Scenario 0: the in-host integration suites (extensionTestsPath route). Every test/integration/suites/*.test.ts
// file is bundled, in file-name order, into one module whose `run()` is test/integration/harness.ts; each
// test is reported on its own line.
import { writeFileSync } from 'node:fs';
import { bundleInHostSuites } from '../../integration/bundle.mjs';
import * as H from '../harness.mjs';
const { existsSync, join, readFileSync, repo } = H;

export default {
  name: 'in-host',
  /** `report` adds one result line per in-host test; the default server sets SPANPROOF_IT_OUT for the host. */
  async run({ page, server, report }) {
    const itDir = H.tempDir('spanproof-it-');
    const itOut = server.env.SPANPROOF_IT_OUT;
    const bundle = join(itDir, 'index.js');
    await bundleInHostSuites(bundle);
    // Opened through a workspace file, so the folder-lifetime suite can add and remove folders without
    // turning a single-folder window into a multi-root one (which VS Code does by reloading the window).
    const ws = H.copyWorkspace('integration');
    const wsFile = join(H.tempDir('spanproof-it-ws-'), 'integration.code-workspace');
    writeFileSync(wsFile, JSON.stringify({ folders: [{ path: ws }], settings: {} }));
    // The host's errors reach only the renderer's console: kept, so a suite that fails to load (its
    // module throws at import, and the test route ends the host without results) is named in the failure.
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(String(e?.stack ?? e)));
    await H.openWorkbench(page, server, wsFile, [
      ['extensionDevelopmentPath', `vscode-remote://remote${repo}`],
      ['extensionTestsPath', `vscode-remote://remote${bundle}`],
    ]);
    try {
      // A bundle that throws at import ends the host at once: no test starts, so give up after 2 min.
      const t0 = Date.now();
      while (!existsSync(itOut)) {
        if (!existsSync(`${itOut}.progress`) && Date.now() - t0 > 120000) throw new Error('no in-host test started within 2 min');
        if (Date.now() - t0 > 900000) throw new Error('timed out after 15 min waiting for the in-host results');
        await H.sleep(500);
      }
    } catch (e) {
      const p = existsSync(`${itOut}.progress`) ? JSON.parse(readFileSync(`${itOut}.progress`, 'utf8')) : undefined;
      for (const t of p?.done ?? []) report({ name: `in-host: ${t.name}`, ok: t.ok, ms: t.ms, error: t.error });
      const where = p ? (p.running ? `still running "${p.running}"` : 'all tests ran, no results file') : 'no test started (a suite failed to load?)';
      throw new Error(`${e.message} (${where}); the renderer's console errors:\n${errors.slice(-20).join('\n') || '(none)'}`, { cause: e });
    }
    for (const t of JSON.parse(readFileSync(itOut, 'utf8'))) report({ name: `in-host: ${t.name}`, ok: t.ok, ms: t.ms, error: t.error });
  },
};
