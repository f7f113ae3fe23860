/**
 * Corpus loading (SPEC §2). A corpus is the set of files under a root chosen by include/exclude
 * globs; each document's `text` is the file's bytes decoded as UTF-8 (fatal: invalid UTF-8 is skipped,
 * never replaced) with one leading BOM removed and nothing else changed — CRLF stays CRLF. Offsets
 * everywhere are UTF-16 code units into that text.
 */
import type { CorpusDocument } from '../types';


/**
 * A file that was not loaded, and why. `source` is the POSIX path relative to the corpus root.
 *
 * Reasons: `too-large` (over `maxFileBytes`), `not-utf8` (invalid UTF-8), `binary` (contains a NUL
 * byte), `unreadable` (an I/O error or a dangling symbolic link), `outside-root` (a symbolic link whose
 * real path leaves the corpus root — never read, never walked), `symlink-loop` (a symbolic link to a
 * folder that contains it — not walked). Symbolic links that stay inside the root are followed.
 */
export interface SkippedFile {
  source: string;
  reason: 'too-large' | 'not-utf8' | 'binary' | 'unreadable' | 'outside-root' | 'symlink-loop';
  /** Human-readable detail, e.g. `5242880 bytes > limit 4194304` or the byte offset of the bad sequence. */
  detail: string;
}

export interface Corpus {
  /** Absolute path of the corpus root. */
  root: string;
  /** Loaded documents, sorted by `source` byte-wise (UTF-16 code-unit order of the POSIX path). */
  documents: CorpusDocument[];
  /** Files matched by the globs but not loaded, sorted by `source`. */
  skipped: SkippedFile[];
}

export interface CorpusOptions {
  /** Globs relative to the root; default `DEFAULT_SETTINGS.include`. */
  include?: string[];
  /** Globs relative to the root; default `DEFAULT_SETTINGS.exclude`. */
  exclude?: string[];
  /** Files larger than this many bytes are skipped as `too-large`; default `DEFAULT_SETTINGS.maxFileBytes` (4 MiB). */
  maxFileBytes?: number;
}

export { loadCorpus } from './load';
export { decodeDocument, sha256Hex } from './decode';
export { isInside, resolveInside, resolveWritableInside } from './confine';
export { readDocumentInside } from './readInside';
export { GLOB_LIMITS, globMatcher, globProblem } from './glob';
