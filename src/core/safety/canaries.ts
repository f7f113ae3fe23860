/**
 * Planting canary instructions into a copy of the corpus (the injection exposure study, issue #17).
 *
 * A canary is inserted at a line start of a document — offset 0 or right after a `\n` — as its own
 * line followed by a blank line (`text + eol + eol`, eol = `\r\n` when the document uses CRLF).
 * Line starts can never split a `\r\n` pair or a surrogate pair, and a position strictly inside an
 * evidence span (start < p < end) is never used, so every evidence quote survives verbatim.
 *
 * Placement is seeded (mulberry32 of src/core/stats, seed = the run's bootstrap seed): for each XPIA
 * kind, `perKind` canaries alternate *near* (the line start closest to a randomly drawn evidence span,
 * before or after it) and *far* (a random line start at least {@link FAR_MIN} code units from every
 * evidence span of its document, in a randomly drawn document), cycling the short/medium/long
 * templates. Offsets are UTF-16 code units.
 */
import { SpanproofError } from '../errors';
import { createRng } from '../stats';
import type { Span } from '../types';
import { CANARY_LENGTHS, CANARY_TEMPLATES_VERSION, XPIA_KINDS, canaryText, type CanaryLength, type XpiaKind } from './templates';

/** A far canary is at least this many code units from every evidence span of its document (when the corpus allows). */
export const FAR_MIN = 1500;

/** Default canaries per XPIA kind. */
export const DEFAULT_CANARIES_PER_KIND = 4;

/** A planted canary, with its span in the copy of its document. */
export interface Canary {
  id: string;
  kind: XpiaKind;
  length: CanaryLength;
  placement: 'near' | 'far';
  source: string;
  /** `[start, end)` of `text` in the copy (UTF-16 code units). */
  start: number;
  end: number;
  text: string;
  /** Code units between the canary and the nearest evidence span of its document in the copy (null: no evidence there). */
  distance: number | null;
}

/** Where a canary goes, in original-document offsets. */
interface Placement {
  kind: XpiaKind;
  length: CanaryLength;
  placement: 'near' | 'far';
  source: string;
  at: number;
  text: string;
}

/** The planted copy: its documents, canaries and the offset map from the original to the copy. */
export interface PlantedCorpus {
  templatesVersion: string;
  seed: number;
  /** Every document, planted or not, by source (copy text). */
  texts: Map<string, string>;
  canaries: Canary[];
  /** The span of original `[start, end)` in the copy: same text, shifted past the canaries inserted before it. */
  mapSpan(span: Span): Span;
}

export interface PlantOptions {
  seed: number;
  perKind?: number;
}

const isLineStart = (text: string, p: number) => p === 0 || text.charCodeAt(p - 1) === 10;

/** Line starts of `text` not strictly inside any of `spans`. */
function insertionPoints(text: string, spans: readonly Span[]): number[] {
  const out: number[] = [];
  for (let p = 0; p <= text.length; p++) {
    if (!isLineStart(text, p) || (p === text.length && text.length > 0 && text.charCodeAt(p - 1) !== 10)) continue;
    if (spans.some((s) => s.start < p && p < s.end)) continue;
    out.push(p);
  }
  return out;
}

/** Distance from offset p to the nearest span (0 when touching), Infinity without spans. */
function distanceTo(p: number, spans: readonly Span[]): number {
  let d = Infinity;
  for (const s of spans) d = Math.min(d, p <= s.start ? s.start - p : p >= s.end ? p - s.end : 0);
  return d;
}

interface DocView { source: string; text: string; spans: Span[]; points: number[] }

function pick<T>(rng: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rng() * xs.length)];
}

/** The near position for a drawn span: the closest free line start before or after it (ties by the rng). */
function nearPoint(rng: () => number, doc: DocView, span: Span, used: Set<string>): number | undefined {
  const free = doc.points.filter((p) => !used.has(`${doc.source}\0${p}`) && (p <= span.start || p >= span.end));
  if (!free.length) return undefined;
  const before = free.filter((p) => p <= span.start).at(-1);
  const after = free.find((p) => p >= span.end);
  const cands = [before, after].filter((p): p is number => p !== undefined);
  const dist = (p: number) => (p <= span.start ? span.start - p : p - span.end);
  const best = Math.min(...cands.map(dist));
  return pick(rng, cands.filter((p) => dist(p) === best));
}

/** A far position: a free line start ≥ FAR_MIN from its document's evidence in a drawn document, else the farthest free one. */
function farPoint(rng: () => number, docs: readonly DocView[], used: Set<string>): { doc: DocView; at: number } | undefined {
  const free = (d: DocView) => d.points.filter((p) => !used.has(`${d.source}\0${p}`));
  const eligible = docs.map((d) => ({ d, ps: free(d).filter((p) => distanceTo(p, d.spans) >= FAR_MIN) })).filter((x) => x.ps.length);
  if (eligible.length) {
    const { d, ps } = pick(rng, eligible);
    return { doc: d, at: pick(rng, ps) };
  }
  let best: { doc: DocView; at: number; dist: number } | undefined;
  for (const d of docs) for (const p of free(d)) {
    const dist = distanceTo(p, d.spans);
    if (!best || dist > best.dist) best = { doc: d, at: p, dist };
  }
  return best && { doc: best.doc, at: best.at };
}

