/**
 * Backups of the ground truth before it is replaced (#16 item 8). A backup is never overwritten: the
 * copy goes to the first free name of `<file>.bak`, `<file>.bak.1`, `<file>.bak.2`, … (created with
 * `open(…, 'wx')`, so two writers never take the same name), and a version identical to an existing
 * backup is not copied again. So after an import kept the hand-written file as `.bak`, a later
 * `validate --fix`, `draft` or `review` cannot destroy the only copy of it.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { errnoCode } from '../fsErrors';
import { SpanproofError } from '../errors';

/** The candidate backup names of `file`, in order: `.bak`, `.bak.1`, `.bak.2`, … */
function* backupNames(file: string): Generator<string> {
  yield `${file}.bak`;
  for (let n = 1; ; n++) yield `${file}.bak.${n}`;
}

/**
 * Keeps `current` (the file's text as read before the write; null = there is no file) as a backup of
 * `file`: returns the name of an existing backup with exactly this text, else writes it to the first
 * free backup name and returns that; undefined when `current` is null.
 * @throws SpanproofError('bad-input') naming the backup when it cannot be written (disk full,
 *   permission) — callers write nothing then, and no partial backup is left under that name.
 */
export async function backupGroundTruth(file: string, current: string | null): Promise<string | undefined> {
  if (current === null) return undefined;
  for (const name of backupNames(file)) {
    const existing = await readFile(name, 'utf8').catch((e: unknown) => (errnoCode(e) === 'ENOENT' ? null : ''));
    if (existing === current) return name;
    if (existing !== null) continue; // taken (or unreadable): never overwritten
    try {
      await writeFile(name, current, { flag: 'wx' });
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
