/**
 * Keyword overlap in the style of the memory-eval harness (SEED-SYSTEMS.md §E, "Luochuan"):
 * hit_rate = |kw(reference) ∩ kw(generated)| / max(|kw(reference)|, 1), where kw(text) is a set
 * of lowercased tokens longer than one character.
 *
 * Two tokenisers, recorded with every score:
 * - `memory-eval`: the reference implementation, `re.findall(r"\b\w+\b", text.lower())` with
 *   Python's Unicode `\w` (letters, digits, `_`). It does not segment Chinese/Japanese: a whole run
 *   of Han characters is one token, so CJK answers score ≈ 0 (bug L1). Use it only to reproduce
 *   memory-eval's numbers.
 * - `unicode` (default): `Intl.Segmenter` word segmentation (ICU dictionaries for CJK/Thai),
 *   word-like segments only, lowercased with NFKC; the same > 1-character rule, except that a
 *   single Han/Kana/Hangul character that ICU segments as a word is kept (CJK words are often one
 *   character).
 */

export type KeywordTokenizer = 'unicode' | 'memory-eval';

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const segmenters = new Map<string, Intl.Segmenter>();

/** The keyword set of `text` under `tokenizer` (see module doc). `locale` only affects `unicode`. */
export function keywordSet(text: string, tokenizer: KeywordTokenizer = 'unicode', locale = 'und'): Set<string> {
  const out = new Set<string>();
  if (tokenizer === 'memory-eval') {
    for (const t of text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []) if (Array.from(t).length > 1) out.add(t);
    return out;
  }
  let seg = segmenters.get(locale);
  if (!seg) segmenters.set(locale, (seg = new Intl.Segmenter(locale === 'und' ? undefined : locale, { granularity: 'word' })));
  for (const s of seg.segment(text.normalize('NFKC').toLowerCase())) {
    if (!s.isWordLike) continue;
    const len = Array.from(s.segment).length;
    if (len > 1 || (len === 1 && CJK_CHAR.test(s.segment))) out.add(s.segment);
  }
  return out;
}

export interface KeywordOverlap {
  /** |kw(ref) ∩ kw(gen)| / max(|kw(ref)|, 1), 0–1. */
  hitRate: number;
  matched: number;
  referenceKeywords: number;
  tokenizer: KeywordTokenizer;
}

/** Keyword hit rate of a generated answer against a reference answer. */
export function keywordOverlap(reference: string, generated: string, tokenizer: KeywordTokenizer = 'unicode', locale = 'und'): KeywordOverlap {
  const r = keywordSet(reference, tokenizer, locale);
  const g = keywordSet(generated, tokenizer, locale);
  let matched = 0;
  for (const k of r) if (g.has(k)) matched++;
  return { hitRate: matched / Math.max(r.size, 1), matched, referenceKeywords: r.size, tokenizer };
}
