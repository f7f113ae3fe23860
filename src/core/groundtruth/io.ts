/**
 * Reading and atomically writing ground-truth files (SPEC §3.1, §16). Reading never modifies the file.
 */
import { statSync } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { SpanproofError, isSpanproofError } from '../errors';
import { openAtomicFile } from '../files';
import { MAX_DATA_FILE_BYTES, openForReading, readOpenedFile, readRegularFile } from '../files/read';
import { errnoCode } from '../fsErrors';
import type { GroundTruthFile } from './index';
import { parseGroundTruth, serializeGroundTruth } from './schema';
import { removeOrphanTemps, withFileLock } from './lock';
import { makeDirs } from '../files/dirs';
import { backupGroundTruth } from './backup';

/**
 * Read and validate a ground-truth file.
 * @throws SpanproofError('not-found') when the file does not exist; ('bad-input') when it is not
 *   readable UTF-8 JSON of the §3.1 shape (message names file, JSON path and fix).
 */
export async function readGroundTruth(file: string): Promise<GroundTruthFile> {
  return parseGroundTruth(await readText(file), file);
}

/**
 * Like `readGroundTruth`, also returning the file's exact text — pass it as `expectedContent` to
 * `writeGroundTruth` to refuse overwriting a concurrent change. Same errors as `readGroundTruth`.
 */
export async function readGroundTruthWithText(file: string): Promise<{ gt: GroundTruthFile; text: string }> {
  const text = await readText(file);
  return { gt: parseGroundTruth(text, file), text };
}

/** How the ground truth is named when the reader refuses it (src/core/files/read.ts). */
const GT_READ = { what: 'the ground-truth file', tooLargeFix: 'split the questions into several ground-truth files (each one passed with --groundtruth).' };

async function readText(file: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(file, MAX_DATA_FILE_BYTES, GT_READ);
  } catch (e) {
    if (isSpanproofError(e)) throw e; // a FIFO, a device, too large: said by the reader
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new SpanproofError('not-found', 'ground-truth file not found.', {
        file, fix: 'create it in the editor (Spanproof: New Question from Selection), import one with `spanproof import`, or pass --groundtruth FILE.', cause: e,
      });
    }
    if (code === 'EISDIR') {
      throw new SpanproofError('bad-input', 'the ground-truth path is a folder, not a file.', {
        file, fix: `point --groundtruth or the groundTruthPath setting (spanproof.groundTruthPath in .vscode/settings.json) at a JSON file, e.g. ${path.join(file, 'groundtruth.json')}.`, cause: e,
      });
    }
    throw new SpanproofError('bad-input', `cannot read the ground-truth file (${code ?? String(e)}).`, { file, fix: 'check that the path is a readable file.', cause: e });
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (e) {
    throw new SpanproofError('bad-input', 'the ground-truth file is not valid UTF-8.', { file, fix: 'save it as UTF-8.', cause: e });
  }
}

/** The file a write goes to: the target of a symbolic link (the link stays a link), else `file` itself. */
async function writeTarget(file: string): Promise<string> {
  try {
    return (await lstat(file)).isSymbolicLink() ? await realpath(file) : file;
  } catch {
    return file; // does not exist yet (a dangling link fails at the write, naming it)
  }
}

/** What a failed write of the ground truth says: "disk full" for ENOSPC/EDQUOT, the errno otherwise. */
function writeFailure(file: string, e: unknown): SpanproofError {
  const code = errnoCode(e);
  if (code === 'ENOSPC' || code === 'EDQUOT') return new SpanproofError('bad-input', `cannot write the ground-truth file: the disk is full (${code}); the file was not changed.`, { file, fix: 'free some disk space and save again.', cause: e });
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return new SpanproofError('bad-input', `cannot write the ground-truth file (${code}: ${code === 'EROFS' ? 'read-only file system' : 'permission denied'}).`, { file, fix: 'make the file and its folder writable, or copy the workspace somewhere writable.', cause: e });
  return new SpanproofError('bad-input', `cannot write the ground-truth file (${code ?? String(e)}).`, { file, fix: 'check that the folder is writable.', cause: e });
}

