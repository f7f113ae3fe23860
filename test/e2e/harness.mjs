// Real-VS-Code e2e harness (TESTING.md §2): code-server 4.100.3 on 127.0.0.1 with the extension loaded
// unpacked (symlinked into the extensions dir) or from a VSIX, driven by playwright-core + Debian chromium.
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, cpSync, existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';

export const repo = resolve(import.meta.dirname, '..', '..');
export const cacheDir = process.env.SPANPROOF_E2E_CACHE ?? join(repo, 'test', 'e2e', '.cache');
export const codeServerBin = join(cacheDir, 'code-server-4.100.3', 'node_modules', '.bin', 'code-server');
export const outDir = process.env.SPANPROOF_E2E_OUT ?? join(repo, 'test', 'e2e', 'out');

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Temporary folders made by this run (removed by `cleanup()` unless SPANPROOF_E2E_KEEP is set). */
const temps = [];
export function tempDir(prefix) {
  const d = mkdtempSync(join(tmpdir(), prefix));
  temps.push(d);
  return d;
}
export function cleanup() {
  shared.clear();
  if (process.env.SPANPROOF_E2E_KEEP) return;
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
}

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
    s.on('error', rej);
  });
}

/** Fresh copy of the sample workspace (never modify the fixture). */
export function copyWorkspace(name) {
  const dir = tempDir(`spanproof-e2e-${name}-`);
  cpSync(join(repo, 'test', 'fixtures', 'e2e', 'workspace'), dir, { recursive: true });
  return dir;
}

/**
 * A workspace shared by several scenarios (created on first use, the same folder afterwards): e.g.
 * 'runs', in which scenario 2 runs the grid and 3, 5, 6 read that run.
 */
const shared = new Map();
export function sharedWorkspace(name) {
  if (!shared.has(name)) shared.set(name, copyWorkspace(name));
  return shared.get(name);
}

/** The ground-truth file of workspace `ws`, parsed. */
export const gtOf = (ws) => JSON.parse(readFileSync(join(ws, '.spanproof', 'groundtruth.json'), 'utf8'));

/** The runs of workspace `ws`, oldest first: {id, dir, run (run.json)}. */
export function runsOf(ws) {
  const root = join(ws, '.spanproof', 'runs');
  return existsSync(root) ? readdirSync(root).sort().map((id) => ({ id, dir: join(root, id), run: JSON.parse(readFileSync(join(root, id, 'run.json'), 'utf8')) })) : [];
}

/**
 * The latest succeeded run of `ws` as the extension judges it: its directory, k, the verdict
 * (ranking.json format 2 `verdict`; format 1: the flagged entry, status null), and per question the
 * record in the recommended config (`judged`) with `hit` at the run's k.
 */
