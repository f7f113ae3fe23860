/**
 * Where the ground-truth file of a workspace is (#16 item 6) — one rule for the CLI and the editor.
 *
 * `groundTruthPath` is a setting, and a setting a folder carries (`.vscode/settings.json`, written by
 * whoever shared the folder) must not choose a file outside that folder to read, create or rewrite:
 * such a value is confined by the corpus loader's real-path rule ({@link resolveInside}), so `..`, an
 * absolute path and a symbolic link out of the folder are refused alike. A value the user gives
 * (`--groundtruth FILE`, a `--config` file they name) may point anywhere; a relative one is relative
 * to the workspace and an absolute one is taken as it is. The default path (`.spanproof/groundtruth.json`,
 * no setting at all) is the folder's too: a `.spanproof` folder or file shipped as a link out of the
 * workspace is refused the same way.
 */
import * as path from 'node:path';
import { resolveInside, resolveWritableInside } from '../corpus/confine';
import { SpanproofError, isSpanproofError } from '../errors';
import { DEFAULT_SETTINGS } from '../settings/types';

/**
 * Who chose the ground-truth path: the user (a flag, a `--config` file) or the folder — its
 * `.vscode/settings.json` (`settingsFile`) or, with no setting, the default path inside it.
 */
export type GroundTruthPathOrigin = { by: 'user' } | { by: 'folder'; settingsFile?: string };

/**
 * Why the folder-chosen ground-truth path `setting` may not be used under `workspace` — a sentence
 * naming the setting (`spanproof.groundTruthPath "../x.json" is outside the workspace folder (…); not
 * read.`) — or null when its real path stays inside the workspace (a file not yet created is judged by
 * its nearest existing folder).
 */
export function groundTruthPathRefusal(workspace: string, setting: string): string | null {
  try {
    resolveInside(workspace, setting, `spanproof.groundTruthPath "${setting}"`, 'the workspace folder');
    return null;
  } catch (e) {
    if (!isSpanproofError(e)) throw e;
    return e.message.slice(e.file ? e.file.length + 2 : 0).split(' Fix: ')[0];
  }
}

/**
 * The absolute path of the ground-truth file `setting` names under `workspace`.
 * @param workspace the workspace (corpus) folder; a relative one is resolved against the process's cwd.
 * @param setting the `groundTruthPath` value (POSIX or platform separators; relative to `workspace` or absolute).
 * @param origin `folder` (with the settings file that set it, or none for the default path) confines
 *   the path to the workspace.
 * @throws SpanproofError('bad-input') when a folder-chosen path leaves the workspace (real paths
 *   compared), with `file` = the settings file and `field` = `spanproof.groundTruthPath`, or — for the
 *   default path — `file` = the ground-truth path itself; nothing is read at the target.
 */
export function groundTruthLocation(workspace: string, setting: string, origin: GroundTruthPathOrigin): string {
  const file = path.resolve(workspace, setting);
  if (origin.by === 'user') return file;
  // The default path: judged as a file to be written (every link on the way, the workspace itself may
  // not exist yet — an import creates it), so the message names the link that leaves the folder.
  if (origin.settingsFile === undefined) return resolveWritableInside(workspace, setting, 'the ground truth', 'the workspace', '; nothing was written through it. To use a file elsewhere, name it yourself with --groundtruth FILE (or groundTruthPath in a --config file).');
  const refused = groundTruthPathRefusal(workspace, setting);
  if (refused === null) return file;
  throw new SpanproofError('bad-input', refused, {
    file: origin.settingsFile,
    field: 'spanproof.groundTruthPath',
    fix: `set it to a path inside the folder (default ${DEFAULT_SETTINGS.groundTruthPath}); to use a file elsewhere, name it yourself with --groundtruth FILE (or groundTruthPath in a --config file).`,
  });
}
