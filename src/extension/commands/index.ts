/**
 * Every command of the extension, one module per concern. To add a command: add an entry to the
 * module of its concern (or a new module listed here), contribute `spanproof.<name>` in package.json
 * (title in package.nls.json), and the in-host test "every contributed command is registered" checks
 * the two agree.
 */
import * as vscode from 'vscode';
import type { Spanproof } from '../spanproof';
import { authoringCommands } from './authoring';
import { groundTruthCommands } from './groundTruth';
import { runCommands } from './runs';
import { interopCommands } from './interop';
import { modelCommands } from './models';
import { answerCommands } from './answers';
import { draftCommands } from './drafts';
import { safetyCommands } from './safety';
import { helpCommands } from './help';
import type { CommandIdOf, CommandTable } from './types';

export type { Cmd, CommandTable } from './types';

export const COMMANDS = {
  ...authoringCommands,
  ...groundTruthCommands,
  ...runCommands,
  ...interopCommands,
  ...modelCommands,
  ...answerCommands,
  ...draftCommands,
  ...safetyCommands,
  ...helpCommands,
} satisfies CommandTable;

/** Ids of the commands registered by `registerCommands(sp, COMMANDS)`. */
export type CommandId = CommandIdOf<typeof COMMANDS>;

/** Run one of our commands by its typed id (for links, lenses and internal calls). */
export function executeCommand(id: CommandId, ...args: unknown[]): Thenable<unknown> {
  return vscode.commands.executeCommand(id, ...args);
}

/** Register every command of `table`, each wrapped so its failure is logged and shown. */
export function registerCommands(sp: Spanproof, table: CommandTable): vscode.Disposable[] {
  return Object.entries(table).map(([name, factory]) => {
    const id = `spanproof.${name}`;
    const handler = factory(sp);
    return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await handler(...args);
      } catch (e) {
        sp.output.error(`${id}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        void vscode.window.showErrorMessage(`Spanproof: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      }
    });
  });
}
