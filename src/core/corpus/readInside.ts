/**
 * Reading one document named by data (a ground-truth `source`, a panel request) under a root folder
 * with the corpus loader's rule (./confine.ts `resolveInside`: real paths, so `..`, absolute paths and
 * symbolic links out of the root are refused alike) and its decoder (./decode.ts). Used by the
 * extension's ground-truth store and the results panel's `readSpan` (issue #16 item 6), so the editor
 * reads exactly what the CLI would.
 */
import { decodeDocument } from './decode';
import { resolveInside } from './confine';
import type { SkippedFile } from './index';
import { isSpanproofError } from '../errors';
import { MAX_DATA_FILE_BYTES, readRegularFileSync } from '../files/read';
import { readSkip } from './load';

/**
 * The text of `source` (a `/`-separated path relative to `root`), or why it cannot be used: a
 * SkippedFile with reason `outside-root` (the path or a link leaves the root), `unreadable` (missing,
 * no permission, a named pipe or device), `too-large` (over `maxFileBytes`, default
 * {@link MAX_DATA_FILE_BYTES}: the editor shows any document the corpus setting allows), or the decoder's reason (binary, not UTF-8, …) — the loader's reasons (./load.ts). Never throws.
 */
export function readDocumentInside(root: string, source: string, maxFileBytes = MAX_DATA_FILE_BYTES): { text: string } | SkippedFile {
  let file: string;
  try {
    file = resolveInside(root, source, `source "${source}"`, 'the workspace folder');
  } catch (e) {
    return { source, reason: 'outside-root', detail: e instanceof Error ? e.message : String(e) };
  }
  let bytes: Buffer;
  try {
    bytes = readRegularFileSync(file, maxFileBytes);
  } catch (e) {
    return isSpanproofError(e) ? readSkip(source, e) : { source, reason: 'unreadable', detail: (e as NodeJS.ErrnoException).code ?? String(e) };
  }
  const d = decodeDocument(source, bytes);
  return 'text' in d ? { text: d.text } : d;
}
