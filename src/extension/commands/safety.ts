/**
 * Risk and safety in VS Code (issue #17, docs/safety.md): **Score Content Safety…** (a run's generated
 * answers or an Azure AI evaluation JSONL file, graded for content harm by the judge model) and **Run
 * Attack Step…** (XPIA on a run with an injection study, UPIA on any finished run). Opt-in like every
 * endpoint feature: a trusted workspace, `spanproof.judge.endpoint` and the models set, and
 * `sp.endpoints.authorize` before the first request (a workspace-level endpoint is confirmed, the key
 * is the one stored for its origin). Progress with cancel; the result opens as a Markdown report
 * (content safety) or in the results panel's Injection & attacks tab. A local judge is not Azure's
 * safety service, and every result says so.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isSpanproofError } from '../../core/errors';
import { ChatClient, ReplyCache } from '../../core/judge';
import { redactUrl } from '../../core/net';
import { safetyMarkdown } from '../../core/report';
import { resolveCacheDir } from '../../core/runs';
import { DEFAULT_THRESHOLD, readSafetyInput, runAttackStage, runUpiaStage, SAFETY_NOTE, scoreSafetyInput, type SafetyFile, type UpiaAttackFile, type XpiaAttackFile } from '../../core/safety';
import { judgeReady } from '../answers';
import { readSettings } from '../config';
import { endpointSetting } from '../endpoints';
import type { FolderScope } from '../folder';
import { attackChoices, attackSummary, parseSafetyArgs, safetySummary, type AttackStep } from '../safetyChoices';
import type { Spanproof } from '../spanproof';
import type { CommandTable } from './types';

export const safetyCommands = {
  scoreSafety: (sp) => (arg) => scoreContentSafety(sp, parseSafetyArgs(arg)),
  runAttacks: (sp) => (arg) => runAttacks(sp, parseSafetyArgs(arg)),
} satisfies CommandTable;

/** Trusted workspace and a judge endpoint + judge model (content safety needs no generator); says why not. */
function safetyReady(f: FolderScope): boolean {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('Spanproof: content safety needs a trusted workspace (it calls an LLM endpoint). Nothing was sent.');
    return false;
  }
  const j = readSettings(f.folder).judge;
  if (!j.endpoint || !j.judgeModel) {
    void vscode.window
      .showInformationMessage('Spanproof: set spanproof.judge.endpoint and spanproof.judge.judgeModel to grade content safety. Nothing was sent.', 'Open Settings')
      .then((pick) => pick && vscode.commands.executeCommand('workbench.action.openSettings', 'spanproof.judge'));
    return false;
  }
  return true;
}

/** A succeeded run of `f` picked from its history (`filter` narrows it), or undefined. */
async function pickRun(f: FolderScope, title: string, filter: (dir: string) => boolean, detail: (dir: string) => string | undefined): Promise<string | undefined> {
  f.runs.refresh();
  const runs = f.runs.runs.filter((r) => r.status === 'succeeded' && filter(r.dir));
  if (!runs.length) return undefined;
  const pick = await vscode.window.showQuickPick(runs.map((r) => ({ label: r.id, description: r.top ? `top ${r.top}` : undefined, detail: detail(r.dir), dir: r.dir })), { title });
  return pick?.dir;
}

/** A judge client for the authorized endpoint, caching replies beside the workspace's other caches. */
function clientFor(f: FolderScope, auth: { endpoint: string; apiKey?: string }): ChatClient {
  const j = readSettings(f.folder).judge;
  return new ChatClient({ endpoint: auth.endpoint, apiKey: auth.apiKey, concurrency: j.concurrency, requestsPerMinute: j.requestsPerMinute, timeoutMs: j.timeoutMs, retries: j.retries, cache: new ReplyCache(path.join(resolveCacheDir(f.folder.uri.fsPath), 'judge')) });
}

/** Runs `work` under a cancellable notification; a cancel or a bad-input error is shown, never thrown. */
async function withCancel<T>(title: string, what: string, work: (signal: AbortSignal, report: (done: number, total: number) => void) => Promise<T>, log: vscode.LogOutputChannel): Promise<T | null> {
  try {
    return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
      const ac = new AbortController();
      token.onCancellationRequested(() => ac.abort());
      let last = 0;
      return work(ac.signal, (done, total) => {
        const pct = total ? (100 * done) / total : 0;
        progress.report({ increment: Math.max(0, pct - last), message: `${done}/${total}` });
        last = pct;
      });
    });
  } catch (e) {
    if (isSpanproofError(e) && e.code === 'cancelled') {
      void vscode.window.showInformationMessage(`Spanproof: ${what} cancelled; nothing was written.`);
      return null;
    }
    if (!isSpanproofError(e)) throw e;
    log.error(`${what}: ${e.message}`);
    void vscode.window.showErrorMessage(`Spanproof: ${what} failed — ${e.message}`);
    return null;
  }
}

/** What to grade: the given path, else a run with answers or an Azure JSONL file chosen by the user. */
async function pickSafetyInput(f: FolderScope, given?: string): Promise<string | undefined> {
  if (given) return given;
  const file = 'Azure AI evaluation JSONL file…';
  f.runs.refresh();
  const runs = f.runs.runs.filter((r) => r.status === 'succeeded' && existsSync(path.join(r.dir, 'answers.jsonl')));
  const pick = await vscode.window.showQuickPick([...runs.map((r) => ({ label: r.id, description: 'generated answers', detail: existsSync(path.join(r.dir, 'safety.json')) ? 'has safety.json (replaced; cached replies are reused)' : undefined, dir: r.dir })), { label: file, description: 'query/response/context lines or conversations', dir: '' }], { title: 'Spanproof: Score Content Safety — what to grade?' });
  if (!pick) return undefined;
  if (pick.dir) return pick.dir;
  const uri = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'JSON Lines': ['jsonl', 'json'] }, defaultUri: f.folder.uri, title: 'Spanproof: Azure AI evaluation JSONL to grade' });
  return uri?.[0]?.fsPath;
}

