/**
 * The verification gate of drafted evidence (issue #14 §3): a quote is kept only when it resolves
 * exactly in its passage's document by the SPEC §3.2 rules (`resolveEvidence` — the one resolver),
 * and is written with offsets and the shortest prefix/suffix (32, 64, 128 or 256 code units, by
 * `makeSelector`) with which the quote alone re-anchors to the same span — so it is unambiguous now
 * and after the document is edited elsewhere.
 *
 * - exact (line endings may differ, §3.2 rule 2) → kept, `exact` = the document's characters;
 * - several occurrences → the one inside the passage the model was shown; several there → rejected;
 * - only a whitespace/typographic-quote variant occurs (`looseOccurrences`) → re-anchored to the
 *   document's exact text and marked `reanchored: {quote, normalised}`;
 * - no occurrence → rejected "not in the document: nearest match …" (`nearestMatch`, a hint only);
 * - shorter than `minQuoteLength` or longer than `maxQuoteLength` → rejected (§3.2 rule 5).
 * The written selector is checked once more with `resolveEvidence` (status `resolved`, same span).
 */
import { makeSelector, resolveEvidence, type EvidenceSelector, type ResolveOptions } from '../groundtruth';
import { nearestMatch } from '../groundtruth/nearest';
import { looseDifferences, looseOccurrences } from './loose';

export type QuoteCheck =
  | { ok: true; evidence: EvidenceSelector; reanchored: boolean }
  | { ok: false; reason: string };

/** Context lengths tried for prefix/suffix, shortest first. */
const CONTEXTS = [32, 64, 128, 256];

const excerpt = (s: string, max = 80): string => {
  const flat = s.replace(/\r\n|\r|\n/g, '⏎');
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
};

type Found = { ok: true; start: number; end: number; reanchored: boolean } | { ok: false; reason: string };

/** Picks the occurrence inside the passage (or the only one); `what` names the kind of match in messages. */
function pick(spans: Array<{ start: number; end: number }>, passage: { start: number; end: number }, what: string): Found | undefined {
  if (spans.length === 0) return undefined;
  const inside = spans.filter((s) => s.start >= passage.start && s.end <= passage.end);
  const only = inside.length === 1 ? inside[0] : inside.length === 0 && spans.length === 1 ? spans[0] : undefined;
  if (only) return { ok: true, ...only, reanchored: false };
  return inside.length > 1
    ? { ok: false, reason: `ambiguous: the ${what} occurs ${inside.length} times in the passage; a longer quote would tell them apart` }
    : { ok: false, reason: `ambiguous: the ${what} occurs ${spans.length} times in the document, none of them in the passage` };
}

function locate(quote: string, source: string, text: string, passage: { start: number; end: number }, opts: ResolveOptions): Found {
  const r = resolveEvidence({ source, exact: quote }, text, opts);
  if (r.status === 'rejected') return { ok: false, reason: r.reason };
  if (r.status === 'resolved' || r.status === 'moved') return { ok: true, start: r.span.start, end: r.span.end, reanchored: false };
  if (r.status === 'ambiguous') return pick(r.candidates, passage, 'quote')!;
  if (r.status === 'stale' && r.reason !== `quote not found in ${source}`) return { ok: false, reason: r.reason };
  const loose = pick(looseOccurrences(quote, text), passage, 'quote (ignoring whitespace and quote marks)');
  if (loose) return loose.ok ? { ...loose, reanchored: true } : loose;
  const near = nearestMatch(quote, text);
  return {
    ok: false,
    reason: near
      ? `not in the document: nearest match ${excerpt(near.text)} at line ${near.line} (similarity ${near.similarity})`
      : 'not in the document: no near match',
  };
}

/**
 * Verifies one drafted quote against its document (`text` of `source`) and the passage
 * `[passage.start, passage.end)` the model was shown. `opts` carries minQuoteLength/maxQuoteLength.
 * Returns the selector to write (`exact`, `prefix`, `suffix`, `start`, `end`, plus `reanchored` when
 * it was re-anchored) or the rejection reason.
 */
export function verifyQuote(quote: string, source: string, text: string, passage: { start: number; end: number }, opts: ResolveOptions = {}): QuoteCheck {
  if (quote.trim() === '') return { ok: false, reason: 'empty quote' };
  const found = locate(quote, source, text, passage, opts);
  if (!found.ok) return found;
  for (const context of CONTEXTS) {
    const sel = makeSelector(text, source, found.start, found.end, context);
    const { start, end, ...quoteOnly } = sel;
    const alone = resolveEvidence(quoteOnly, text, opts);
    if (alone.status !== 'moved' && alone.status !== 'resolved') {
      if (alone.status === 'rejected') return { ok: false, reason: alone.reason };
      continue;
    }
    if (alone.span.start !== start || alone.span.end !== end) continue;
    const check = resolveEvidence(sel, text, opts); // the gate: exactly what will be written resolves, at these offsets
    if (check.status !== 'resolved' || check.span.start !== start || check.span.end !== end) return { ok: false, reason: 'internal: the selector does not resolve to its own offsets' };
    if (!found.reanchored) return { ok: true, evidence: sel, reanchored: false };
    return { ok: true, evidence: { ...sel, reanchored: { quote, normalised: looseDifferences(quote, sel.exact) } }, reanchored: true };
  }
  return { ok: false, reason: `ambiguous: the same text with the same ${CONTEXTS[CONTEXTS.length - 1]} characters around it occurs elsewhere in the document` };
}
