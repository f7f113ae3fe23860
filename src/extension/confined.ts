/**
 * Where the editor may read and write (issue #16 item 6), vscode-free so it is unit-tested: the
 * `spanproof.groundTruthPath` setting — which an untrusted workspace's `.vscode/settings.json` can set —
 * names a file inside the workspace folder, judged by the CLI corpus loader's real-path rule
 * (src/core/corpus `resolveInside`), so `..`, an absolute path or a symbolic link out of the folder is
 * refused: nothing is read, created or written there. The CLI's `--groundtruth FILE` is the way to use
 * a file elsewhere (a flag the user types, not a setting a folder carries).
 */
import * as path from 'node:path';
import { groundTruthPathRefusal } from '../core/groundtruth';

/**
 * The ground-truth file `setting` names under `folder`, and null or why it is refused (a sentence naming
 * the setting, then the fix). The editor cannot tell a folder's value from the user's own, so the folder
 * rule always applies here; the CLI applies it to values from `.vscode/settings.json`.
 */
export function groundTruthFileIn(folder: string, setting: string): { file: string; refused: string | null } {
  const refused = groundTruthPathRefusal(folder, setting);
  return { file: path.resolve(folder, setting), refused: refused && `${refused} Set spanproof.groundTruthPath to a path inside the folder (default .spanproof/groundtruth.json).` };
}
