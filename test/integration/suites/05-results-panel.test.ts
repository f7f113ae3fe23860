// The results panel from the host: one panel reused, live one-question records delivered.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, folder, sleep, test, until } from '../harness';

test('Show Results, then Show Answers, reuse the one results panel', async () => {
  await api();
  const panels = () =>
    vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('spanproof.results'));
  const before = panels().length;
  await vscode.commands.executeCommand('spanproof.showResults');
  await until(() => panels().length > 0, 'the results panel');
  const dir = folder().runs.runs.find((r) => r.status === 'succeeded')?.dir;
  await vscode.commands.executeCommand('spanproof.showResults', dir, 'answers'); // what the Show Answers button runs
  await sleep(500);
  assert.equal(panels().length, Math.max(1, before), 'one results panel, revealed again');
});

test('Run Evaluation for This Question sends the 30 live records to the results panel (open now, and again through "Show")', async () => {
  const sp = await api();
  await vscode.commands.executeCommand('spanproof.showResults');
  sp.panel.lastLiveDelivered = null;
  await vscode.commands.executeCommand('spanproof.runEvaluationForQuestion', 'fa-d-003');
  const got = await until(() => sp.panel.lastLiveDelivered ?? undefined, 'the live re-run delivered to the webview', 60000);
  assert.equal(got.questionId, 'fa-d-003');
  assert.equal(got.records.length, 30, 'one record per config');
  assert.equal(new Set(got.records.map((r) => r.config)).size, 30);
  assert.ok(got.records.every((r) => r.question === 'fa-d-003'));
  assert.equal(got.k, 5);
  assert.ok(got.question && got.question.spans.length > 0 && got.question.spans.every((x) => x.text.length === x.end - x.start), 'the evidence with its text');
  // No run directory was written for it.
  assert.ok(folder().runs.runs.every((r) => !r.dir.includes('fa-d-003')));
  // The notification's "Show" action: with the panel closed, it is re-created and receives the records.
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  sp.panel.lastLiveDelivered = null;
  await sp.panel.showLive();
  const again = await until(() => sp.panel.lastLiveDelivered ?? undefined, 'the live re-run delivered to a new panel', 30000);
  assert.equal(again.records.length, 30);
});
