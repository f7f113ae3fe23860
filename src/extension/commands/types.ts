/**
 * The shape of a command module (after rust-analyzer's `commands.ts`): a record from the command's name
 * (the id without `spanproof.`) to a factory that receives the extension context and returns the handler.
 * Modules are grouped by concern (authoring, runs, interop, models, answers); `registerCommands` wraps
 * every handler so a failure is logged and shown, never thrown into VS Code.
 */
import type { Spanproof } from '../spanproof';

/** A command handler; its arguments come from VS Code (menus, links, `executeCommand`) and are untyped. */
export type Cmd = (...args: unknown[]) => unknown;

/** name → factory. The name is the command id without `spanproof.`; `package.json` must contribute it. */
export type CommandTable = Record<string, (sp: Spanproof) => Cmd>;

/** `spanproof.<name>` of every command a table defines. */
export type CommandIdOf<T extends CommandTable> = `spanproof.${Extract<keyof T, string>}`;
