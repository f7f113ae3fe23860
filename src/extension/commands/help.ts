/**
 * Get Started: opens the walkthrough (`contributes.walkthroughs`, id `firstSession`) — open a folder,
 * highlight a quote, New Question, Run Evaluation, read the verdict, import a dataset or pick a model.
 */
import * as vscode from 'vscode';
import type { CommandTable } from './types';

/** `<publisher>.<name>#<walkthrough id>`, as `workbench.action.openWalkthrough` names it. */
export const WALKTHROUGH_ID = 'spanproof.spanproof#firstSession';

export const helpCommands = {
  getStarted: () => () => vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false),
} satisfies CommandTable;
