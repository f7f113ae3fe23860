/**
 * Aligning a quoted excerpt to a document's text, for importers only (SPEC §3.2: "no fuzzy matching in
 * resolution; fuzzy alignment exists only in importers and reports its similarity").
 *
 * Order: (1) exact occurrence → similarity 1; (2) the same text up to whitespace runs, curly vs straight
 * quotes, dashes and case → the document's own characters, similarity = difflib ratio of excerpt vs
 * slice; (3) fuzzy: anchor on the longest common block (difflib `find_longest_match`, autojunk off, on the
 * normalised texts — the same block, found in one pass over the document by {@link longestCommonBlock}),
 * project the excerpt around each occurrence of that block (≤ 200) and keep the window of the best
 * ratio, then move each edge to the word boundary that maximises the ratio.
 * The caller rejects alignments below its threshold.
 *
 * Bounded (issue #16 item 13: a 2,000-character excerpt took 287 s, the edge search costing ~L³): the
 * fuzzy step refuses an excerpt longer than {@link MAX_FUZZY_CHARS} (`{refused: 'too-long'}`, said to the
 * user as "not aligned: too long"), and every difflib ratio it computes is charged |excerpt| × |window|
 * against {@link MAX_RATIO_WORK}; when the budget is spent the best window so far is kept. The budget
 * is counted, not timed, so the result is deterministic. Exact and normalised matches (linear) have no
 * length limit. The block search was difflib's own loop over the whole document (|excerpt| × |document| /
 * alphabet map updates: a 999-character excerpt took 1.2 s in 80 kB, 3.3–6.3 s in 390 kB, 93 s in 4 MB); it is now linear
 * in the document and returns the same block (ties included), so the spans are unchanged. A window whose
 * length alone keeps its ratio at or below the best so far (difflib's `real_quick_ratio` bound) is not
 * compared but still charged to the budget, so the budget and the span are those of comparing every
 * window: a fuzzy alignment is a linear normalisation and search plus a handful of ratios (a 999-character
 * excerpt compares 5–9 windows instead of ≈ 150; 0.04–0.15 s at 80 and 390 kB, ≈ 0.2–0.3 s at 4 MB).
 */
import { longestCommonBlock } from './longest-block';
import { normalizeForAlignment } from './normalize';
import { sequenceMatcherRatio } from './sequence-matcher';

export interface Alignment {
  /** UTF-16 offsets into the document. */
  start: number;
  end: number;
  /** difflib ratio (autojunk off) between the excerpt and `text.slice(start, end)`, 0–1. */
  similarity: number;
  method: 'exact' | 'normalized' | 'fuzzy';
  /** Number of exact occurrences (method `exact`), so callers can report repeats. */
  occurrences?: number;
}

/** Occurrences of the anchor block tried per excerpt (each costs one difflib ratio of the excerpt's length). */
const MAX_ANCHORS = 200;

/** Longest excerpt (UTF-16 code units, trimmed) the fuzzy step aligns; longer ones are refused as too long. */
export const MAX_FUZZY_CHARS = 1000;

/** Work budget of one fuzzy alignment: Σ |excerpt| × |window| over its difflib ratios (≈ 4 s of ratios at most on this machine's class of CPU). */
export const MAX_RATIO_WORK = 2e8;

/** An excerpt the fuzzy step would not align (issue #16 item 13); `detail` is a sentence for the report. */
export interface AlignmentRefused {
  refused: 'too-long';
  detail: string;
}

/** What one fuzzy alignment cost, counted (for tests and benchmarks); {@link alignExcerpt} adds to it. */
export interface AlignmentWork {
  /** Steps of the search for the longest common block of the normalised excerpt and document ({@link longestCommonBlock}: ≤ 2 per code point of the normalised document). */
  blockSteps: number;
  /** Σ |excerpt| × |window| (UTF-16 code units) over the windows considered — what {@link MAX_RATIO_WORK} bounds. */
  ratio: number;
  /** Windows actually compared with difflib (the others were ruled out by their length alone). */
  compared: number;
}

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/**
 * Aligns `excerpt` to `text`; `null` when nothing plausible exists (no common block of ≥ 4 characters);
 * {@link AlignmentRefused} when only a fuzzy alignment could place it and it is longer than
 * {@link MAX_FUZZY_CHARS}. Offsets are UTF-16 code units of `text`. `work`, when given, is added to with
 * what the fuzzy step counted (nothing for exact and normalised matches).
 */
