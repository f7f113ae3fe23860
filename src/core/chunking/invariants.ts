/**
 * The chunk invariants of SPEC §4, checked on every chunk of every run.
 */
import { SpanproofError } from '../errors';
import type { Chunk, CorpusDocument } from '../types';
import { chunkId, isSafeBoundary, isWhitespaceCode } from './ranges';

function violation(chunker: string, doc: CorpusDocument, what: string, start?: number, end?: number): never {
  const where = start === undefined ? '' : ` at [${start}, ${end})`;
  throw new SpanproofError('invariant', `chunker "${chunker}" broke an invariant${where}: ${what}.`, {
    file: doc.source,
    field: start === undefined ? undefined : `offsets ${start}-${end}`,
    fix: 'this is a bug in Spanproof; please report it with this document.',
  });
}

/**
 * Checks the chunks of one document: each has `source === doc.source`, integer offsets with
 * `0 ≤ start < end ≤ text.length`, `text === doc.text.slice(start, end)`, id `<source>#<start>-<end>`,
 * no surrounding whitespace, boundaries that split neither a surrogate pair nor a CRLF pair; chunks are
 * in document order (start, then end, ascending); every non-whitespace unit of the text lies in some
 * chunk. Throws SpanproofError('invariant') naming the source and the offending offsets.
 */
export function assertChunkInvariants(doc: CorpusDocument, chunks: readonly Chunk[], chunker: string): void {
  const text = doc.text;
  let covered = 0; // every non-whitespace unit before this offset is covered
  let prevStart = -1;
  let prevEnd = -1;
  for (const c of chunks) {
    const { start, end } = c;
    if (c.source !== doc.source) violation(chunker, doc, `chunk source is "${c.source}"`, start, end);
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start || end > text.length) {
      violation(chunker, doc, `offsets out of range for a text of ${text.length} UTF-16 code units`, start, end);
    }
    if (text.slice(start, end) !== c.text) violation(chunker, doc, 'chunk text differs from text.slice(start, end)', start, end);
    if (c.id !== chunkId(doc.source, start, end)) violation(chunker, doc, `chunk id is "${c.id}"`, start, end);
    if (isWhitespaceCode(text.charCodeAt(start)) || isWhitespaceCode(text.charCodeAt(end - 1))) {
      violation(chunker, doc, 'chunk is not trimmed of surrounding whitespace', start, end);
    }
    if (!isSafeBoundary(text, start) || !isSafeBoundary(text, end)) {
      violation(chunker, doc, 'chunk boundary splits a surrogate pair or a CRLF pair', start, end);
    }
    if (start < prevStart || (start === prevStart && end <= prevEnd)) {
      violation(chunker, doc, `chunk out of document order after [${prevStart}, ${prevEnd})`, start, end);
    }
    for (let i = covered; i < start; i++) {
      if (!isWhitespaceCode(text.charCodeAt(i))) violation(chunker, doc, `non-whitespace offset ${i} is in no chunk`, i, i + 1);
    }
    covered = Math.max(covered, end);
    prevStart = start;
    prevEnd = end;
  }
  for (let i = covered; i < text.length; i++) {
    if (!isWhitespaceCode(text.charCodeAt(i))) violation(chunker, doc, `non-whitespace offset ${i} is in no chunk`, i, i + 1);
  }
}
