/**
 * Where the editor may read and write (issue #16 item 6), vscode-free so it is unit-tested: the
 * `spanproof.groundTruthPath` setting — which an untrusted workspace's `.vscode/settings.json` can set —
 * names a file inside the workspace folder, judged by the CLI corpus loader's real-path rule
 * (src/core/corpus `resolveInside`), so `..`, an absolute path or a symbolic link out of the folder is
 * refused: nothing is read, created or written there. The CLI's `--groundtruth FILE` is the way to use
 * a file elsewhere (a flag the user types, not a setting a folder carries).
 */
import * as path from 'node:path';
import { resolveInside } from '../core/corpus';

/** The ground-truth file `setting` names under `folder`, and null or why it is refused (a sentence naming the setting). */
export function groundTruthFileIn(folder: string, setting: string): { file: string; refused: string | null } {
  const file = path.resolve(folder, setting);
  try {
    resolveInside(folder, setting, `spanproof.groundTruthPath "${setting}"`, 'the workspace folder');
    return { file, refused: null };
  } catch (e) {
    return { file, refused: `${e instanceof Error ? e.message : String(e)} Set spanproof.groundTruthPath to a path inside the folder (default .spanproof/groundtruth.json).` };
  }
}
