// Activation and the command tables: the API object, and every contributed command registered.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, test } from '../harness';

test('activation returns the extension API and registers every command of SPEC §12', async () => {
  const sp = await api();
  const ext = vscode.extensions.getExtension('spanproof.spanproof');
  assert.ok(ext?.isActive && sp, 'activated with an API object');
  const all = new Set(await vscode.commands.getCommands(true));
  for (const id of [
    'newQuestionFromSelection', 'addSelectionAsEvidence', 'runEvaluation', 'runEvaluationForQuestion', 'cancelEvaluation', 'showResults',
    'validateGroundTruth', 'importDataset', 'exportReport', 'selectEmbeddingModel', 'openGroundTruthFile',
  ]) assert.ok(all.has(`spanproof.${id}`), `spanproof.${id} registered`);
});

test('every command package.json contributes is registered, and every registered spanproof.* command is contributed', async () => {
  const sp = await api();
  const pkg = JSON.parse(readFileSync(path.join(sp.context.extensionPath, 'package.json'), 'utf8')) as { contributes: { commands: Array<{ command: string }> } };
  const contributed = new Set(pkg.contributes.commands.map((c) => c.command));
  const registered = new Set((await vscode.commands.getCommands(true)).filter((c) => c.startsWith('spanproof.')));
  // VS Code itself registers view commands for our views (spanproof.questions.focus, …): not ours to contribute.
  const ours = [...registered].filter((c) => !/^spanproof\.(questions|results)\./.test(c) && !c.startsWith('spanproof.questions.'));
  assert.deepEqual([...contributed].filter((c) => !registered.has(c)), [], 'contributed but not registered');
  assert.deepEqual(ours.filter((c) => !contributed.has(c)), [], 'registered but not contributed');
});
