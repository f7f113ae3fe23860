/**
 * File-system errors on paths the user chose (`--out`, `--workspace`) are the user's input, not a bug:
 * {@link outputPathError} turns them into SpanproofError('bad-input') (CLI exit 2) naming the path and
 * the fix. Anything else is returned unchanged so it still surfaces as an internal error (exit 3).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { SpanproofError, isSpanproofError } from './errors';
import { nonRegularKind, readRegularTextSync } from './files/read';

/** The errno code of `e`, or of its `cause` (writeFileAtomic wraps the Node error). */
export function errnoCode(e: unknown): string | undefined {
  for (let x: unknown = e, depth = 0; x && typeof x === 'object' && depth < 4; x = (x as { cause?: unknown }).cause, depth++) {
    const code = (x as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  }
  return undefined;
}

const REASONS: Record<string, { why: string; fix: string }> = {
  EISDIR: { why: 'it is a folder', fix: 'give a file path, e.g. <folder>/out.jsonl.' },
  ENOTDIR: { why: 'a part of the path is a file, not a folder', fix: 'check the path; every part before the file name must be a folder.' },
  ENOENT: { why: 'its folder does not exist', fix: 'create the folder first, or choose another path.' },
  EACCES: { why: 'permission denied', fix: 'choose a path you can write to, or change its permissions.' },
  EPERM: { why: 'operation not permitted', fix: 'choose a path you can write to, or change its permissions.' },
  EROFS: { why: 'the file system is read-only', fix: 'choose a path on a writable disk.' },
  ENOSPC: { why: 'the disk is full', fix: 'free some space or choose another disk.' },
  EDQUOT: { why: 'the disk quota is exceeded', fix: 'free some space or choose another disk.' },
  EEXIST: { why: 'something else already exists there', fix: 'choose another path, or move that file away.' },
  ENAMETOOLONG: { why: 'the path is too long', fix: 'choose a shorter path.' },
};

/**
 * Maps an fs error raised while writing `file` (a user-given output path, or a file under a
 * user-given folder) to SpanproofError('bad-input') "cannot write <what> (<why>, <CODE>)" with a fix.
 * Returns `e` unchanged when it is not such an error (an unknown errno, a non-fs error, or already a
 * bad-input/not-found SpanproofError), so callers write `throw outputPathError(e, file, '--out')`.
 * @param what what the user gave, e.g. `--out`, `the workspace` (shown in the message).
 * @param fix overrides the default fix for the errno.
 */
export function outputPathError(e: unknown, file: string, what: string, fix?: string): unknown {
  if (isSpanproofError(e) && e.code !== 'internal') return e;
  const code = errnoCode(e);
  const r = code ? REASONS[code] : undefined;
  if (!code || !r) return e;
  return new SpanproofError('bad-input', `cannot write ${what} (${r.why}, ${code}).`, { file, fix: fix ?? r.fix, cause: e });
}

/**
 * A full disk (ENOSPC, EDQUOT) under any file Spanproof writes — a run's files, a cache, stdout
 * redirected to a file — is the user's environment, not a bug: {@link outputPathError} with `fix`
 * ("cannot write <what> (the disk is full, ENOSPC)", CLI exit 2). Any other error is returned unchanged.
 */
export function diskFullError(e: unknown, fix: string, what = 'this file'): unknown {
  const code = errnoCode(e);
  if (code !== 'ENOSPC' && code !== 'EDQUOT') return e;
  const file = (isSpanproofError(e) ? e.file : undefined) ?? (e as { path?: unknown }).path;
  return outputPathError(e, typeof file === 'string' ? file : '', what, fix);
}

/**
 * Checks a user-given output file path before any work: it must not be a folder, a device, a FIFO
 * or a socket (not even with `overwrite`), no part of its
 * folder path may be a file, and an existing file is replaced only when `overwrite` is true (the
 * command's `--force`; issue #16 item 8 — a report written over groundtruth.json or a corpus
 * document destroyed it).
 * @throws SpanproofError('bad-input') naming `file` and the fix (`example` is a file name to suggest
 *   inside the folder, e.g. `chunks.jsonl`; `forceFlag` is the flag that allows an overwrite).
 */
export function checkOutputFile(file: string, what: string, example: string, overwrite = false, forceFlag = '--force'): void {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(file, { throwIfNoEntry: false });
  } catch (e) {
    throw outputPathError(e, file, what);
  }
  if (st?.isDirectory()) throw new SpanproofError('bad-input', `cannot write ${what} (it is a folder).`, { file, fix: `give a file path, e.g. ${join(file, example)}.` });
  // the write renames a temp file over the target: a device, FIFO or socket would be replaced by a
  // regular file (as root, `--out /dev/full --force` did that to /dev/full) — never, even with --force
  const kind = st ? nonRegularKind(st) : null;
  if (kind) throw new SpanproofError('bad-input', `cannot write ${what}: it is ${kind}, not a regular file; it was not touched.`, { file, fix: `give the path of a regular file, e.g. ${example} in the current folder (or leave ${what} out to print to stdout).` }); // not beside the device: /dev/report.md is no place for a report
  if (st && !overwrite) throw new SpanproofError('bad-input', `${what} would overwrite an existing file.`, { file, fix: `choose another file, or add ${forceFlag} to replace it.` });
  // Questions someone wrote by hand are never the price of a mistyped --out (a link to it counts too).
  if (st && isGroundTruthFile(file, Number(st.size))) throw new SpanproofError('bad-input', `${what} is a Spanproof ground-truth file; ${forceFlag} never replaces one.`, { file, fix: `write to another file, e.g. ${example}.` });
}

/** Largest file {@link isGroundTruthFile} parses (a ground truth of ~100k questions); a larger one is not taken for one. */
const GROUND_TRUTH_SNIFF_BYTES = 64 * 1024 * 1024;

/** True when `file` (of `size` bytes) holds one JSON object with a numeric `spanproof` version and a `questions` array — a ground truth by any name. */
function isGroundTruthFile(file: string, size: number): boolean {
  if (size > GROUND_TRUTH_SNIFF_BYTES) return false;
  try {
    const text = readRegularTextSync(file, GROUND_TRUTH_SNIFF_BYTES);
    if (!/^\uFEFF?\s*\{/.test(text)) return false;
    const v = JSON.parse(text.replace(/^\uFEFF/, '')) as { spanproof?: unknown; questions?: unknown };
    return typeof v.spanproof === 'number' && Array.isArray(v.questions);
  } catch {
    return false; // unreadable, not JSON, nested too deep: not a ground truth this check can protect
  }
}
