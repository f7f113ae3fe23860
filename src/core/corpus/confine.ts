/**
 * Confinement of paths to a root folder — the corpus loader's rule (./load), shared by everything that
 * opens a file named by data rather than found by walking the corpus: run files (`questions.jsonl`
 * sources, #16 item 1), importers' `--documents` lookups (item 4), the extension's ground-truth path
 * and store, and the results panel's `readSpan` (item 6). A path is inside when its **real path**
 * (symbolic links resolved, on both the root and the file) is the root or below it; `..`, absolute
 * paths and links out of the root are all refused the same way.
 */
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { SpanproofError } from '../errors';

/** True when `p` is `dir` itself or below it (both absolute real paths). */
export function isInside(dir: string, p: string): boolean {
  const rel = path.relative(dir, p);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + path.sep) && !path.isAbsolute(rel));
}

/** The real path of `p`, or of its nearest existing ancestor joined with the rest (for files not yet created). */
function realOrAncestor(p: string): string {
  const rest: string[] = [];
  for (let cur = p; ; cur = path.dirname(cur)) {
    try {
      return path.join(realpathSync(cur), ...rest.reverse());
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || path.dirname(cur) === cur) throw e;
      rest.push(path.basename(cur));
    }
  }
}

/**
 * The absolute path of `relPath` under `root` when its real path stays inside the root's real path;
 * a missing file (or folder) is judged by its nearest existing ancestor, so a path to be created is
 * checked too. `relPath` may use `/` or the platform separator; an absolute one is judged as it is.
 * @throws SpanproofError('bad-input') naming `what` (e.g. `source "a/b.md" in questions.jsonl`) and
 *   `rootName` when the path leaves the root; the message never shows the target's content.
 */
export function resolveInside(root: string, relPath: string, what: string, rootName = 'the workspace'): string {
  const absRoot = path.resolve(root);
  const abs = path.resolve(absRoot, relPath); // an absolute relPath stays absolute (and is then outside)
  let realRoot: string;
  let real: string;
  try {
    realRoot = realpathSync(absRoot);
    real = realOrAncestor(abs);
  } catch (e) {
    throw new SpanproofError('bad-input', `${what} cannot be resolved (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`, { file: absRoot, fix: 'check the path.', cause: e });
  }
  if (!isInside(realRoot, real)) {
    throw new SpanproofError('bad-input', `${what} is outside ${rootName} (${real === abs ? 'the path' : 'it links to a path that'} leaves ${absRoot}); not read.`, { file: absRoot, fix: `keep files inside ${rootName}; a file named by data is only read from there.` });
  }
  return abs;
}
