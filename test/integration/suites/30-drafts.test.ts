// Drafted questions in the editor (issue #14 §6): Draft Questions… against a fake OpenAI-compatible
// server on 127.0.0.1 started here, the drafts' CodeLens (Accept / Reject / Edit Question) as VS Code
// provides it, the Drafts group of the Questions view, and a run that leaves drafts out until accepted.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { DraftSessionResult } from '../../../src/core/draft';
import { defaultDraftReply, startFakeServer } from '../../helpers/fakeServer';
import { answerEndpointPrompts, api, folder, runOneConfig, test, until } from '../harness';

test('Draft Questions… drafts through the endpoint, the CodeLens accepts one and rejects one, and only the accepted one is scored', async () => {
  const sp = await api();
  const cfg = vscode.workspace.getConfiguration('spanproof');
  const T = vscode.ConfigurationTarget.Workspace;
  const keys = ['chunkers', 'retrievers', 'rerank', 'judge.endpoint', 'draft.model'];
  const srv = await startFakeServer({ draft: defaultDraftReply });
  const store = folder().store;
  const handBefore = readFileSync(store.file, 'utf8');
  const handCount = store.gt!.questions.length;
  try {
    // Without an endpoint nothing is sent.
    assert.equal(await vscode.commands.executeCommand('spanproof.draftQuestions', { scope: 'workspace', count: 2 }), null);
    assert.equal(srv.requests.length, 0);
    await cfg.update('judge.endpoint', srv.url, T);
    await cfg.update('draft.model', 'drafter', T);
    // A workspace-level endpoint is confirmed the first time (#16 item 2): the modal is answered "Allow …".
    const prompts = answerEndpointPrompts(sp, (buttons) => buttons.find((b) => b.startsWith('Allow ')));
    const { asked } = prompts;
    let r: DraftSessionResult;
    try {
      r = (await vscode.commands.executeCommand('spanproof.draftQuestions', { scope: 'workspace', count: 3 })) as DraftSessionResult;
    } finally {
      prompts.restore();
    }
    assert.deepEqual(asked, [`Spanproof: send data to ${new URL(srv.url).origin}?`], 'asked once, naming the origin');
    assert.ok(r && r.written, 'drafts written');
    assert.ok(r.drafts.length >= 2, `at least two drafts (${r.drafts.length})`);
    const drafts = await until(() => (store.gt!.questions.filter((q) => q.status === 'draft').length === r.drafts.length ? store.gt!.questions.filter((q) => q.status === 'draft') : undefined), 'the store to load the drafts');
    assert.equal(store.gt!.questions.length, handCount + drafts.length);
    // Hand-written questions keep their bytes: the file starts with the old text up to the last question's end.
    const now = readFileSync(store.file, 'utf8');
    const lastHandEnd = handBefore.lastIndexOf('}', handBefore.lastIndexOf(']'));
    assert.equal(now.slice(0, lastHandEnd + 1), handBefore.slice(0, lastHandEnd + 1));

    // The Drafts group in the Questions view.
    const roots = sp.tree.getChildren();
    const group = roots.find((n) => n.kind === 'drafts');
    assert.ok(group, 'a Drafts group');
    assert.equal(sp.tree.getChildren(group).length, drafts.length);
    assert.match(String(sp.tree.getTreeItem(group).label), new RegExp(`Drafts \\(${drafts.length}\\)`));

    // The CodeLens on the first draft's evidence, as VS Code provides it.
    const [first, second] = drafts;
    const doc = await vscode.workspace.openTextDocument(store.uriOf(first.evidence[0].source));
    await vscode.window.showTextDocument(doc);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
    const accept = lenses.find((l) => l.command?.command === 'spanproof.acceptDraft' && (l.command.arguments?.[0] as { id: string }).id === first.id);
    assert.ok(accept, 'an Accept lens on the draft');
    assert.ok(lenses.some((l) => l.command?.command === 'spanproof.editDraftQuestion'), 'an Edit Question lens');
    assert.equal(doc.offsetAt(accept.range.start), first.evidence[0].start);
    await vscode.commands.executeCommand(accept.command!.command, ...(accept.command!.arguments ?? []));
    await vscode.commands.executeCommand('spanproof.rejectDraft', { folder: folder().folder.uri.toString(), id: second.id });
    await until(() => !store.gt!.questions.some((q) => q.id === second.id) && store.gt!.questions.find((q) => q.id === first.id)?.status === undefined, 'accept and reject to reach the store');

    // A run scores the accepted draft, leaves the remaining drafts out.
    const run = await runOneConfig();
    const results = JSON.parse(readFileSync(`${run.runDir}/results.json`, 'utf8')) as { acceptance: { total: number; draftsExcluded?: number } };
    const left = drafts.length - 2;
    assert.equal(results.acceptance.total, handCount + 1);
    assert.equal(results.acceptance.draftsExcluded, left || undefined);
  } finally {
    await srv.close();
    for (const k of keys) await cfg.update(k, undefined, T);
    // Leave the fixture as it was for the suites that follow.
    await vscode.workspace.fs.writeFile(vscode.Uri.file(store.file), Buffer.from(handBefore));
    await store.onDiskChange();
  }
});