/**
 * Write `gt` to `file` atomically (src/core/files `writeFileAtomicAsync`: temp, fsync, rename, folder fsync), creating the folder
 * if needed, under the file's lock (./lock: `open(lock, 'wx')`, stale locks recovered), so the
 * "unchanged since read" check and the rename are one step across processes (#16 item 7). Keeps the
 * existing file's indentation and permission bits; a symbolic link stays a link (its target is
 * written). Temporary files left by killed writes are removed first (#16 item 9). Does not write when
 * the serialised content equals the file's current content. After the rename the file is read back:
 * if a writer that does not take the lock replaced it meanwhile, the write is reported as refused.
 * @param opts.expectedContent when given, the write is refused with SpanproofError('bad-input') if the
 *   file's current content differs (someone else changed it since it was read); `null` = expect no file.
 * @param opts.lockTimeoutMs how long to wait for another writer's lock (default 10 000 ms).
 * @throws SpanproofError('bad-input'): changed on disk; read-only file (nothing written); disk full;
 *   permission denied; locked by a live process past the timeout.
 * @returns whether the file was written.
 */
export async function writeGroundTruth(file: string, gt: GroundTruthFile, opts: { expectedContent?: string | null; lockTimeoutMs?: number } = {}): Promise<boolean> {
  return writeGroundTruthText(file, (current) => serializeGroundTruth(gt, { like: current }), opts);
}

/**
 * Write the text `render(current)` computes from the file's current content (null = no file) to
 * `file`, with every rule of {@link writeGroundTruth} (lock, atomic write, mode and link kept,
 * read-only refused, re-verified); no write when it equals the current content. For text-level edits
 * that must leave every other byte of the file as it is (drafted questions are inserted and accepted
 * this way, so hand-written questions stay byte-identical). Same `expectedContent` rule and errors.
 * A leading UTF-8 BOM is not part of the text `render` sees or `expectedContent` is compared with
 * (readers drop it); a file that had one keeps it.
 * @returns whether the file was written.
 */
export async function writeGroundTruthText(file: string, render: (current: string | null) => string, opts: { expectedContent?: string | null; lockTimeoutMs?: number } = {}): Promise<boolean> {
  return (await replaceGroundTruthText(file, render, { ...opts, backup: false })).written;
}

/**
 * {@link writeGroundTruthText}, and with `backup` (the default) the version it replaces is first kept
 * as a backup (./backup: the first free `.bak` name, never overwriting one; the exact bytes, BOM
 * included, with the file's permission bits) — inside the lock, after the checks, so a refused write
 * (read-only, changed on disk) leaves no backup of a version that was not replaced.
 * @returns whether the file was written and the backup's name (none when nothing was written or there was no file).
 * @throws as writeGroundTruthText; SpanproofError('bad-input') naming the backup when it cannot be written (nothing replaced).
 */
export async function replaceGroundTruthText(file: string, render: (current: string | null) => string, opts: { expectedContent?: string | null; lockTimeoutMs?: number; backup?: boolean } = {}): Promise<{ written: boolean; backup?: string }> {
  const target = await writeTarget(file);
  const dir = path.dirname(target);
  try {
    makeDirs(dir);
  } catch (e) {
    throw writeFailure(file, e);
  }
  return withFileLock(target, () => writeLocked(file, target, render, opts), { timeoutMs: opts.lockTimeoutMs }).catch((e) => {
    throw isSpanproofError(e) ? e : writeFailure(file, e); // creating the lock failed (disk full, read-only folder)
  });
}

/** What identifies the version of the file that was read: inode, size, modification time (ns); null = no file. */
type Version = { ino: bigint; size: bigint; mtimeNs: bigint } | null;

