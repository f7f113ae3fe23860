/**
 * Questions in the Test Explorer (issue 15, VS Code Testing API): one TestController, each question a
 * TestItem on its first evidence span, two run profiles —
 *
 * - **Recommended config** (default): the selected questions in the config the latest run recommends
 *   (one chunker × retriever × reranker: seconds, not written as a run). With no run yet, the whole grid
 *   runs once over every question, written as a run, to find the recommendation.
 * - **Full grid**: every config. All questions → a written run (the results panel, status bar and CodeLens
 *   follow it); a subset → not written.
 *
 * A question passes when it is hit@k in the judged config (the recommendation; else rank 1), fails with
 * a TestMessage at its deciding evidence span (cause, advice, best chunk, where the cut fell, config),
 * and its duration is its retrieval + rerank time in that config (timings.json `perItem`). Rerun
 * Failed works because the handler honours `request.include`; continuous run re-runs the questions
 * whose evidence is in a saved document (all of them when the ground truth is saved).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { planConfigs } from '../../core/grid';
import { readQuestionsJsonl, type QuestionRecord, type TimingsFile } from '../../core/runs';
import { prepareRun } from '../commands/runs';
import type { FolderScope } from '../folder';
import type { Spanproof } from '../spanproof';
import { runVerdict } from '../runVerdict';
import { QuestionItems } from './items';
import { describeOutcome, verdictOf } from './outcome';

export type ProfileKind = 'recommended' | 'full';

/** What one evaluation gave: the records and which config the questions are judged in. */
interface Evaluated {
  records: QuestionRecord[];
  config: string;
  role: string;
  k: number;
  tau: number;
  timings: TimingsFile | null;
  /** Configs per question: hits / scored, when the whole grid ran. */
  grid: Map<string, { hits: number; scored: number }> | null;
}

export class QuestionTests implements vscode.Disposable {
  readonly controller = vscode.tests.createTestController('spanproof', 'Spanproof questions');
  readonly items: QuestionItems;
  readonly profiles: Record<ProfileKind, vscode.TestRunProfile>;
  private readonly disposables: vscode.Disposable[] = [];
  /** What the last report sent per question id (for in-host tests; the Test Explorer shows the same). */
  readonly lastResults = new Map<string, { verdict: 'passed' | 'failed' | 'errored' | 'skipped'; config: string; message?: vscode.TestMessage; duration?: number }>();

  constructor(private readonly sp: Spanproof) {
    this.items = new QuestionItems(this.controller);
    this.controller.refreshHandler = () => sp.reloadAll();
    const profile = (label: string, kind: ProfileKind, isDefault: boolean) =>
      this.controller.createRunProfile(label, vscode.TestRunProfileKind.Run, (req, token) => this.handle(req, token, kind), isDefault, undefined, true);
    this.profiles = { recommended: profile('Recommended config', 'recommended', true), full: profile('Full grid', 'full', false) };
    this.disposables.push(this.controller);
  }

  /** Re-list the questions (after a ground-truth change). */
  sync(): void {
    this.items.sync([...this.sp.folders.values()]);
  }

  /** The run handler of both profiles. */
  private async handle(request: vscode.TestRunRequest, token: vscode.CancellationToken, kind: ProfileKind): Promise<void> {
    if (request.continuous) return this.watch(request, token, kind);
    await this.runOnce(request, token, kind);
  }

  /** Selected questions grouped by folder: `include` (default: all) minus `exclude`. */
  private selected(request: vscode.TestRunRequest): Map<FolderScope, vscode.TestItem[]> {
    const excluded = new Set((request.exclude ?? []).flatMap((i) => this.items.questionsUnder(i)));
    const items = request.include ? request.include.flatMap((i) => this.items.questionsUnder(i)) : this.items.all();
    const out = new Map<FolderScope, vscode.TestItem[]>();
    for (const item of new Set(items)) {
      const ref = this.items.refOf(item);
      if (!ref || excluded.has(item) || ref.folder.disposed) continue;
      if (!out.has(ref.folder)) out.set(ref.folder, []);
      out.get(ref.folder)!.push(item);
    }
    return out;
  }

