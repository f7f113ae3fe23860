// Scenario 0: the in-host integration suites (extensionTestsPath route). Every test/integration/suites/*.test.ts
// file is bundled, in file-name order, into one module whose `run()` is test/integration/harness.ts; each
// test is reported on its own line.
import { readdirSync, writeFileSync } from 'node:fs';
import * as esbuild from 'esbuild';
import * as H from '../harness.mjs';
const { existsSync, join, readFileSync, repo } = H;

export default {
  name: 'in-host',
  /** `report` adds one result line per in-host test; the default server sets SPANPROOF_IT_OUT for the host. */
  async run({ page, server, report }) {
    const itDir = H.tempDir('spanproof-it-');
    const itOut = server.env.SPANPROOF_IT_OUT;
    const suites = join(repo, 'test', 'integration', 'suites');
    const files = readdirSync(suites).filter((f) => f.endsWith('.test.ts')).sort();
    const bundle = join(itDir, 'index.js');
    await esbuild.build({
      stdin: { contents: `${files.map((f) => `import './suites/${f}';`).join('\n')}\nexport { run } from './harness';\n`, resolveDir: join(repo, 'test', 'integration'), loader: 'ts', sourcefile: 'in-host-entry.ts' },
      bundle: true, platform: 'node', target: 'node20', format: 'cjs', external: ['vscode', 'onnxruntime-node'], outfile: bundle, logLevel: 'warning',
    });
    // Opened through a workspace file, so the folder-lifetime suite can add and remove folders without
    // turning a single-folder window into a multi-root one (which VS Code does by reloading the window).
    const ws = H.copyWorkspace('integration');
    const wsFile = join(H.tempDir('spanproof-it-ws-'), 'integration.code-workspace');
    writeFileSync(wsFile, JSON.stringify({ folders: [{ path: ws }], settings: {} }));
    await H.openWorkbench(page, server, wsFile, [
      ['extensionDevelopmentPath', `vscode-remote://remote${repo}`],
      ['extensionTestsPath', `vscode-remote://remote${bundle}`],
    ]);
    await H.waitFor(() => existsSync(itOut), 'in-host results', 600000);
    for (const t of JSON.parse(readFileSync(itOut, 'utf8'))) report({ name: `in-host: ${t.name}`, ok: t.ok, ms: t.ms, error: t.error });
  },
};
