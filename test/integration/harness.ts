/**
 * In-host integration harness: the suites in test/integration/suites/*.test.ts run INSIDE the real
 * extension host of code-server (the `extensionTestsPath` contract of @vscode/test-electron: a module
 * exporting `run()`). test/e2e/scenarios/00-in-host.mjs bundles every suite file, in file-name order, with
 * this module as the entry's `run`. Results go to the JSON file named by SPANPROOF_IT_OUT, because
 * console output reaches the page only as formatted text. The workspace is a fresh copy of
 * test/fixtures/e2e/workspace (20 FastAPI questions).
 *
 * A suite file registers tests with `test(name, fn)` at import time; tests run in registration order
 * and share the activated extension (`api()`), so a suite that changes settings restores them.
 */
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { Spanproof } from '../../src/extension/spanproof';

interface Outcome {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
}

const tests: Array<{ name: string; fn: () => Promise<void> }> = [];

/** Register an in-host test (runs in the order suites and tests are imported). */
export const test = (name: string, fn: () => Promise<void>): void => void tests.push({ name, fn });

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Poll `fn` every 100 ms until it returns a truthy value; throws naming `what` after `timeout` ms. */
export async function until<T>(fn: () => T | undefined | false | null, what: string, timeout = 15000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() - t0 > timeout) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

let sp: Spanproof | undefined;

/** The activated extension's API (activates it on first use). */
export async function api(): Promise<Spanproof> {
  if (sp) return sp;
  const ext = vscode.extensions.getExtension('spanproof.spanproof');
  if (!ext) throw new Error('extension spanproof.spanproof not installed');
  sp = (await ext.activate()) as Spanproof;
  if (!sp) throw new Error('activate() returned no API (activation failed: see the notification)');
  return sp;
}

/** The first workspace folder's scope (store + runs model). */
export const folder = () => {
  if (!sp) throw new Error('api() first');
  return [...sp.folders.values()][0];
};

/**
 * One cheap config (fixed/bm25/none) set at workspace level and run, so a whole run writes a run
 * directory in a few seconds. The caller restores `chunkers`, `retrievers` and `rerank`.
 */
export async function runOneConfig(): Promise<NonNullable<Awaited<ReturnType<Spanproof['runner']['run']>>> & { runDir: string }> {
  const s = await api();
  const cfg = vscode.workspace.getConfiguration('spanproof');
  const T = vscode.ConfigurationTarget.Workspace;
  await cfg.update('chunkers', ['fixed'], T);
  await cfg.update('retrievers', ['bm25'], T);
  await cfg.update('rerank', [false], T);
  const run = await s.runner.run(folder().store);
  if (!run?.runDir) throw new Error('the one-config run wrote no run directory');
  return run as typeof run & { runDir: string };
}

/**
 * Answers the endpoint confirmations (sp.endpoints.deps.ask, a modal in VS Code) with
 * `reply(buttons, message, detail)` until `restore()`; `asked` collects each question's message.
 */
export function answerEndpointPrompts(s: Spanproof, reply: (buttons: string[], message: string, detail: string) => string | undefined): { asked: string[]; restore(): void } {
  const original = s.endpoints.deps.ask;
  const asked: string[] = [];
  s.endpoints.deps.ask = async (message, detail, ...buttons) => (asked.push(message), reply(buttons, message, detail));
  return { asked, restore: () => void (s.endpoints.deps.ask = original) };
}

/** The workspace root on disk. */
export const ws = (): string => vscode.workspace.workspaceFolders![0].uri.fsPath;

export async function run(): Promise<void> {
  const out: Outcome[] = [];
  const file = process.env.SPANPROOF_IT_OUT;
  // `<file>.progress`: the results so far and the test running now, so a suite that hangs past the
  // scenario's wait is named (the final results are written to `file` only at the end).
  const progress = (running?: string) => file && writeFileSync(`${file}.progress`, JSON.stringify({ done: out, running }));
  for (const t of tests) {
    progress(t.name);
    const t0 = Date.now();
    try {
      await Promise.race([t.fn(), sleep(120000).then(() => Promise.reject(new Error('test timed out after 120 s')))]);
      out.push({ name: t.name, ok: true, ms: Date.now() - t0 });
    } catch (e) {
      out.push({ name: t.name, ok: false, ms: Date.now() - t0, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    }
  }
  progress();
  if (file) writeFileSync(file, JSON.stringify(out, null, 2));
}
