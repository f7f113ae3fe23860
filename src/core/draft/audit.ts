/**
 * Quality audit of drafted questions (issue #14 §4), per draft and in total.
 *
 * - Content words: the BM25 tokens (`bm25Tokens`: Unicode word segments, lower-cased) that are not
 *   English stop words (the `stopword` package's `eng` list plus the question words it lacks).
 * - Near-duplicates: token-set similarity = Jaccard |A ∩ B| / |A ∪ B| of two questions' content-word
 *   sets (1 when both are empty and the lower-cased texts are equal); ≥ `DUPLICATE_SIMILARITY` is a
 *   near-duplicate and only the first (existing questions first, then drafts in plan order) is kept.
 * - Lexical leakage of a question = |content words of the question that occur among the evidence's
 *   tokens| / |content words of the question| (0 when it has none). High leakage means a keyword
 *   search finds the evidence by the question's own words — too easy, and biased towards BM25.
 * - Coverage: which documents and which sections (headings, `documentSections`) hold at least one
 *   evidence span of any question (hand-written and drafted) — and which hold none.
 * - Answer length in words (whitespace-separated) of drafted answers.
 */
import { bm25Tokens } from '../retrieval/bm25';
import { quantileType7 } from '../stats/bootstrap';
import type { CorpusDocument, Span } from '../types';
import { documentSections } from './passages';

/** Questions at least this similar (Jaccard of content-word sets) are near-duplicates. */
export const DUPLICATE_SIMILARITY = 0.7;
/** A drafted set whose median leakage is at least this leans on lexical overlap (warning). Calibration: the 45 hand-written questions of shared/data/fastapi-docs have median 0.4, 90th percentile 0.67; the 15 of prose median 0.2. */
export const LEAKAGE_WARNING_MEDIAN = 0.6;

let stopWords: Set<string> | undefined;
/** The stop-word set, built on first use (the `stopword` package holds ≈ 60 languages' lists; only the CLI's audit needs one). */
function stop(): Set<string> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load, CommonJS bundle
  return (stopWords ??= new Set([...(require('stopword') as typeof import('stopword')).eng, 'does', 'why', 'when', 'whom', 'whose', 'get', 'use', 'using']));
}

/** The distinct content words of `text`. */
export function contentWords(text: string): Set<string> {
  return new Set(bm25Tokens(text).filter((t) => !stop().has(t)));
}

/** Jaccard similarity of the content-word sets of two questions, in [0, 1]. */
export function questionSimilarity(a: string, b: string): number {
  const A = contentWords(a);
  const B = contentWords(b);
  if (A.size === 0 && B.size === 0) return a.trim().toLowerCase() === b.trim().toLowerCase() ? 1 : 0;
  let inter = 0;
  for (const t of A) if (B.has(t)) inter++;
  return inter / (A.size + B.size - inter);
}

/** Share of the question's content words that occur in the evidence texts, in [0, 1]. */
export function lexicalLeakage(question: string, evidence: readonly string[]): number {
  const Q = contentWords(question);
  if (Q.size === 0) return 0;
  const E = new Set(bm25Tokens(evidence.join('\n')));
  let n = 0;
  for (const t of Q) if (E.has(t)) n++;
  return n / Q.size;
}

export interface Distribution {
  n: number;
  mean: number | null;
  median: number | null;
  p90: number | null;
  min: number | null;
  max: number | null;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/** Summary of `values` (quantiles by type 7, as R and NumPy); nulls when empty. */
export function distribution(values: readonly number[]): Distribution {
  if (values.length === 0) return { n: 0, mean: null, median: null, p90: null, min: null, max: null };
  const s = [...values].sort((a, b) => a - b);
  return {
    n: s.length, mean: round(s.reduce((a, b) => a + b, 0) / s.length), median: round(quantileType7(s, 0.5)),
    p90: round(quantileType7(s, 0.9)), min: round(s[0]), max: round(s[s.length - 1]),
  };
}

export interface LeakageAudit extends Distribution {
  /** Counts per bucket [0, 0.2), [0.2, 0.4), [0.4, 0.6), [0.6, 0.8), [0.8, 1]. */
  histogram: Array<{ from: number; to: number; count: number }>;
  /** Set when the median is ≥ LEAKAGE_WARNING_MEDIAN. */
  warning?: string;
}

export function leakageAudit(values: readonly number[]): LeakageAudit {
  const d = distribution(values);
  const histogram = [0, 0.2, 0.4, 0.6, 0.8].map((from) => ({ from, to: round(from + 0.2), count: values.filter((v) => v >= from && (v < from + 0.2 || (from === 0.8 && v <= 1))).length }));
  const warning = d.median !== null && d.median >= LEAKAGE_WARNING_MEDIAN
    ? `the drafted questions lean on the evidence's own words (median lexical leakage ${d.median} ≥ ${LEAKAGE_WARNING_MEDIAN}): keyword search (bm25) will look better than it is; reword the questions in review, or draft again`
    : undefined;
  return { ...d, histogram, ...(warning ? { warning } : {}) };
}

export interface CoverageAudit {
  documents: { total: number; covered: number; uncovered: string[] };
  sections: { total: number; covered: number; uncovered: Array<{ source: string; heading: string | null; line: number }> };
}

/** Which documents and sections of `docs` hold at least one of `spans` (overlap of ≥ 1 code unit). */
export function coverageAudit(docs: readonly CorpusDocument[], spans: readonly Span[]): CoverageAudit {
  const bySource = new Map<string, Span[]>();
  for (const s of spans) bySource.set(s.source, [...(bySource.get(s.source) ?? []), s]);
  const uncoveredDocs: string[] = [];
  const uncoveredSections: CoverageAudit['sections']['uncovered'] = [];
  let sections = 0;
  let coveredSections = 0;
  for (const doc of docs) {
    const mine = bySource.get(doc.source) ?? [];
    if (mine.length === 0) uncoveredDocs.push(doc.source);
    for (const sec of documentSections(doc)) {
      sections++;
      if (mine.some((s) => s.start < sec.end && s.end > sec.start)) coveredSections++;
      else uncoveredSections.push({ source: sec.source, heading: sec.heading, line: sec.line });
    }
  }
  return {
    documents: { total: docs.length, covered: docs.length - uncoveredDocs.length, uncovered: uncoveredDocs },
    sections: { total: sections, covered: coveredSections, uncovered: uncoveredSections },
  };
}

/** Words of an answer (whitespace-separated), 0 for none. */
export function answerWords(answer: string | undefined): number {
  return answer ? answer.trim().split(/\s+/).filter(Boolean).length : 0;
}