export function alignExcerpt(text: string, excerpt: string, work?: AlignmentWork): Alignment | AlignmentRefused | null {
  const ex = excerpt.trim();
  if (!ex) return null;
  const first = text.indexOf(ex);
  if (first >= 0) {
    let occurrences = 0;
    for (let p = first; p >= 0; p = text.indexOf(ex, p + 1)) occurrences++;
    return { start: first, end: first + ex.length, similarity: 1, method: 'exact', occurrences };
  }
  const t = normalizeForAlignment(text);
  const e = normalizeForAlignment(ex);
  const at = t.norm.indexOf(e.norm.trim());
  if (at >= 0) {
    const start = t.map[at];
    const end = t.map[at + e.norm.trim().length - 1] + 1;
    return { start, end, similarity: round3(sequenceMatcherRatio(ex, text.slice(start, end))), method: 'normalized' };
  }
  if (ex.length > MAX_FUZZY_CHARS) return { refused: 'too-long', detail: `not aligned: too long for fuzzy alignment (${ex.length} > ${MAX_FUZZY_CHARS} characters; no exact or whitespace/case-insensitive occurrence)` };
  // fuzzy: anchor on the longest common block of the normalised texts (difflib's, found in one pass)
  const found = longestCommonBlock(e.norm, t.norm);
  if (work) work.blockSteps += found.steps;
  if (found.size < 4) return null;
  const { aStart: i, bStart: j, length: k } = found;
  let spentWork = 0;
  const spent = (): boolean => spentWork >= MAX_RATIO_WORK;
  const exPoints = codePoints(ex, 0, ex.length);
  /**
   * difflib's ratio of the excerpt and `text[s, en)`, or -1 when it cannot exceed `floor`: ratio = 2·M /
   * (|a| + |b|) with M ≤ min(|a|, |b|) (code points), difflib's `real_quick_ratio` bound, so a window
   * whose length alone keeps it ≤ `floor` is not compared (most of the edge moves below). It is charged to
   * the budget as if compared, so when the budget runs out, and the span chosen, are as before the bound.
   */
  const ratio = (s: number, en: number, floor = -1): number => {
    spentWork += ex.length * Math.max(1, en - s);
    if (work) work.ratio += ex.length * Math.max(1, en - s);
    const n = codePoints(text, s, en);
    if ((2 * Math.min(exPoints, n)) / (exPoints + n) <= floor) return -1;
    if (work) work.compared++;
    return sequenceMatcherRatio(ex, text.slice(s, en));
  };
  // The block is found in case-folded text, but the similarity is of the document's own characters, so
  // its first occurrence can be the wrong place ("MARKETING AFFILIATE" in a title before "Marketing
  // Affiliate"): project the excerpt around every occurrence of the block (at most MAX_ANCHORS) and keep
  // the window with the best ratio.
  const block = e.norm.slice(i, i + k);
  const window = (at: number): [number, number] => {
    const n0 = Math.max(0, at - i);
    const n1 = Math.min(t.norm.length, at + (e.norm.length - i));
    return [t.map[n0], t.map[Math.max(n0, n1 - 1)] + 1];
  };
  let [start, end] = window(j);
  let anchorBest = ratio(start, end);
  let anchors = 1;
  for (let at = t.norm.indexOf(block, j + 1); at >= 0 && anchors < MAX_ANCHORS && !spent(); at = t.norm.indexOf(block, at + 1), anchors++) {
    const [s0, e0] = window(at);
    const r = ratio(s0, e0, anchorBest);
    if (r > anchorBest) { anchorBest = r; start = s0; end = e0; }
  }
  // move each edge to the nearby word boundary that maximises the ratio (±25% of the excerpt)
  const slack = Math.max(8, Math.ceil(ex.length / 4));
  const boundaries = (lo: number, hi: number, isStart: boolean): number[] => {
    const out: number[] = [];
    for (let p = Math.max(0, lo); p <= Math.min(text.length, hi); p++) {
      if (isStart ? !isWordChar(text[p - 1]) && !/\s/.test(text[p] ?? ' ') : !isWordChar(text[p]) && !/\s/.test(text[p - 1] ?? ' ')) out.push(p);
    }
    return out;
  };
  let best = ratio(start, end);
  for (const s of boundaries(start - slack, start + slack, true)) {
    if (s >= end || spent()) break;
    const r = ratio(s, end, best);
    if (r > best) { best = r; start = s; }
  }
  for (const en of boundaries(end - slack, end + slack, false)) {
    if (spent()) break;
    if (en <= start) continue;
    const r = ratio(start, en, best);
    if (r > best) { best = r; end = en; }
  }
  return { start, end, similarity: round3(best), method: 'fuzzy' };
}

/** Code points in `text[s, en)` (a surrogate pair counts once, as difflib counts Python `str` items). */
function codePoints(text: string, s: number, en: number): number {
  let n = en - s;
  for (let p = s; p < en - 1; p++) {
    const c = text.charCodeAt(p);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(p + 1);
      if (d >= 0xdc00 && d <= 0xdfff) { n--; p++; }
    }
  }
  return n;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
