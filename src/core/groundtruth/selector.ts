/**
 * Making a selector from an editor selection (SPEC §3.3).
 */
import { SpanproofError } from '../errors';
import type { EvidenceSelector } from './index';

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/**
 * A TextQuoteSelector + TextPositionSelector for `text[start, end)` of `source`, with up to `context`
 * (default 32) UTF-16 code units of prefix and suffix (omitted when empty). A selection edge that
 * splits a surrogate pair or a `\r\n` pair is widened to include the whole pair; the prefix/suffix are
 * shortened by one unit rather than cut a surrogate pair.
 * @throws SpanproofError('bad-input') for offsets out of range or an empty / whitespace-only selection.
 */
export function makeSelector(text: string, source: string, start: number, end: number, context = 32): EvidenceSelector {
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > text.length || start > end) {
    throw new SpanproofError('bad-input', `selection [${start}, ${end}) is outside the document (length ${text.length}).`, { file: source, fix: 'select text inside the document.' });
  }
  if (start > 0 && start < text.length && (isLow(text.charCodeAt(start)) && isHigh(text.charCodeAt(start - 1)) || text.charCodeAt(start) === 10 && text.charCodeAt(start - 1) === 13)) start--;
  if (end > 0 && end < text.length && (isLow(text.charCodeAt(end)) && isHigh(text.charCodeAt(end - 1)) || text.charCodeAt(end) === 10 && text.charCodeAt(end - 1) === 13)) end++;
  const exact = text.slice(start, end);
  if (exact.trim() === '') {
    throw new SpanproofError('bad-input', exact === '' ? 'the selection is empty.' : 'the selection contains only whitespace.', {
      file: source, fix: 'select the passage that answers the question.',
    });
  }
  let ps = Math.max(0, start - context);
  if (ps > 0 && isLow(text.charCodeAt(ps)) && isHigh(text.charCodeAt(ps - 1))) ps++;
  let se = Math.min(text.length, end + context);
  if (se < text.length && isLow(text.charCodeAt(se)) && isHigh(text.charCodeAt(se - 1))) se--;
  const prefix = text.slice(ps, start);
  const suffix = text.slice(end, se);
  return { source, exact, ...(prefix ? { prefix } : {}), ...(suffix ? { suffix } : {}), start, end };
}
