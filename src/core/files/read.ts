/**
 * Reading a whole file that the user (or a folder someone else wrote) put in Spanproof's way — a
 * settings.json, a ground truth, a run's files, a cache file, a corpus document, an importer's input —
 * without trusting what is at that path (#16 hardening N1). `readFileSync` on a link to /dev/zero read
 * until memory ran out; on a named pipe (FIFO) it waited forever for a writer. Here the file is
 * opened with O_RDONLY | O_NONBLOCK (opening a FIFO then returns at once), the opened descriptor is
 * fstat-ed (so the check and the read are of the same file, links followed), anything that is not a
 * regular file is refused, and at most `maxBytes` are read from the descriptor — also from a regular
 * file that says it is empty but is not (/proc files) or grows while being read.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SpanproofError } from '../errors';
import { formatBytes } from '../net/fetch';

/** Largest data file read: a ground truth, a run file, an importer's input, a cache file, a document the editor shows (a JS string holds at most ~512 MiB). */
export const MAX_DATA_FILE_BYTES = 256 * 1024 * 1024;
/** Largest settings file read: `.vscode/settings.json` or `--config` (a settings file of 200,000 keys is ~6 MB). */
export const MAX_SETTINGS_FILE_BYTES = 64 * 1024 * 1024;
/** Largest lock file read: one small JSON object or a pid. */
export const MAX_LOCK_FILE_BYTES = 64 * 1024;

/** What the caller says about the file, for the refusal's message. */
export interface ReadCheck {
  /** What the file is, opening the message: `the ground-truth file` (default `this file`). */
  what?: string;
  /** The fix for a file over `maxBytes` (default: make it smaller or choose another file). */
  tooLargeFix?: string;
}

// Windows has no O_NONBLOCK (and no FIFOs at such paths): 0 there.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const CHUNK = 1024 * 1024;

/** Why a file was refused: it is not a regular file (`kind` as {@link nonRegularKind} says), or it holds `size` (or, `atLeast`, more than `size`) bytes > `maxBytes`. */
export type Refusal = { kind: string } | { size: number; atLeast: boolean; maxBytes: number };

/** The reader's refusal: SpanproofError('bad-input') naming the file, with the reason as data for callers that skip instead (the corpus loader). */
export class FileRefusedError extends SpanproofError {
  constructor(message: string, details: { file: string; fix: string }, readonly refusal: Refusal) {
    super('bad-input', message, details);
  }
}

/**
 * What a file that is not a regular file is, for a message: `a named pipe (FIFO)`, `a socket`,
 * `a device`, `a folder`; null for a regular file. Shared with the output-path check (fsErrors.ts).
 */
export function nonRegularKind(st: Pick<Stats, 'isFile' | 'isDirectory' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>): string | null {
  if (st.isFile()) return null;
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** `256 MiB` for a whole number of MiB, else the byte count. */
function limitText(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`;
}

/** ` (it links to /dev/zero)` when `file` is a symbolic link, for the message; '' otherwise or when unknown. */
function linkNote(file: string): string {
  try {
    const real = realpathSync(file);
    return real !== resolve(file) ? ` (it links to ${real})` : '';
  } catch {
    return '';
  }
}

/**
 * The refusal of `file`: a folder keeps Node's own EISDIR error (callers already say "it is a folder"
 * with their fix); a FIFO, device or socket is SpanproofError('bad-input').
 */
function refuseKind(file: string, st: Stats, c: ReadCheck): Error | null {
  const kind = nonRegularKind(st);
  if (kind === null) return null;
  if (st.isDirectory()) return Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${file}'`), { code: 'EISDIR', errno: -21, syscall: 'read', path: file });
  return new FileRefusedError(`${c.what ?? 'this file'} is ${kind}, not a regular file${linkNote(file)}; it was not read.`, {
    file, fix: 'replace it with a regular file (a named pipe, device or socket is never read, also not through a symbolic link).',
  }, { kind });
}

