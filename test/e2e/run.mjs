// `npm run test:e2e`: the scenarios in a real VS Code (code-server 4.100.3 + chromium), one module per
// scenario in test/e2e/scenarios/NN-name.mjs, run in file-name order (NN orders them; scenarios that
// share a workspace through `H.sharedWorkspace` rely on it).
// A scenario module: `export default { name, server?, async run({ page, server, report }) }` — `server`
// (options of `H.startCodeServer`) asks for a server of its own (e.g. Workspace Trust on); `report`
// adds extra result lines (the in-host suites use it). A scenario passes when `run` resolves; a
// screenshot `NN-name-pass.png` / `NN-name-FAIL.png` is taken either way.
// Prints one line per scenario and a final `N passed, N failed` line; exit 1 when any failed or when
// no scenario ran (./outcome.mjs).
// Env: SPANPROOF_E2E_OUT (screenshots), SPANPROOF_E2E_ONLY=0,4,walkthrough (numbers or name parts),
// SPANPROOF_E2E_VSIX (install that VSIX instead of loading the repo unpacked), SPANPROOF_E2E_SKIP_BUILD=1,
// SPANPROOF_E2E_UPDATE_MEDIA=1 (copy the screenshots listed in media.mjs into media/).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as H from './harness.mjs';
import { e2eOutcome } from './outcome.mjs';
import { MEDIA } from './media.mjs';

const { repo, join } = H;

execFileSync(join(repo, 'test', 'e2e', 'install.sh'), { stdio: 'inherit' });
if (!process.env.SPANPROOF_E2E_SKIP_BUILD) execFileSync('node', ['scripts/build.mjs'], { cwd: repo, stdio: 'inherit' });

const dir = join(repo, 'test', 'e2e', 'scenarios');
const only = process.env.SPANPROOF_E2E_ONLY?.split(',').map((s) => s.trim()).filter(Boolean);
const scenarios = [];
for (const file of readdirSync(dir).filter((f) => /^\d+-.*\.mjs$/.test(f)).sort()) {
  const n = Number(file.split('-')[0]);
  const mod = (await import(pathToFileURL(join(dir, file)).href)).default;
  if (!mod?.name || typeof mod.run !== 'function') throw new Error(`${file}: export default { name, run } expected`);
  if (only && !only.some((o) => (/^\d+$/.test(o) ? Number(o) === n : mod.name.includes(o)))) continue;
  scenarios.push({ n, ...mod });
}
if (scenarios.length === 0) {
  console.log(e2eOutcome([]).line);
  process.exit(1);
}

rmSync(H.outDir, { recursive: true, force: true });
const results = [];
const vsix = process.env.SPANPROOF_E2E_VSIX;
const itOut = join(H.tempDir('spanproof-it-'), 'results.json');
const server = await H.startCodeServer({ vsix, env: { SPANPROOF_IT_OUT: itOut } });
const browser = await H.launchBrowser();

function line(r) {
  console.log(`${r.ok ? 'ok' : 'not ok'} ${r.n} - ${r.name} (${(r.ms / 1000).toFixed(1)} s)${r.ok ? '' : `\n  ${String(r.error).split('\n').join('\n  ')}`}`);
}

async function runScenario(s, srv) {
  const page = await browser.newPage();
  const t0 = Date.now();
  const report = (r) => {
    const x = { n: s.n, ...r };
    results.push(x);
    line(x);
  };
  try {
    await s.run({ page, server: srv, report });
    await H.shot(page, `${s.n}-${s.name}-pass`);
    report({ name: s.name, ok: true, ms: Date.now() - t0 });
  } catch (e) {
    await H.shot(page, `${s.n}-${s.name}-FAIL`).catch(() => undefined);
    report({ name: s.name, ok: false, ms: Date.now() - t0, error: e?.stack ?? String(e) });
  } finally {
    // Otherwise the server keeps this page's extension host alive (TESTING.md §2).
    await page.goto('about:blank').catch(() => undefined);
    await page.close().catch(() => undefined);
  }
}

try {
  for (const s of scenarios) {
    if (!s.server) {
      await runScenario(s, server);
      continue;
    }
    const own = await H.startCodeServer({ vsix, ...s.server });
    try {
      await runScenario(s, own);
    } finally {
      await own.stop();
    }
  }
} finally {
  await browser.close().catch(() => undefined);
  await server.stop();
  H.cleanup();
}

if (process.env.SPANPROOF_E2E_UPDATE_MEDIA) {
  for (const [from, to] of MEDIA) {
    const src = join(H.outDir, from);
    if (!existsSync(src)) continue;
    mkdirSync(dirname(join(repo, to)), { recursive: true });
    copyFileSync(src, join(repo, to));
    console.log(`media: ${from} -> ${to}`);
  }
}

mkdirSync(H.outDir, { recursive: true });
writeFileSync(join(H.outDir, 'results.json'), JSON.stringify(results, null, 2));
const outcome = e2eOutcome(results);
console.log(outcome.line);
process.exit(outcome.code);
