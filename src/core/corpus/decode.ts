/**
 * Decoding one file's bytes into a document (SPEC §1, §2): strict UTF-8, one leading BOM removed,
 * nothing else changed. Files containing NUL bytes are binary (this also catches UTF-16 files).
 */
import { createHash } from 'node:crypto';
import type { CorpusDocument } from '../types';
import type { SkippedFile } from './index';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Decode `bytes` (the whole file) as the document `source`. Returns a `SkippedFile` instead of
 * throwing when the bytes contain NUL (`binary`) or are not valid UTF-8 (`not-utf8`, detail names the
 * byte offset of the first invalid sequence). `bytes` of the result is `bytes.length`.
 */
export function decodeDocument(source: string, bytes: Uint8Array): CorpusDocument | SkippedFile {
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    return { source, reason: 'binary', detail: `contains a NUL byte at byte ${nul} (a binary or UTF-16 file)` };
  }
  let text: string;
  try {
    text = utf8.decode(bytes); // ignoreBOM: false → one leading U+FEFF is stripped
  } catch {
    return { source, reason: 'not-utf8', detail: `invalid UTF-8 at byte ${firstInvalidUtf8(bytes)}` };
  }
  return { source, text, sha256: sha256Hex(text), bytes: bytes.length };
}

/** Hex SHA-256 of `text` encoded as UTF-8. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Byte offset of the first invalid UTF-8 sequence (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF),
 * or -1 when the bytes are valid. Used only to name the position in the skip reason.
 */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    if (c < 0x80) { i++; continue; }
    let n: number; let lo = 0x80; let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) { n = 2; if (c === 0xe0) lo = 0xa0; if (c === 0xed) hi = 0x9f; }
    else if (c >= 0xf0 && c <= 0xf4) { n = 3; if (c === 0xf0) lo = 0x90; if (c === 0xf4) hi = 0x8f; }
    else return i;
    for (let k = 1; k <= n; k++) {
      const d = b[i + k];
      if (d === undefined) return i;
      if (k === 1 ? d < lo || d > hi : d < 0x80 || d > 0xbf) return i;
    }
    i += n + 1;
  }
  return -1;
}
