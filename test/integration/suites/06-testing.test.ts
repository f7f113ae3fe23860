// Questions in the Test Explorer, CodeLens and the status bar (issue 15 items 1, 4, 5) and hit at the
// run's real k (issue 10): items on the evidence, the "Recommended config" profile judging each question
// exactly as the latest run's records in that config say, messages at the evidence, continuous run on save.
// A two-config grid (fixed|heading × bm25 × no rerank) keeps the written runs to seconds.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { QuestionRecord } from '../../../src/core/runs';
import { hitAt } from '../../../src/extension/testing/outcome';
import { api, folder, test, until, ws } from '../harness';

const T = vscode.ConfigurationTarget.Workspace;
const GRID: Array<[string, unknown]> = [['chunkers', ['fixed', 'heading']], ['retrievers', ['bm25']], ['rerank', [false]]];

async function withGrid<T>(extra: Array<[string, unknown]>, fn: () => Promise<T>): Promise<T> {
  const cfg = vscode.workspace.getConfiguration('spanproof');
  const keys = [...GRID, ...extra];
  for (const [k, v] of keys) await cfg.update(k, v, T);
  try {
    return await fn();
  } finally {
    for (const [k] of keys) await cfg.update(k, undefined, T);
  }
}

/** A written run of the two-config grid; returns its directory after the runs model read it. */
async function writtenRun(extra: Array<[string, unknown]> = []): Promise<string> {
  const sp = await api();
  return withGrid(extra, async () => {
    const r = await sp.runner.run(folder().store);
    assert.ok(r?.runDir && r.status === 'succeeded', 'a written run');
    folder().runs.refresh();
    await until(() => folder().runs.latest?.run.id === path.basename(r.runDir!), 'the runs model reads the new run');
    return r.runDir!;
  });
}

test('the Test Explorer lists every question under the document of its first evidence span, with the span as range', async () => {
  const sp = await api();
  sp.tests.sync();
  const s = folder().store;
  const items = sp.tests.items.all();
  assert.equal(items.length, s.gt!.questions.length);
  for (const item of items) {
    const id = sp.tests.items.refOf(item)!.questionId;
    const qi = s.gt!.questions.findIndex((q) => q.id === id);
    const e = s.gt!.questions[qi].evidence[0];
    const r = s.resolution!.perEvidence[qi][0];
    assert.ok(r.status === 'resolved' || r.status === 'moved', `${id} resolved`);
    assert.equal(item.uri?.fsPath, path.join(ws(), ...e.source.split('/')), `${id} uri`);
    const doc = await vscode.workspace.openTextDocument(item.uri!);
    assert.equal(doc.offsetAt(item.range!.start), r.span.start, `${id} range start`);
    assert.equal(doc.offsetAt(item.range!.end), r.span.end, `${id} range end`);
    assert.equal(item.parent?.label, e.source, `${id} grouped by its document`);
  }
});

test('"Recommended config" judges each question as the latest run\'s record in the recommended config says; misses carry a message at the evidence', async () => {
  const sp = await api();
  await writtenRun();
  const runs = folder().runs;
  const rec = runs.verdict.recommended;
  assert.ok(rec, 'the run recommends a config');
  sp.tests.lastResults.clear();
  const cts = new vscode.CancellationTokenSource();
  await withGrid([], () => sp.tests.runOnce(new vscode.TestRunRequest(sp.tests.items.all()), cts.token, 'recommended'));
  const latest = runs.latest!;
  let misses = 0;
  for (const q of folder().store.gt!.questions) {
    const got = sp.tests.lastResults.get(q.id);
    const recd: QuestionRecord | undefined = latest.questions.find((r) => r.question === q.id && r.config === rec);
    assert.ok(got && recd, `${q.id} judged and in the run`);
    assert.equal(got.config, rec);
    assert.equal(got.verdict, hitAt(recd, runs.k) === 1 ? 'passed' : 'failed', `${q.id}: same verdict as the written run`);
    if (got.verdict === 'failed') {
      misses++;
      const md = got.message!.message as vscode.MarkdownString;
      assert.match(md.value, new RegExp(`Miss — ${recd.cause}`));
      assert.match(md.value, /Where the cut fell|No chunk of the index touches/);
      const miss = recd.miss as { evidence: { source: string; start: number; end: number } };
      const loc = got.message!.location!;
      assert.equal(loc.uri.fsPath, path.join(ws(), ...miss.evidence.source.split('/')));
      const doc = await vscode.workspace.openTextDocument(loc.uri);
      assert.equal(doc.offsetAt(loc.range.start), miss.evidence.start, 'message at the deciding evidence span');
    }
    assert.ok(typeof got.duration === 'number' && got.duration >= 0, `${q.id} duration from timings.json`);
  }
  assert.ok(misses > 0, 'the fixture has misses in the two-config grid (else this test proves nothing about messages)');
});