  async runOnce(request: vscode.TestRunRequest, token: vscode.CancellationToken, kind: ProfileKind): Promise<void> {
    const picked = this.selected(request);
    const run = this.controller.createTestRun(request, kind === 'full' ? 'Spanproof: full grid' : 'Spanproof: recommended config');
    try {
      for (const [f, items] of picked) {
        for (const i of items) run.enqueued(i);
        if (!(await prepareRun(this.sp, f))) {
          for (const i of items) run.skipped(i);
          continue;
        }
        const runnable = items.filter((i) => !i.error);
        for (const i of items) if (i.error) run.skipped(i);
        if (!runnable.length) continue;
        for (const i of runnable) run.started(i);
        const ids = runnable.map((i) => this.items.refOf(i)!.questionId);
        const got = await this.evaluate(f, ids, kind, token, run);
        if (!got) {
          const why = token.isCancellationRequested ? 'The run was cancelled.' : 'The evaluation did not finish — see the Spanproof output.';
          for (const i of runnable) run.errored(i, new vscode.TestMessage(why));
          continue;
        }
        this.report(run, f, runnable, got);
      }
    } finally {
      run.end();
    }
  }

  /** Run the grid for `ids` of folder `f` as profile `kind` asks; undefined when cancelled or failed. */
  private async evaluate(f: FolderScope, ids: string[], kind: ProfileKind, token: vscode.CancellationToken, run: vscode.TestRun): Promise<Evaluated | undefined> {
    const all = ids.length === (f.store.gt?.questions.length ?? 0);
    const rec = f.runs.recommended;
    const plan = rec && f.runs.latest ? planConfigs(f.runs.latest.run.settings).find((c) => c.id === rec) : undefined;
    if (kind === 'recommended' && plan) {
      run.appendOutput(`Judging ${ids.length} question(s) in the recommended config ${rec} of the latest run.\r\n`);
      const r = await this.sp.runner.run(f.store, undefined, { questionIds: ids, grid: { chunkers: [plan.chunker], retrievers: [plan.kind], rerank: [plan.rerank] }, writeRun: false, token, title: 'Spanproof: testing questions' });
      if (!r?.records) return undefined;
      return { records: r.records, config: plan.id, role: 'recommended config', k: r.results.k, tau: r.results.tau, timings: r.timings, grid: null };
    }
    if (kind === 'full' && !all) {
      const r = await this.sp.runner.run(f.store, undefined, { questionIds: ids, writeRun: false, token, title: 'Spanproof: testing questions in the full grid' });
      if (!r?.records) return undefined;
      const judged = rec ?? runVerdict(r.ranking, r.verdict).top;
      if (!judged) return undefined;
      return { records: r.records, config: judged, role: rec ? 'recommended config of the latest run' : 'rank 1 of this partial run', k: r.results.k, tau: r.results.tau, timings: r.timings, grid: gridOf(r.records, r.results.k) };
    }
    if (kind === 'recommended') run.appendOutput('No run has recommended a config yet: running the whole grid once over every question (written as a run) to find it.\r\n');
    const r = await this.sp.runner.run(f.store, undefined, { token, title: 'Spanproof: evaluating (full grid)' });
    if (!r?.runDir || r.status !== 'succeeded') return undefined;
    f.runs.refresh();
    const records = readQuestionsJsonl(path.join(r.runDir, 'questions.jsonl'));
    const v = runVerdict(r.ranking, r.verdict);
    const recommended = v.recommended;
    const judged = recommended ?? v.top;
    if (!judged) return undefined;
    run.appendOutput(`Run written to ${r.runDir}.\r\n`);
    return { records, config: judged, role: recommended ? 'recommended config' : 'rank 1 (no config recommended)', k: r.results.k, tau: r.results.tau, timings: r.timings, grid: gridOf(records, r.results.k) };
  }

  /**
   * Show the latest written run of `f` in the Test Explorer (after Run Evaluation), judged at its
   * recommended config, so the explorer, CodeLens and status bar tell the same story.
   */
  publish(f: FolderScope, name: string): void {
    const data = f.runs.latest;
    const judged = f.runs.verdict.recommended ?? f.runs.verdict.top;
    if (!data?.results || !judged) return;
    const items = this.items.all().filter((i) => this.items.refOf(i)?.folder === f);
    if (!items.length) return;
    const run = this.controller.createTestRun(new vscode.TestRunRequest(items), name);
    try {
      const role = f.runs.verdict.recommended ? 'recommended config' : 'rank 1 (no config recommended)';
      this.report(run, f, items, { records: data.questions, config: judged, role, k: data.results.k, tau: data.results.tau, timings: data.timings, grid: gridOf(data.questions, data.results.k) });
    } finally {
      run.end();
    }
  }

