/**
 * Creating a folder and its missing parents without Node's `mkdir(…, { recursive: true })`, which
 * never returns on Linux for a path under /proc, /sys or a similar virtual file system: those answer
 * ENOENT (not EACCES) to `mkdir` of a child that cannot exist, Node's recursive walk reads ENOENT as
 * "the parent is missing", creates the parent (EEXIST, taken as success) and retries the child —
 * forever, at 100 % CPU, with the event loop blocked so that not even SIGTERM is handled (a fresh
 * user's `spanproof run --out /proc/x`; the behaviour is reported as nodejs/node's procfs mkdir hang
 * and fixed the same way in other runtimes: once the parent is known to exist, ENOENT is final).
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const codeOf = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | null)?.code;

/**
 * Makes `dir` and every missing parent (like `mkdir -p`), one `mkdir` per missing level, top-down.
 * An existing folder is left as it is (no error); a folder made by another process meanwhile counts
 * as made.
 * @throws the `mkdir`/`stat` error of the level that failed, unchanged (ENOENT when the parent exists
 *   but cannot hold the folder — /proc/x —, ENOTDIR when a parent is a file, EACCES, EROFS, ENOSPC),
 *   so callers map it to their message as before.
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let p = resolve(dir); ; ) {
    try {
      if (statSync(p).isDirectory()) break;
      mkdirSync(p); // not a folder: mkdir reports it (EEXIST) as a plain mkdir -p would
    } catch (e) {
      if (codeOf(e) !== 'ENOENT') throw e;
      const parent = dirname(p);
      if (parent === p) throw e;
      missing.push(p);
      p = parent;
    }
  }
  for (let i = missing.length - 1; i >= 0; i--) {
    try {
      mkdirSync(missing[i]);
    } catch (e) {
      if (codeOf(e) !== 'EEXIST' || !isDirectory(missing[i])) throw e;
    }
  }
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
