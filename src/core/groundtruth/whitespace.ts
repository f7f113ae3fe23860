/**
 * Re-anchoring quotes whose only difference from the document is whitespace (issue #16 item 20,
 * `spanproof validate --fix --whitespace`): a wrapped line, a double space, a no-break space or a tab
 * made a quote stale ("nearest match, similarity 1") although its text is there. Such a quote is
 * rewritten to the document's exact characters — only when that is unambiguous.
 *
 * Rule: the quote, trimmed, split at runs of whitespace (`\s`: spaces, tabs, line breaks, NBSP and the
 * other Unicode spaces) into pieces; the document is searched for the pieces in order separated by
 * one or more whitespace characters. Exactly one such occurrence → the fix; none or several → no fix
 * (several would need prefix/suffix, as any ambiguous quote). The search is one regular expression
 * of literal pieces joined by `\s+`, linear in the document (no piece holds whitespace, so a `\s+`
 * run can only be matched one way).
 */
import type { AcceptanceReport, GroundTruthFile } from './index';
import type { EvidenceFix } from './edit';
import { lineOf } from './text';

/** A quote re-anchored to the document's whitespace. Offsets in UTF-16 code units. */
export interface WhitespaceFix {
  id: string;
  source: string;
  evidence: number;
  /** The quote as the ground truth had it. */
  from: string;
  /** The document's text `[start, end)` that replaces it. */
  to: string;
  start: number;
  end: number;
  /** 1-based line of `start`. */
  line: number;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The occurrences (at most 2: one is the answer, two mean ambiguous) of `quote` in `text` up to whitespace. */
export function whitespaceOccurrences(quote: string, text: string): Array<{ start: number; end: number }> {
  const pieces = quote.trim().split(/\s+/).filter(Boolean);
  if (!pieces.length) return [];
  const re = new RegExp(pieces.map(escapeRe).join('\\s+'), 'g');
  const out: Array<{ start: number; end: number }> = [];
  for (let m = re.exec(text); m && out.length < 2; m = re.exec(text)) {
    out.push({ start: m.index, end: m.index + m[0].length });
    re.lastIndex = m.index + 1;
  }
  return out;
}

/**
 * The whitespace-only fixes of the stale quotes in `acceptance` (textOf: the document text of a
 * source, undefined when it is not in the corpus). A quote whose text differs otherwise, or occurs
 * twice up to whitespace, gets none.
 */
export function whitespaceFixes(acceptance: AcceptanceReport, textOf: (source: string) => string | undefined): WhitespaceFix[] {
  const out: WhitespaceFix[] = [];
  for (const s of acceptance.stale) {
    const text = textOf(s.source);
    if (text === undefined) continue;
    const occ = whitespaceOccurrences(s.exact, text);
    if (occ.length !== 1) continue;
    const to = text.slice(occ[0].start, occ[0].end);
    if (to === s.exact) continue; // not a whitespace difference (the quote is stale for another reason)
    out.push({ id: s.id, source: s.source, evidence: s.evidence, from: s.exact, to, start: occ[0].start, end: occ[0].end, line: lineOf(text, occ[0].start) });
  }
  return out;
}

/** `fixes` as edits of the file (`exact`, `start`, `end` of each selector) and applied to a copy of `gt`. */
export function applyWhitespaceFixes(gt: GroundTruthFile, fixes: readonly WhitespaceFix[]): { updated: GroundTruthFile; edits: EvidenceFix[] } {
  const updated = structuredClone(gt);
  const edits: EvidenceFix[] = [];
  for (const f of fixes) {
    const qi = gt.questions.findIndex((q) => q.id === f.id);
    if (qi < 0) continue;
    const sel = updated.questions[qi].evidence[f.evidence];
    sel.exact = f.to;
    sel.start = f.start;
    sel.end = f.end;
    edits.push({ question: qi, evidence: f.evidence, set: { exact: f.to, start: f.start, end: f.end } });
  }
  return { updated, edits };
}
