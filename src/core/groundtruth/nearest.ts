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

/** A document's word tokens (see the module comment), computed once and reused for every stale quote in it. */
export type DocumentTokens = readonly Token[];

/** The tokens of a document's text, for {@link nearestMatch}'s third argument. */
export function documentTokens(text: string): DocumentTokens {
  return tokens(text);
}

function tokens(s: string): Token[] {
  const out: Token[] = [];
  for (const m of s.matchAll(TOKEN)) out.push({ t: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length });
  return out;
}

/**
 * The best token-overlap window of `text` for `quote`, or undefined when none reaches `MIN_SIMILARITY`.
 * `docTokens` = documentTokens(text) when the caller has them (one tokenisation per document).
 */
export function nearestMatch(quote: string, text: string, docTokens: DocumentTokens = tokens(text)): NearMatch | undefined {
  const q = tokens(quote);
  const m = q.length;
  if (m === 0) return undefined;
  const need = new Map<string, number>();
  for (const { t } of q) need.set(t, (need.get(t) ?? 0) + 1);
  const doc = docTokens;
  if (doc.length === 0) return undefined;
  const have = new Map<string, number>();
  let overlap = 0;
  const add = (t: string): void => {
    const n = need.get(t);
    if (n === undefined) return;
    const h = (have.get(t) ?? 0) + 1;
    have.set(t, h);
    if (h <= n) overlap++;
  };
  const remove = (t: string): void => {
    const n = need.get(t);
    if (n === undefined) return;
    const h = have.get(t)! - 1;
    have.set(t, h);
    if (h < n) overlap--;
  };
  const w = Math.min(m, doc.length);
  for (let i = 0; i < w; i++) add(doc[i].t);
  let best = overlap;
  let bestAt = 0;
  for (let i = w; i < doc.length; i++) {
    add(doc[i].t);
    remove(doc[i - w].t);
    if (overlap > best) { best = overlap; bestAt = i - w + 1; }
  }
  const similarity = Math.round((best / m) * 1000) / 1000;
  if (similarity < MIN_SIMILARITY) return undefined;
  // Trim the window to its first and last tokens that occur in the quote.
  let a = bestAt;
  let b = bestAt + w - 1;
  while (a < b && !need.has(doc[a].t)) a++;
  while (b > a && !need.has(doc[b].t)) b--;
  let start = doc[a].start;
  let end = doc[b].end;
  // Widen over the quote's leading/trailing punctuation and whitespace where the document agrees.
  if (doc[a].t === q[0].t) {
    const lead = quote.slice(0, q[0].start);
    let k = 0;
    while (k < lead.length && start - 1 - k >= 0 && text.charCodeAt(start - 1 - k) === lead.charCodeAt(lead.length - 1 - k)) k++;
    start -= k;
  }
  if (doc[b].t === q[m - 1].t) {
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