test('hit is read at the run\'s k: with k = 1 the tree/hover/CodeLens counts are hit@1, not hit@5', async () => {
  const sp = await api();
  await writtenRun([['k', 1]]);
  const runs = folder().runs;
  assert.equal(runs.k, 1);
  let differs = 0;
  for (const q of folder().store.gt!.questions) {
    const recs = runs.latest!.questions.filter((r) => r.question === q.id && r.status === 'ok');
    const at1 = recs.filter((r) => r['hit@1'] === 1).length;
    if (recs.filter((r) => r['hit@5'] === 1).length !== at1) differs++;
    assert.equal(runs.statusOf(q.id)?.hits, at1, `${q.id}: hits at k = 1`);
  }
  assert.ok(differs > 0, 'some question differs between hit@1 and hit@5 (else the test could not fail with hit@5)');
  // CodeLens over the first question's evidence shows the same count.
  const q = folder().store.gt!.questions[0];
  const doc = await vscode.workspace.openTextDocument(path.join(ws(), ...q.evidence[0].source.split('/')));
  const lenses = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', doc.uri)) as vscode.CodeLens[];
  const st = runs.statusOf(q.id)!;
  const mine = lenses.filter((l) => l.command?.command === 'spanproof.runEvaluationForQuestion' && (l.command.arguments?.[0] as string) === q.id);
  assert.equal(mine.length, 1, 'one "Run this question" lens for the question');
  assert.ok(lenses.some((l) => l.command?.title.startsWith(`hit in ${st.hits}/${st.scored}`)), `a lens "hit in ${st.hits}/${st.scored}"`);
  assert.equal(sp.statusBar.item.text.includes(runs.verdict.recommended ?? runs.verdict.top ?? '?'), true, 'the status bar names the verdict');
  await writtenRun(); // back to k = 5 for what follows
});

test('continuous run: saving a document re-runs only the questions whose evidence is in it', async () => {
  const sp = await api();
  const s = folder().store;
  const items = sp.tests.items.all();
  const source = s.gt!.questions[0].evidence[0].source;
  const inDoc = new Set(s.gt!.questions.filter((q) => q.evidence.some((e) => e.source === source)).map((q) => q.id));
  const cts = new vscode.CancellationTokenSource();
  sp.tests.lastResults.clear();
  const profile = sp.tests.profiles.recommended;
  const watching = withGrid([], async () => {
    const p = profile.runHandler(new vscode.TestRunRequest(items, undefined, profile, true), cts.token);
    const doc = await vscode.workspace.openTextDocument(path.join(ws(), ...source.split('/')));
    const ed = await vscode.window.showTextDocument(doc);
    await ed.edit((e) => e.insert(doc.positionAt(doc.getText().length), '\n'));
    await doc.save();
    await until(() => sp.tests.lastResults.size >= inDoc.size, 'the questions of the saved document re-ran', 60000);
    cts.cancel();
    await p;
  });
  await watching;
  assert.deepEqual([...sp.tests.lastResults.keys()].sort(), [...inDoc].sort());
});
