/**
 * Confinement of paths to a root folder — the corpus loader's rule (./load), shared by everything that
 * opens a file named by data rather than found by walking the corpus: run files (`questions.jsonl`
 * sources, #16 item 1), importers' `--documents` lookups (item 4), the extension's ground-truth path
 * and store, and the results panel's `readSpan` (item 6). A path is inside when its **real path**
 * (symbolic links resolved, on both the root and the file) is the root or below it; `..`, absolute
 * paths and links out of the root are all refused the same way.
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
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

/**
 * The first symbolic link on the way from `absRoot` (exclusive) to `abs` whose target leaves
 * `realRoot` — `{link, target}` with the link's own text — or null. A dangling link counts by where
 * it points (a write through it would create the file there).
 */
function linkOutOf(absRoot: string, realRoot: string, abs: string): { link: string; target: string } | null {
  let cur = absRoot;
  for (const part of path.relative(absRoot, abs).split(path.sep).filter(Boolean)) {
    cur = path.join(cur, part);
    let isLink: boolean;
    try {
      isLink = lstatSync(cur).isSymbolicLink();
    } catch {
      return null; // missing from here on: nothing below can be a link
    }
    if (!isLink) continue;
    const target = readlinkSync(cur);
    if (!isInside(realRoot, realOrAncestor(path.resolve(path.dirname(cur), target)))) return { link: cur, target };
  }
  return null;
}

/**
 * {@link resolveInside} for a file about to be **written** (an import's documents, ground truth and
 * report — fresh-user pass item 8): the absolute path of `relPath` under `root` when its real path,
 * and that of every symbolic link on the way (dangling ones by their target), stays inside the root's
 * real path. The root need not exist yet (it is judged by its nearest existing ancestor).
 * @param fixTail ends the fix line (e.g. `; nothing was written.`)
 * @throws SpanproofError('bad-input') naming the link (`file`) and what would have been written through
 *   it (`.spanproof is a symbolic link to ../outside, outside the workspace (…); refusing to write the
 *   ground truth through it.`) with a fix; nothing is written by this function.
 */
export function resolveWritableInside(root: string, relPath: string, what: string, rootName = 'the workspace', fixTail = '.'): string {
  const absRoot = path.resolve(root);
  const abs = path.resolve(absRoot, relPath);
  let realRoot: string;
  let out: { link: string; target: string } | null;
  let inside: boolean;
  try {
    realRoot = realOrAncestor(absRoot);
    out = linkOutOf(absRoot, realRoot, abs);
    inside = out === null && isInside(realRoot, realOrAncestor(abs));
  } catch (e) {
    throw new SpanproofError('bad-input', `${what} cannot be resolved (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`, { file: abs, fix: 'check the path.', cause: e });
  }
  if (out) {
    const link = path.relative(absRoot, out.link).split(path.sep).join('/');
    throw new SpanproofError('bad-input', `${link} is a symbolic link to ${out.target}, outside ${rootName} (${absRoot}); refusing to write ${what} through it.`, {
      file: out.link, fix: `remove the link or point it inside ${rootName}${fixTail}`,
    });
  }
  if (!inside) throw new SpanproofError('bad-input', `${what} is outside ${rootName} (the path leaves ${absRoot}); not written.`, { file: abs, fix: `keep the path inside ${rootName}${fixTail}` });
  return abs;
}
