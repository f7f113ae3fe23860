/**
 * Backups of the ground truth before it is replaced (#16 item 8). A backup is never overwritten: the
 * copy goes to the first free name of `<file>.bak`, `<file>.bak.1`, `<file>.bak.2`, … (created with
 * `open(…, 'wx')`, so two writers never take the same name), and a version identical to an existing
 * backup is not copied again. So after an import kept the hand-written file as `.bak`, a later
 * `validate --fix`, `draft` or `review` cannot destroy the only copy of it.
 */
import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import { errnoCode } from '../fsErrors';
import { SpanproofError } from '../errors';

/** The candidate backup names of `file`, in order: `.bak`, `.bak.1`, `.bak.2`, … */
function* backupNames(file: string): Generator<string> {
  yield `${file}.bak`;
  for (let n = 1; ; n++) yield `${file}.bak.${n}`;
}

/**
 * Keeps `current` (the file's bytes as read before the write; null = there is no file) as a backup of
 * `file`: returns the name of an existing backup with exactly these bytes, else writes them to the first
 * free backup name, with the file's permission bits `mode` (so a private file's backup is private too),
 * and returns that; undefined when `current` is null. A string is taken as its UTF-8 bytes.
 * @throws SpanproofError('bad-input') naming the backup when it cannot be written (disk full,
 *   permission) — callers write nothing then, and no partial backup is left under that name.
 */
export async function backupGroundTruth(file: string, current: Uint8Array | string | null, mode?: number): Promise<string | undefined> {
  if (current === null) return undefined;
  const bytes = typeof current === 'string' ? Buffer.from(current, 'utf8') : current;
  for (const name of backupNames(file)) {
    const existing = await readFile(name).catch((e: unknown) => (errnoCode(e) === 'ENOENT' ? null : undefined));
    if (existing && Buffer.compare(existing, bytes) === 0) return name;
    if (existing !== null) continue; // taken (or unreadable): never overwritten
    try {
      await writeFile(name, bytes, { flag: 'wx', mode: mode ?? 0o666 });
      if (mode !== undefined) await chmod(name, mode & 0o777); // the umask only narrows; keep exactly the file's bits
      return name;
    } catch (e) {
      if (errnoCode(e) === 'EEXIST') continue; // taken meanwhile by another writer
      // 'wx' created the name before the write failed (disk full): an empty or partial copy would be
      // kept as "taken" forever and the next backup would go to .bak.1 — remove what this call created.
      await rm(name, { force: true }).catch(() => undefined);
      throw new SpanproofError('bad-input', `cannot write the backup of the ground-truth file (${errnoCode(e) ?? String(e)}); nothing was changed.`, { file: name, fix: errnoCode(e) === 'ENOSPC' ? 'the disk is full: free some space and try again.' : 'make the folder writable and try again.', cause: e });
    }
  }
  return undefined; // unreachable: the names never run out
}