export function latestRun(ws) {
  const run = runsOf(ws).filter((r) => r.run.status === 'succeeded').pop();
  if (!run) return null;
  const results = JSON.parse(readFileSync(join(run.dir, 'results.json'), 'utf8'));
  const ranking = JSON.parse(readFileSync(join(run.dir, 'ranking.json'), 'utf8'));
  const verdict = Array.isArray(ranking)
    ? { recommended: ranking.find((r) => r.recommended)?.id ?? null, status: null }
    : { recommended: ranking.verdict.recommended, status: ranking.verdict.status };
  const k = results.k;
  const records = readFileSync(join(run.dir, 'questions.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const judged = records.filter((r) => r.config === verdict.recommended).map((r) => ({ ...r, hit: r[`hit@${k}`] === 1 }));
  return { ...run, k, verdict, records, judged };
}

/** sha256 of a file's bytes (hex). */
export const sha = (f) => createHash('sha256').update(readFileSync(f)).digest('hex');

/**
 * Starts code-server with the extension. `vsix`: install that file instead of symlinking the repo.
 * `workspaceTrust`: keep Workspace Trust on (default off, as TESTING.md §2 starts it).
 * `env`: extra environment of the server (and so of its extension hosts).
 * Returns {url, port, pid, stop(), userDataDir, env}.
 */
export async function startCodeServer({ vsix, env = {}, workspaceTrust = false } = {}) {
  const base = tempDir('spanproof-cs-');
  const ud = join(base, 'ud');
  const ext = join(base, 'ext');
  mkdirSync(join(ud, 'User'), { recursive: true });
  mkdirSync(ext, { recursive: true });
  writeFileSync(
    join(ud, 'User', 'settings.json'),
    JSON.stringify({
      'workbench.startupEditor': 'none',
      'telemetry.telemetryLevel': 'off',
      'workbench.tips.enabled': false,
      'workbench.enableExperiments': false,
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'update.mode': 'none',
      'editor.minimap.enabled': false,
      'workbench.colorTheme': 'Default Dark Modern',
      'security.workspace.trust.enabled': workspaceTrust,
      'chat.commandCenter.enabled': false,
      'window.commandCenter': false,
    }),
  );
  writeFileSync(join(base, 'cs.yaml'), 'auth: none\n');
  const childEnv = { ...process.env, XDG_CONFIG_HOME: join(ud, 'xdg-config'), XDG_DATA_HOME: join(ud, 'xdg-data'), ...env };
  if (vsix) {
    execFileSync(codeServerBin, ['--user-data-dir', ud, '--extensions-dir', ext, '--install-extension', vsix], { env: childEnv, stdio: 'pipe' });
  } else {
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
    symlinkSync(repo, join(ext, `${pkg.publisher}.${pkg.name}-${pkg.version}`));
  }
  const port = await freePort();
  const args = [
    '--config', join(base, 'cs.yaml'), '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry', '--disable-update-check', ...(workspaceTrust ? [] : ['--disable-workspace-trust']), '--disable-getting-started-override',
    '--user-data-dir', ud, '--extensions-dir', ext,
  ];
  const log = [];
  const child = spawn(codeServerBin, args, { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d) => log.push(String(d)));
  child.stderr.on('data', (d) => log.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`code-server exited: ${log.join('')}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() - t0 > 60000) throw new Error(`code-server did not answer /healthz in 60 s: ${log.join('')}`);
    await sleep(300);
  }
  return {
    url, port, pid: child.pid, userDataDir: ud, extensionsDir: ext, log, env,
    async stop() {
      if (child.exitCode !== null) return;
      try { process.kill(child.pid, 'SIGTERM'); } catch { /* gone */ }
      for (let i = 0; i < 50 && child.exitCode === null; i++) await sleep(100);
      if (child.exitCode === null) try { process.kill(child.pid, 'SIGKILL'); } catch { /* gone */ }
    },
  };
}

export async function launchBrowser() {
  const profile = tempDir('spanproof-chromium-');
  return chromium.launchPersistentContext(profile, {
    executablePath: process.env.SPANPROOF_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1600, height: 1000 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/**
 * Opens `folder` in the workbench and waits until the explorer shows files. A `folder` ending in
 * `.code-workspace` is opened as a (multi-root) workspace file.
 */
export async function openWorkbench(page, server, folder, payload) {
  let u = `${server.url}/?${folder.endsWith('.code-workspace') ? 'workspace' : 'folder'}=${encodeURIComponent(folder)}`;
  if (payload) u += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  await page.goto(u);
  await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
  if (!payload) await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60000 });
}

/** Runs a command from the palette by its title (retrying: the palette list is a snapshot). */
export async function runCommand(page, title, { timeout = 30000 } = {}) {
  const t0 = Date.now();
  const input = page.locator('.quick-input-widget input');
  for (;;) {
    // Escape only closes an open quick input: in the editor it would clear the selection.
    if (await page.locator('.quick-input-widget').isVisible().catch(() => false)) await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ state: 'visible', timeout: 3000 });
    } catch {
      // Focus was inside a webview, which does not always forward F1: focus the workbench and retry.
      if (Date.now() - t0 > timeout) throw new Error(`the command palette did not open for: ${title}`);
      await page.locator('.part.titlebar, .part.statusbar').first().click({ position: { x: 5, y: 5 } }).catch(() => undefined);
      continue;
    }
    try {
      await input.fill(`>${title}`, { timeout: 5000 });
    } catch {
      // The palette closed under us (e.g. a restored webview took focus): open it again.
      if (Date.now() - t0 > timeout) throw new Error(`the command palette closed while running: ${title}`);
      continue;
    }
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    try {
      await row.waitFor({ state: 'visible', timeout: 2500 });
      // The list may still be filtering: make sure the first row is the one.
      await sleep(200);
      await row.click();
      return;
    } catch {
      if (Date.now() - t0 > timeout) throw new Error(`command not found in the palette: ${title}`);
      await sleep(1000);
    }
  }
}

/**
 * Waits for the input box titled `title` (a command's showInputBox) and returns its input. The command
 * palette is the same quick-input widget, so waiting for "an input" alone can catch the closing palette.
 */
export async function inputBox(page, title, timeout = 15000) {
  await page.locator('.quick-input-widget .quick-input-title', { hasText: title }).first().waitFor({ state: 'visible', timeout });
  return page.locator('.quick-input-widget input');
}

/** Opens a file with Quick Open. */
export async function openFile(page, relPath) {
  if (await page.locator('.quick-input-widget').isVisible().catch(() => false)) await page.keyboard.press('Escape');
  await page.keyboard.press('Control+p');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(relPath);
  const base = relPath.split('/').pop();
  await page.locator('.quick-input-list .monaco-list-row', { hasText: base }).first().waitFor({ timeout: 15000 });
  await sleep(300);
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: base }).waitFor({ timeout: 15000 });
  await page.locator('.monaco-editor .view-lines').first().waitFor();
}

/** Go to line `n` (1-based) of the active editor, column 1. */
/**
 * Moves the active editor's cursor to line `n` (a number, or `'line:col'`) with Go to Line and waits
 * until the status bar shows the line (its Col is the visual column, so only the line is checked).
 * Under load the quick input can take the Enter before it has read the typed line, and stay open:
 * Enter is pressed again until it closes.
 */
export async function gotoLine(page, n, timeout = 30000) {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input');
  const [line, col = '1'] = String(n).split(':');
  const t0 = Date.now();
  for (let attempt = 0; ; attempt++) {
    // Focus the editor first: a panel restored with the workspace (a terminal) can take the focus after
    // the file opened, and then Ctrl+G's picker has no text editor to move (CI, scenario 11).
    if (await widget.isVisible().catch(() => false)) await page.keyboard.press('Escape');
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click({ position: { x: 5, y: 5 } }).catch(() => undefined);
    await page.keyboard.press('Control+g');
    await input.waitFor({ state: 'visible' });
    await input.fill(`:${line}:${col}`);
    // The picker's row ("Go to line …") shows that it has read the line; Enter before it may do nothing.
    await widget.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 3000 }).catch(() => undefined);
    await sleep(200);
    await page.keyboard.press('Enter');
    const closed = await widget.waitFor({ state: 'hidden', timeout: 3000 }).then(() => true, () => false);
    const at = page.locator('.statusbar-item', { hasText: new RegExp(`Ln ${line}, Col`) });
    if (closed && (await at.waitFor({ timeout: 3000 }).then(() => true, () => false))) break;
    if (Date.now() - t0 > timeout) throw new Error(`Go to Line ${line}:${col} did not move the cursor`);
  }
  await sleep(200);
}

/** Clicks the button whose text matches `label` on the modal dialog VS Code shows (waits up to `timeout` ms for it); returns the dialog's text. */
export async function answerDialog(page, label, timeout = 30000) {
  const box = page.locator('.monaco-dialog-box');
  const button = box.locator('.monaco-button', { hasText: label }).first();
  await button.waitFor({ timeout });
  const text = (await box.first().textContent()) ?? '';
  await button.click();
  await box.first().waitFor({ state: 'hidden', timeout: 10000 });
  return text;
}

export async function notificationText(page) {
  return (await page.locator('.notification-toast .notification-list-item-message').allTextContents()).join('\n');
}

export async function waitForNotification(page, re, timeout = 30000) {
  const t0 = Date.now();
  for (;;) {
    const t = await notificationText(page);
    if (re.test(t)) return t;
    if (Date.now() - t0 > timeout) throw new Error(`no notification matching ${re} (have: ${t})`);
    await sleep(300);
  }
}

/** The Frame of the results webview (outer webview iframe → #active-frame). */
export async function webviewFrame(page, timeout = 60000) {
  const t0 = Date.now();
  for (;;) {
    for (const f of page.frames()) {
      if (f.url().includes('fake.html') || f.name() === 'active-frame') {
        try {
          if (await f.locator('#app').count()) return f;
        } catch {
          /* detached */
        }
      }
    }
    if (Date.now() - t0 > timeout) throw new Error('results webview did not appear');
    await sleep(300);
  }
}

export async function waitFor(fn, what, timeout = 30000) {
  const t0 = Date.now();
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    if (Date.now() - t0 > timeout) throw new Error(`timed out waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`);
    await sleep(300);
  }
}

/**
 * Screenshot of the page into the output folder: `name.png`, or `name.jpg` (JPEG, quality 70) when
 * `name` ends in `.jpg` — the walkthrough images, which ship in the VSIX, are JPEG to stay small.
 * `locator`: only that element; `clip`: only that rectangle of the page ({x, y, width, height}, CSS px).
 */
export function shot(page, name, { locator, clip } = {}) {
  mkdirSync(outDir, { recursive: true });
  const jpeg = name.endsWith('.jpg');
  const opts = { path: join(outDir, jpeg ? name : `${name}.png`), ...(jpeg ? { type: 'jpeg', quality: 70 } : {}), ...(clip ? { clip } : {}) };
  return (locator ?? page).screenshot(opts);
}

export { existsSync, readFileSync, join };