/**
 * "Score Content Safety…": grades a run's answers or an Azure JSONL file for hateful/unfair, sexual,
 * violent and self-harm content and protected material with `spanproof.judge.judgeModel`, writes
 * `<run>/safety.json` for a run, and opens the report. Resolves with the report, or null.
 */
async function scoreContentSafety(sp: Spanproof, args: ReturnType<typeof parseSafetyArgs>): Promise<SafetyFile | null> {
  const f = sp.primary();
  if (!f || !safetyReady(f)) return null;
  const input = await pickSafetyInput(f, args.input);
  if (!input) return null;
  const j = readSettings(f.folder).judge;
  const src = readSafetyInput(input, j.judgeModel, j.allowSameModel);
  const auth = await sp.endpoints.authorize(endpointSetting('judge.endpoint', f.folder), 'the queries, contexts and responses to grade');
  if (!auth) return null;
  sp.output.info(`content safety of ${src.path}: sending ${src.items.length} response(s) to ${redactUrl(auth.endpoint)} (judge ${j.judgeModel})`);
  const client = clientFor(f, auth);
  const threshold = args.threshold ?? DEFAULT_THRESHOLD;
  const r = await withCancel(`Spanproof: content safety (judge ${j.judgeModel}) at ${redactUrl(auth.endpoint)}`, 'content safety', (signal, report) => scoreSafetyInput(src, { client, judgeModel: j.judgeModel, threshold, signal, onItem: report }), sp.output);
  if (!r) return null;
  const md = [`# Spanproof content safety: ${path.basename(src.path)}`, '', ...safetyMarkdown(r.report), ...r.report.notes.map((n) => `- ${n}`), '', r.file ? `Written to \`${r.file}\`.` : ''].join('\n');
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'markdown', content: md }), { preview: false });
  if (r.file) sp.panel.notifyRunsChanged();
  void vscode.window.showInformationMessage(`Spanproof: ${safetySummary(r.report)}. ${SAFETY_NOTE}`);
  return r.report;
}

/**
 * "Run Attack Step…": on a finished run, XPIA (needs its injection study) and/or UPIA with the
 * `spanproof.judge.*` generator and judge (UPIA's harm threshold: the scripted `threshold`, else the
 * default, medium); writes `<run>/attacks.json` and opens the results panel on the Injection & attacks
 * tab. A cancelled step writes nothing. Resolves with the reports written, or null.
 */
async function runAttacks(sp: Spanproof, args: ReturnType<typeof parseSafetyArgs>): Promise<Array<XpiaAttackFile | UpiaAttackFile> | null> {
  const f = sp.primary();
  if (!f || !judgeReady(f.folder)) return null;
  const runDir = args.input ?? (await pickRun(f, 'Spanproof: Run Attack Step — which run?', () => true, (d) => (existsSync(path.join(d, 'injection.json')) ? 'has an injection study (XPIA and UPIA)' : 'UPIA only (no injection study)')));
  if (!runDir) {
    if (!args.input && !f.runs.runs.some((r) => r.status === 'succeeded')) void vscode.window.showInformationMessage('Spanproof: there is no finished run yet — run an evaluation first.');
    return null;
  }
  const choices = attackChoices({ hasInjectionStudy: existsSync(path.join(runDir, 'injection.json')) });
  const steps: AttackStep[] = args.steps ?? ((await vscode.window.showQuickPick(choices, { title: 'Spanproof: which attack steps?', canPickMany: true }))?.map((c) => c.step) ?? []);
  const usable = steps.filter((s) => choices.some((c) => c.step === s));
  if (!usable.length) return null;
  const j = readSettings(f.folder).judge;
  const auth = await sp.endpoints.authorize(endpointSetting('judge.endpoint', f.folder), 'the questions (with injected instructions), retrieved passages (with planted canaries) and generated answers');
  if (!auth) return null;
  sp.output.info(`attack steps ${usable.join(', ')} on ${runDir}: sending to ${redactUrl(auth.endpoint)} (generator ${j.generatorModel}, judge ${j.judgeModel})`);
  const client = clientFor(f, auth);
  const judge = { ...j, endpoint: auth.endpoint };
  const done: Array<XpiaAttackFile | UpiaAttackFile> = [];
  for (const step of usable) {
    const r = await withCancel<{ file: string; report: XpiaAttackFile | UpiaAttackFile }>(`Spanproof: ${step.toUpperCase()} attack (${j.generatorModel}, judged by ${j.judgeModel})`, `the ${step.toUpperCase()} attack step`, (signal, onProgress) =>
      step === 'xpia'
        ? runAttackStage(runDir, { judge, client, workspace: f.folder.uri.fsPath, groundTruthFile: f.store.file, signal, onProgress })
        : runUpiaStage(runDir, { judge, client, workspace: f.folder.uri.fsPath, threshold: args.threshold ?? DEFAULT_THRESHOLD, signal, onProgress }), sp.output);
    if (!r) break;
    done.push(r.report);
    sp.output.info(attackSummary(r.report));
  }
  if (!done.length) return null;
  sp.panel.notifyRunsChanged();
  await sp.panel.show(runDir, 'injection');
  void vscode.window.showInformationMessage(`Spanproof: ${done.map(attackSummary).join('; ')}. A local judge is not Azure's safety service.`);
  return done;
}