  /** Passed / failed / errored / skipped per question item, with messages at the evidence. */
  private report(run: vscode.TestRun, f: FolderScope, items: vscode.TestItem[], got: Evaluated): void {
    for (const item of items) {
      const id = this.items.refOf(item)!.questionId;
      const rec = got.records.find((r) => r.question === id && r.config === got.config);
      if (!rec) {
        run.appendOutput(`${id}: not scored in ${got.config} (excluded from the run).\r\n`, undefined, item);
        run.skipped(item);
        this.lastResults.set(id, { verdict: 'skipped', config: got.config });
        continue;
      }
      const t = got.timings?.perItem?.[id]?.[got.config];
      const duration = t ? t.retrieveMs + t.rerankMs : undefined;
      const o = describeOutcome(rec, got.k, got.tau, got.role);
      const grid = got.grid?.get(id);
      const across = grid ? `Across the grid: hit in ${grid.hits}/${grid.scored} configs.` : '';
      run.appendOutput(`${id}: ${o.summary}${grid ? ` · hit in ${grid.hits}/${grid.scored} configs` : ''}\r\n`, undefined, item);
      if (o.verdict === 'passed') {
        run.passed(item, duration);
        this.lastResults.set(id, { verdict: 'passed', config: got.config, duration });
        continue;
      }
      const md = new vscode.MarkdownString(across ? `${o.markdown}\n\n${across}` : o.markdown);
      const msg = new vscode.TestMessage(md);
      const range = o.at ? this.items.rangeOf(f, o.at.source, o.at.start, o.at.end) : undefined;
      if (o.at && range) msg.location = new vscode.Location(f.store.uriOf(o.at.source), range);
      else if (item.uri && item.range) msg.location = new vscode.Location(item.uri, item.range);
      if (o.verdict === 'errored') run.errored(item, msg, duration);
      else run.failed(item, msg, duration);
      this.lastResults.set(id, { verdict: o.verdict, config: got.config, message: msg, duration });
    }
  }

  /**
   * Continuous run: after each save, re-run the selected questions whose evidence is in the saved
   * document (all of them when the ground-truth file is saved), until the user stops it.
   */
  private watch(request: vscode.TestRunRequest, token: vscode.CancellationToken, kind: ProfileKind): Promise<void> {
    let pending: vscode.TestItem[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = async () => {
      if (this.sp.runner.running) {
        timer = setTimeout(() => void flush(), 1000);
        return;
      }
      const include = [...new Set(pending)];
      pending = [];
      if (include.length && !token.isCancellationRequested) await this.runOnce(new vscode.TestRunRequest(include, request.exclude, request.profile, true), token, kind);
    };
    const sub = vscode.workspace.onDidSaveTextDocument((doc) => {
      const f = this.sp.folderOf(doc.uri);
      if (!f) return;
      const source = f.store.sourceOf(doc.uri);
      const isGroundTruth = doc.uri.fsPath === f.store.file;
      const candidates = [...(this.selected(request).get(f) ?? [])];
      const hit = candidates.filter((i) => {
        if (isGroundTruth) return true;
        const q = f.store.gt?.questions.find((x) => x.id === this.items.refOf(i)?.questionId);
        return q?.evidence.some((e) => e.source === source);
      });
      if (!hit.length) return;
      this.controller.invalidateTestResults(hit);
      pending.push(...hit);
      clearTimeout(timer);
      timer = setTimeout(() => void flush(), 500);
    });
    return new Promise((resolve) => {
      token.onCancellationRequested(() => {
        sub.dispose();
        clearTimeout(timer);
        resolve();
      });
    });
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** Per question: configs hit at k / configs scored. */
function gridOf(records: readonly QuestionRecord[], k: number): Map<string, { hits: number; scored: number }> {
  const out = new Map<string, { hits: number; scored: number }>();
  for (const r of records) {
    if (r.status !== 'ok') continue;
    const s = out.get(r.question) ?? { hits: 0, scored: 0 };
    s.scored++;
    if (verdictOf(r, k) === 'passed') s.hits++;
    out.set(r.question, s);
  }
  return out;
}