function tooLarge(file: string, size: number, maxBytes: number, c: ReadCheck, atLeast = false): FileRefusedError {
  return new FileRefusedError(`${c.what ?? 'this file'} is ${atLeast ? 'more than ' : ''}${formatBytes(size)}, over the ${limitText(maxBytes)} limit; it was not read.`, {
    file, fix: c.tooLargeFix ?? 'make it smaller, or check that the path names the file you meant.',
  }, { size, atLeast, maxBytes });
}

/** The bytes read so far from one descriptor: the next buffer to read into, and a refusal once more than `maxBytes` came. */
class Collected {
  private readonly chunks: Buffer[] = [];
  private total = 0;
  constructor(private readonly file: string, private readonly size: number, private readonly maxBytes: number, private readonly c: ReadCheck) {}

  /** The buffer for the next read: the file's stated size (+1 to see EOF) first, then as much as was read (8 KiB to 1 MiB), never past `maxBytes` + 1. */
  buffer(): Buffer {
    const want = this.chunks.length === 0 ? this.size + 1 : Math.min(CHUNK, Math.max(8192, this.total));
    return Buffer.allocUnsafe(Math.min(want, this.maxBytes + 1 - this.total));
  }

  /** Takes `n` bytes read into `buf`; false at EOF (n = 0). @throws the too-large refusal past `maxBytes`. */
  add(buf: Buffer, n: number): boolean {
    if (n === 0) return false;
    this.chunks.push(buf.subarray(0, n));
    this.total += n;
    if (this.total > this.maxBytes) throw tooLarge(this.file, this.maxBytes, this.maxBytes, this.c, true);
    return true;
  }

  bytes(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.total);
  }
}

/** The descriptor's file checked: refused unless a regular file of at most `maxBytes`. */
function checkOpened(file: string, st: Stats, maxBytes: number, c: ReadCheck): Collected {
  const refused = refuseKind(file, st, c);
  if (refused) throw refused;
  if (st.size > maxBytes) throw tooLarge(file, st.size, maxBytes, c);
  return new Collected(file, st.size, maxBytes, c);
}

/**
 * The bytes of `file`, read as described above.
 * @throws SpanproofError('bad-input') naming `file` when it is a FIFO, device or socket (also behind a
 *   link) or holds more than `maxBytes` bytes; Node's EISDIR error for a folder; the open error
 *   (ENOENT, EACCES, ELOOP, …) unchanged, so callers keep their own messages for those.
 */
export function readRegularFileSync(file: string, maxBytes: number, c: ReadCheck = {}): Buffer {
  const fd = openSync(file, READ_FLAGS);
  try {
    const got = checkOpened(file, fstatSync(fd), maxBytes, c);
    for (let buf = got.buffer(); got.add(buf, readSync(fd, buf, 0, buf.length, null)); buf = got.buffer());
    return got.bytes();
  } finally {
    closeSync(fd);
  }
}

/** {@link readRegularFileSync} without blocking the event loop. Same errors. */
export async function readRegularFile(file: string, maxBytes: number, c: ReadCheck = {}): Promise<Buffer> {
  const fh = await openForReading(file);
  try {
    return await readOpenedFile(fh, file, maxBytes, c);
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** `file` opened for {@link readOpenedFile}: O_RDONLY | O_NONBLOCK, so a named pipe opens at once (and is then refused). */
export function openForReading(file: string): Promise<FileHandle> {
  return open(file, READ_FLAGS);
}

/** The bytes of the file open as `fh` (named `file` in messages), checked as {@link readRegularFileSync} does; the caller closes `fh`. */
export async function readOpenedFile(fh: FileHandle, file: string, maxBytes: number, c: ReadCheck = {}): Promise<Buffer> {
  const got = checkOpened(file, await fh.stat(), maxBytes, c);
  for (let buf = got.buffer(); got.add(buf, (await fh.read(buf, 0, buf.length, null)).bytesRead); buf = got.buffer());
  return got.bytes();
}

/** {@link readRegularFileSync} decoded as UTF-8 (invalid bytes become U+FFFD, as `readFileSync(file, 'utf8')`). */
export function readRegularTextSync(file: string, maxBytes: number, c: ReadCheck = {}): string {
  return readRegularFileSync(file, maxBytes, c).toString('utf8');
}
