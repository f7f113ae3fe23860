/**
 * The one way Spanproof writes a file: atomically and durably. The data goes to a hidden temporary
 * sibling (`.<name>.<pid>.<random>.tmp`, same folder, so the rename cannot cross file systems), is
 * flushed to disk (fsync), renamed over the target, and the folder is fsynced so the rename itself
 * survives a power loss. A reader sees the old file or the new one, never a half-written one; a
 * failed write removes its temporary file and leaves the target as it was.
 *
 * Three entry points share that sequence: {@link writeFileAtomic} (sync: run files, caches),
 * {@link writeFileAtomicAsync} (the ground truth, written from the editor), {@link openAtomicFile}
 * (streamed output such as `spanproof chunks`).
 *
 * Errors: the Node error is wrapped in SpanproofError('internal') naming the file, with the Node
 * error as `cause` (so `errnoCode(e)` of src/core/fsErrors finds `ENOSPC`, `EACCES`, …); callers
 * that write a path the user chose map it with `outputPathError`.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SpanproofError } from '../errors';

/** The temporary sibling of `file`: hidden, unique per process and call. */
function tempPathOf(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * Flushes a folder's entries (the rename) to disk. Windows cannot open a folder for fsync, and some
 * file systems refuse it (EINVAL, EISDIR, EPERM): the rename is atomic there all the same.
 */
function fsyncDir(dir: string): void {
  if (process.platform === 'win32') return;
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    /* not supported by this file system; see above */
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function writeError(file: string, e: unknown): SpanproofError {
  return new SpanproofError('internal', `could not write ${file}: ${(e as Error).message}`, { file, cause: e });
}

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /**
   * false: atomic but not durable — no fsync of the file or folder, so after a power loss the target
   * may be the old file, or (on some file systems) empty or short. Only for derived data whose reader
   * validates it and recomputes (the disk caches: the fsyncs were ≈ 1.2 s of a cold 24-config run
   * writing ≈ 1,200 cache files). Default true.
   */
  durable?: boolean;
}

/**
 * Writes `data` to `file` atomically and durably (temp + fsync + rename + folder fsync; see
 * {@link AtomicWriteOptions.durable} for caches). The folder must exist. Text is written as UTF-8.
 * @throws SpanproofError('internal') naming `file`, the Node error as `cause`; the target is unchanged.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): void {
  const durable = opts.durable ?? true;
  const tmp = tempPathOf(file);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx');
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
    if (durable) fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, file);
  } catch (e) {
    if (fd !== undefined) try { closeSync(fd); } catch { /* already failing */ }
    try { unlinkSync(tmp); } catch { /* never created, or already renamed */ }
    throw writeError(file, e);
  }
  if (durable) fsyncDir(dirname(file));
}

/** A file being written atomically: nothing is visible at `file` until {@link AtomicFile.commit}. */
export interface AtomicFile {
  /** Appends text (UTF-8) or bytes. */
  write(data: string | Uint8Array): Promise<void>;
  /**
   * fsync, rename over the target, fsync the folder. `beforeRename`, when given, runs synchronously
   * right before the rename, after all the slow work (write, fsync, close) — with no await between it
   * and the rename, so a check it makes (e.g. "the target is unchanged since it was read") holds up to
   * the rename but for microseconds. When it throws, the temporary file is removed, the target is
   * untouched and its error is rethrown as it is.
   */
  commit(beforeRename?: () => void): Promise<void>;
  /** Closes and removes the temporary file; the target is untouched. Safe to call after a failure. */
  abort(): Promise<void>;
}

/** Options of an async atomic write. */
export interface AtomicWriteOptions {
  /**
   * Permission bits of the new file (e.g. the replaced file's `mode & 0o7777`, so a rewrite keeps a
   * 0600 file private); set explicitly, the umask does not change them. Default: 0o666 minus the umask.
   */
  mode?: number;
}

/**
 * Opens `file` for an atomic streamed write (temporary sibling, see the module comment).
 * @throws SpanproofError('internal') naming `file` when the temporary file cannot be created (its
 *   `cause` carries the errno, e.g. ENOENT for a missing folder).
 */
export async function openAtomicFile(file: string, opts: AtomicWriteOptions = {}): Promise<AtomicFile> {
  const tmp = tempPathOf(file);
  let fh: FileHandle | null = null;
  try {
    fh = await open(tmp, 'wx', opts.mode ?? 0o666);
    if (opts.mode !== undefined) await fh.chmod(opts.mode);
  } catch (e) {
    if (fh) {
      await fh.close().catch(() => undefined);
      await unlink(tmp).catch(() => undefined);
    }
    throw writeError(file, e);
  }
  const fail = async (e: unknown): Promise<never> => {
    await abort();
    throw writeError(file, e);
  };
  const abort = async (): Promise<void> => {
    const h = fh;
    fh = null;
    if (h) await h.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
  };
  return {
    async write(data) {
      if (!fh) throw writeError(file, new Error('the file was already committed or aborted'));
      try {
        await fh.write(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
      } catch (e) {
        await fail(e);
      }
    },
    async commit(beforeRename) {
      if (!fh) throw writeError(file, new Error('the file was already committed or aborted'));
      try {
        await fh.sync();
        await fh.close();
        fh = null;
      } catch (e) {
        await fail(e);
      }
      try {
        beforeRename?.();
      } catch (e) {
        await abort();
        throw e;
      }
      try {
        renameSync(tmp, file); // sync: nothing runs between beforeRename's check and the rename
      } catch (e) {
        await fail(e);
      }
      fsyncDir(dirname(file));
    },
    abort,
  };
}

/**
 * Async {@link writeFileAtomic}: the same sequence without blocking the event loop (the extension
 * host writes the ground truth this way). The folder must exist.
 * @throws SpanproofError('internal') naming `file`, the Node error as `cause`; the target is unchanged.
 */
export async function writeFileAtomicAsync(file: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  const f = await openAtomicFile(file, opts);
  await f.write(data);
  await f.commit();
}