/** What {@link readVersioned} read: the text without a leading BOM (as readers see it), the exact bytes, whether they began with a BOM, the permission bits and the version. */
interface ReadVersion { text: string | null; bytes?: Buffer; bom?: boolean; mode?: number; version: Version }

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** Reads `target` and the version it read (stat before and after the read on the same handle); null text = no file. */
async function readVersioned(file: string, target: string): Promise<ReadVersion> {
  let fh;
  try {
    fh = await openForReading(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { text: null, version: null };
    throw new SpanproofError('bad-input', 'cannot read the ground-truth file before writing it.', { file, cause: e });
  }
  try {
    const before = await fh.stat({ bigint: true });
    const bytes = await readOpenedFile(fh, file, MAX_DATA_FILE_BYTES, GT_READ);
    const after = await fh.stat({ bigint: true });
    if (before.mtimeNs !== after.mtimeNs || before.size !== after.size) throw changedOnDisk(file); // written in place while being read
    const bom = bytes.subarray(0, 3).equals(UTF8_BOM);
    // The text as readGroundTruth gives it (TextDecoder drops a BOM), so what a caller read compares equal.
    return { text: bytes.toString('utf8', bom ? 3 : 0), bytes, bom, mode: Number(after.mode & 0o7777n), version: { ino: after.ino, size: after.size, mtimeNs: after.mtimeNs } };
  } catch (e) {
    if (isSpanproofError(e)) throw e;
    throw new SpanproofError('bad-input', 'cannot read the ground-truth file before writing it.', { file, cause: e });
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** The version of `target` on disk now (sync: used right before the rename). */
function versionNow(target: string): Version {
  try {
    const st = statSync(target, { bigint: true });
    return { ino: st.ino, size: st.size, mtimeNs: st.mtimeNs };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

function sameVersion(a: Version, b: Version): boolean {
  return a === null || b === null ? a === b : a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

function changedOnDisk(file: string): SpanproofError {
  return new SpanproofError('bad-input', 'the ground-truth file changed on disk since it was read; not overwriting it — run again.', {
    file, fix: 'reload the file and apply the change again (for `validate --fix`: run it again).',
  });
}

/**
 * The part of {@link writeGroundTruthText} done while holding the lock. An editor or script that does
 * not take the lock can replace the file at any moment, and POSIX has no compare-and-swap rename, so
 * all the slow work (rendering, writing and fsyncing the temporary file) is done first and the file's
 * version (inode, size, mtime in ns) is compared with the one read synchronously right before the
 * rename: a change is refused, and the window left is the microseconds between that check and the
 * rename (#16 item 7; docs/ground-truth.md).
 */
async function writeLocked(file: string, target: string, render: (current: string | null) => string, opts: { expectedContent?: string | null; backup?: boolean }): Promise<{ written: boolean; backup?: string }> {
  removeOrphanTemps(target);
  const { text: current, bytes, bom, mode, version } = await readVersioned(file, target);
  const expected = typeof opts.expectedContent === 'string' ? withoutBom(opts.expectedContent) : opts.expectedContent;
  if (expected !== undefined && current !== expected) throw changedOnDisk(file);
  const text = withoutBom(render(current));
  if (text === current) return { written: false };
  if (mode !== undefined && (mode & 0o222) === 0) {
    throw new SpanproofError('bad-input', 'the ground-truth file is read-only; it was not changed.', { file, fix: `make it writable (chmod u+w ${file}) to save changes, or keep it read-only on purpose.` });
  }
  const backup = opts.backup !== false && bytes ? await backupGroundTruth(file, bytes, mode) : undefined;
  const onDisk = bom ? `\uFEFF${text}` : text; // a BOM the file had is kept
  let out;
  try {
    out = await openAtomicFile(target, { mode }); // src/core/files: temp, fsync, rename, folder fsync
    await out.write(onDisk);
  } catch (e) {
    throw writeFailure(file, e);
  }
  try {
    await out.commit(() => {
      if (!sameVersion(versionNow(target), version)) throw changedOnDisk(file);
    });
  } catch (e) {
    throw isSpanproofError(e) && e.code === 'bad-input' ? e : writeFailure(file, e);
  }
  // Re-verify: a writer that does not take the lock (an older Spanproof, a script) may have replaced it.
  if ((await readRegularFile(target, MAX_DATA_FILE_BYTES).then((b) => b.toString('utf8'), () => null)) !== onDisk) {
    throw new SpanproofError('bad-input', 'the ground-truth file changed on disk while it was being written; the change may not have been saved.', { file, fix: 'reload the file and apply the change again.' });
  }
  return { written: true, ...(backup ? { backup } : {}) };
}