function tagOf(rng: () => number): string {
  return `SPX-${Math.floor(rng() * 0x1000000).toString(16).toUpperCase().padStart(6, '0')}`;
}

/** Where each canary goes (original offsets), deterministic for (documents, spans, seed, perKind). */
function placeCanaries(docs: readonly DocView[], opts: Required<PlantOptions>): Placement[] {
  const rng = createRng((opts.seed ^ 0x5afe1a7e) >>> 0);
  const allSpans = docs.flatMap((d) => d.spans.map((s) => ({ d, s })));
  const used = new Set<string>();
  const out: Placement[] = [];
  for (let i = 0; i < opts.perKind; i++) {
    for (const kind of XPIA_KINDS) {
      const length = CANARY_LENGTHS[(i + XPIA_KINDS.indexOf(kind)) % CANARY_LENGTHS.length];
      const wantNear = i % 2 === 0 && allSpans.length > 0;
      let spot: { doc: DocView; at: number } | undefined;
      if (wantNear) {
        const { d, s } = pick(rng, allSpans);
        const at = nearPoint(rng, d, s, used);
        if (at !== undefined) spot = { doc: d, at };
      }
      const placement = spot ? 'near' : 'far';
      spot ??= farPoint(rng, docs, used);
      if (!spot) throw new SpanproofError('bad-input', 'the corpus has no line start left to plant a canary at.', { fix: 'run the injection study on a corpus with at least a few lines of text, or lower the canaries per kind.' });
      used.add(`${spot.doc.source}\0${spot.at}`);
      out.push({ kind, length, placement, source: spot.doc.source, at: spot.at, text: canaryText(kind, length, tagOf(rng)) });
    }
  }
  return out;
}

/** Inserts the placements into their documents; returns the copy texts, canary spans in the copy and inserted lengths per source. */
function insert(docs: readonly DocView[], placements: readonly Placement[]): { texts: Map<string, string>; spans: Map<Placement, Span>; inserted: Map<string, { at: number; len: number }[]> } {
  const texts = new Map<string, string>();
  const spans = new Map<Placement, Span>();
  const inserted = new Map<string, { at: number; len: number }[]>();
  for (const d of docs) {
    const here = placements.filter((p) => p.source === d.source).sort((a, b) => a.at - b.at);
    const eol = d.text.includes('\r\n') ? '\r\n' : '\n';
    let text = '';
    let last = 0;
    const ins: { at: number; len: number }[] = [];
    for (const p of here) {
      text += d.text.slice(last, p.at);
      spans.set(p, { source: d.source, start: text.length, end: text.length + p.text.length });
      const block = p.text + eol + eol;
      text += block;
      ins.push({ at: p.at, len: block.length });
      last = p.at;
    }
    texts.set(d.source, text + d.text.slice(last));
    inserted.set(d.source, ins);
  }
  return { texts, spans, inserted };
}

/**
 * Plans and plants the canaries of the study into a copy of `documents` (the originals are not
 * touched: this works on strings). `spans` are the resolved evidence spans of the scored questions.
 * @throws SpanproofError('bad-input') when the corpus is empty or has no line start left.
 */
export function plantCanaries(documents: ReadonlyArray<{ source: string; text: string }>, spans: readonly Span[], opts: PlantOptions): PlantedCorpus {
  if (!documents.length) throw new SpanproofError('bad-input', 'the injection study needs at least one document.', { fix: 'check the include/exclude globs.' });
  const o: Required<PlantOptions> = { seed: opts.seed, perKind: opts.perKind ?? DEFAULT_CANARIES_PER_KIND };
  if (!Number.isInteger(o.perKind) || o.perKind < 1) throw new SpanproofError('bad-input', `canaries per kind must be a whole number ≥ 1, got ${o.perKind}.`, { field: 'canariesPerKind', fix: 'e.g. 4' });
  const docs: DocView[] = [...documents].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0)).map((d) => {
    const ds = spans.filter((s) => s.source === d.source);
    return { source: d.source, text: d.text, spans: ds, points: insertionPoints(d.text, ds) };
  });
  const placements = placeCanaries(docs, o);
  const { texts, spans: canarySpans, inserted } = insert(docs, placements);
  const shift = (source: string, offset: number, inclusive: boolean) =>
    (inserted.get(source) ?? []).reduce((s, i) => s + (i.at < offset || (inclusive && i.at === offset) ? i.len : 0), 0);
  // An insertion at a span's start goes before it (start shifts); one at its end goes after it (end does not).
  const mapSpan = (s: Span): Span => ({ source: s.source, start: s.start + shift(s.source, s.start, true), end: s.end + shift(s.source, s.end, s.end === s.start) });
  const copySpans = (source: string) => spans.filter((s) => s.source === source).map(mapSpan);
  const canaries = placements.map((p, i): Canary => {
    const sp = canarySpans.get(p)!;
    const ev = copySpans(p.source);
    return { id: `canary-${String(i + 1).padStart(2, '0')}`, kind: p.kind, length: p.length, placement: p.placement, source: p.source, start: sp.start, end: sp.end, text: p.text, distance: ev.length ? Math.min(distanceTo(sp.start, ev), distanceTo(sp.end, ev)) : null };
  });
  return { templatesVersion: CANARY_TEMPLATES_VERSION, seed: o.seed, texts, canaries, mapSpan };
}
