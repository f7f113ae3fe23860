/**
 * The nearest near-match of a stale quote — for the report and a quick fix only, NEVER a resolution.
 *
 * Method (bounded, O(document tokens)): split quote and document into word tokens (runs of letters,
 * digits and `_`, lower-cased; each Han/Hiragana/Katakana character is its own token). Slide a window
 * of as many document tokens as the quote has over the document, maintaining the multiset overlap
 * Σ_t min(window[t], quote[t]) incrementally. Similarity = overlap / quote token count. The best window
 * (first on ties) is reported when its similarity ≥ `MIN_SIMILARITY`. The window is trimmed to its first
 * and last tokens that occur in the quote, then widened over the quote's leading and trailing non-token
 * text (punctuation, quotes, whitespace) where the document has the same characters next to the window
 * and the window's edge token is the quote's edge token — so a quick fix built from `text` does not cut
 * the closing "." or opening "“" off the quote.
 */
import type { NearMatch } from './index';
import { lineOf } from './text';

/** Windows below this token-overlap similarity are not reported as near-matches. */
export const MIN_SIMILARITY = 0.5;

const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}\p{M}_]+/gu;

interface Token { t: string; start: number; end: number }

/**
 * A document's word tokens (see the module comment), computed once and reused for every stale quote
 * in it: the tokens, and each token's id in the document's vocabulary (so the sliding window counts
 * with typed arrays, not string-keyed maps — 300 stale quotes on a 4 MB document took 38 s in the
 * maps; #16 item 14).
 */
export interface DocumentTokens {
  readonly list: readonly Token[];
  /** ids[i] = vocabulary id of list[i].t */
  readonly ids: Int32Array;
  readonly vocab: ReadonlyMap<string, number>;
}

/** The tokens of a document's text, for {@link nearestMatch}'s third argument. */
export function documentTokens(text: string): DocumentTokens {
  const list = tokens(text);
  const vocab = new Map<string, number>();
  const ids = new Int32Array(list.length);
  for (let i = 0; i < list.length; i++) {
    let id = vocab.get(list[i].t);
    if (id === undefined) vocab.set(list[i].t, (id = vocab.size));
    ids[i] = id;
  }
  return { list, ids, vocab };
}

function tokens(s: string): Token[] {
  const out: Token[] = [];
  for (const m of s.matchAll(TOKEN)) out.push({ t: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length });
  return out;
}

/**
 * The best token-overlap window of `text` for `quote`, or undefined when none reaches `MIN_SIMILARITY`.
 * `docTokens` = documentTokens(text) when the caller has them (one tokenisation per document).
 * Cost: O(document tokens + vocabulary) per quote.
 */
export function nearestMatch(quote: string, text: string, docTokens: DocumentTokens = documentTokens(text)): NearMatch | undefined {
  const q = tokens(quote);
  const m = q.length;
  if (m === 0) return undefined;
  const { list: doc, ids, vocab } = docTokens;
  if (doc.length === 0) return undefined;
  // need[id] = how often the quote has the token; a quote token absent from the document (id −1) never matches
  const need = new Int32Array(vocab.size);
  const qIds = q.map(({ t }) => vocab.get(t) ?? -1);
  for (const id of qIds) if (id >= 0) need[id]++;
  const have = new Int32Array(vocab.size);
  let overlap = 0;
  const w = Math.min(m, doc.length);
  for (let i = 0; i < w; i++) {
    const id = ids[i];
    if (need[id] !== 0 && ++have[id] <= need[id]) overlap++;
  }
  let best = overlap;
  let bestAt = 0;
  for (let i = w; i < doc.length; i++) {
    const inId = ids[i];
    if (need[inId] !== 0 && ++have[inId] <= need[inId]) overlap++;
    const outId = ids[i - w];
    if (need[outId] !== 0 && --have[outId] < need[outId]) overlap--;
    if (overlap > best) { best = overlap; bestAt = i - w + 1; }
  }
  const similarity = Math.round((best / m) * 1000) / 1000;
  if (similarity < MIN_SIMILARITY) return undefined;
  // Trim the window to its first and last tokens that occur in the quote.
  let a = bestAt;
  let b = bestAt + w - 1;
  while (a < b && need[ids[a]] === 0) a++;
  while (b > a && need[ids[b]] === 0) b--;
  let start = doc[a].start;
  let end = doc[b].end;
  // Widen over the quote's leading/trailing punctuation and whitespace where the document agrees.
  if (ids[a] === qIds[0]) {
    const lead = quote.slice(0, q[0].start);
    let k = 0;
    while (k < lead.length && start - 1 - k >= 0 && text.charCodeAt(start - 1 - k) === lead.charCodeAt(lead.length - 1 - k)) k++;
    start -= k;
  }
  if (ids[b] === qIds[m - 1]) {
    const trail = quote.slice(q[m - 1].end);
    let k = 0;
    while (k < trail.length && end + k < text.length && text.charCodeAt(end + k) === trail.charCodeAt(k)) k++;
    end += k;
  }
  // Never split a surrogate pair (the widening compares code units).
  if (start > 0 && isLow(text.charCodeAt(start)) && isHigh(text.charCodeAt(start - 1))) start++;
  if (end < text.length && isLow(text.charCodeAt(end)) && isHigh(text.charCodeAt(end - 1))) end--;
  return { start, end, line: lineOf(text, start), text: text.slice(start, end), similarity };
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;
