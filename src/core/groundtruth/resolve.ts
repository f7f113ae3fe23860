/**
 * Resolution of evidence selectors to spans, exactly as SPEC §3.2:
 *  5. `exact` shorter than `minQuoteLength` (trimmed) or longer than `maxQuoteLength` (untrimmed; a
 *     guard against a whole document pasted as a quote and copied into every results file; checked
 *     first) → rejected;
 *     `source` is normalised to its POSIX relative form (`./a.md`, `a\b.md`, `a//b.md` → `a/b.md`…) before
 *     look-up; a source that leaves the root (`../x.md`, `/etc/x`, `C:\x`) → stale, never looked up;
 *     source skipped by the corpus loader → stale ("source skipped: <reason> (<detail>)");
 *     source not in the corpus → stale ("source not found");
 *  1. `text.slice(start, end) === exact` → resolved;
 *  2. re-anchor: every occurrence of `exact` with `\r\n`, `\r`, `\n` treated as equal, mapped back to raw
 *     offsets; best by prefix/suffix agreement, then by nearness to the old `start`; one best → moved
 *     (or resolved, when the re-anchored offsets equal the cached ones: an EOL-only difference);
 *  3. no occurrence → stale, with the nearest near-match for the report (never used as a resolution);
 *  4. several equally good → ambiguous, with candidate offsets and lines.
 */
import { DEFAULT_SETTINGS } from '../settings';
import type { SkippedFile } from '../corpus';
import type { Span } from '../types';
import type {
  AcceptanceReport, AnchorCandidate, EvidenceResolution, EvidenceSelector, GroundTruthFile, Resolution,
  ResolvedQuestion, ResolveOptions,
} from './index';
import { documentTokens, nearestMatch, type DocumentTokens } from './nearest';
import { lineAt, lineStarts, normaliseEol, normaliseEolString, type NormalisedText } from './text';

/**
 * Occurrences listed for an ambiguous quote (issue #16 item 14: a short quote in a big file gave 2 M
 * candidates, 189 MB of JSON); the total is reported beside them when there are more.
 */
export const MAX_CANDIDATES = 20;

/** Lazily computed, reusable views of one document's text (its tokens once per document, however many quotes are stale in it: #16 item 14). */
class DocumentView {
  private norm?: NormalisedText;
  private starts?: number[];
  private toks?: DocumentTokens;
  constructor(readonly text: string) {}
  normalised(): NormalisedText { return (this.norm ??= normaliseEol(this.text)); }
  tokens(): DocumentTokens { return (this.toks ??= documentTokens(this.text)); }
  line(offset: number): number { return lineAt((this.starts ??= lineStarts(this.text)), offset); }
}

/**
 * Resolve one selector against the text of its source document (`undefined` = the source is not in
 * the corpus). Pure; see the module comment for the rules. The returned span is in UTF-16 code units
 * of `text` and never splits a `\r\n` pair; its `source` is the normalised form of `sel.source`.
 */
export function resolveEvidence(sel: EvidenceSelector, text: string | undefined, opts: ResolveOptions = {}): EvidenceResolution {
  return resolveIn(sel, text === undefined ? undefined : new DocumentView(text), opts);
}

/**
 * The POSIX path relative to the corpus root that an evidence `source` names: backslashes become `/`,
 * `.` and empty segments are dropped and `..` segments applied (`./a.md` → `a.md`, `docs\\a.md` →
 * `docs/a.md`, `x/../a.md` → `a.md`). Returns undefined when the path is absolute (`/…`, `C:…`, `\\…`)
 * or a `..` would leave the root — such a source is never looked up.
 */
export function normaliseSource(source: string): string | undefined {
  const s = source.replace(/\\/g, '/');
  if (s.startsWith('/') || /^[A-Za-z]:/.test(s)) return undefined;
  const out: string[] = [];
  for (const seg of s.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(seg);
  }
  return out.length === 0 ? undefined : out.join('/');
}

function skippedEntry(opts: ResolveOptions, source: string): Pick<SkippedFile, 'reason' | 'detail'> | undefined {
  const sk = opts.skipped;
  if (sk === undefined) return undefined;
  return 'get' in sk ? sk.get(source) : sk.find((s) => s.source === source);
}

function resolveIn(sel: EvidenceSelector, doc: DocumentView | undefined, opts: ResolveOptions): EvidenceResolution {
  const min = opts.minQuoteLength ?? DEFAULT_SETTINGS.minQuoteLength;
  const len = sel.exact.trim().length;
  if (len < min) {
    return {
      status: 'rejected',
      reason: `quote is ${len} characters long (ignoring surrounding whitespace), shorter than the minimum of ${min}; quote a longer passage, or lower minQuoteLength`,
    };
  }
  const max = opts.maxQuoteLength ?? DEFAULT_SETTINGS.maxQuoteLength;
  if (sel.exact.length > max) {
    return { status: 'rejected', reason: `too long (${sel.exact.length} code units; maximum ${max}): quote a shorter passage or raise maxQuoteLength` };
  }
  const source = normaliseSource(sel.source);
  if (source === undefined) {
    return { status: 'stale', reason: `source is outside the corpus root: use a path relative to the corpus root, e.g. "docs/intro.md"` };
  }
  if (doc === undefined) {
    const sk = skippedEntry(opts, source);
    return { status: 'stale', reason: sk ? `source skipped: ${sk.reason} (${sk.detail})` : 'source not found' };
  }
  const { text } = doc;
  // Rule 1: exact at offsets.
  if (sel.start !== undefined && sel.end !== undefined && sel.end <= text.length && text.slice(sel.start, sel.end) === sel.exact) {
    return { status: 'resolved', span: { source, start: sel.start, end: sel.end } };
  }
  // Rule 2: EOL-insensitive re-anchor.
  const norm = doc.normalised();
  const n = norm.text;
  const q = normaliseEolString(sel.exact);
  const prefix = sel.prefix === undefined ? '' : normaliseEolString(sel.prefix);
  const suffix = sel.suffix === undefined ? '' : normaliseEolString(sel.suffix);
  let bestScore = -1;
  let best: number[] = [];
  for (let i = n.indexOf(q); i >= 0; i = n.indexOf(q, i + 1)) {
    const score = commonSuffixBefore(n, i, prefix) + commonPrefixAfter(n, i + q.length, suffix);
    if (score > bestScore) { bestScore = score; best = [i]; }
    else if (score === bestScore) best.push(i);
  }
  if (best.length === 0) {
    const nearest = nearestMatch(sel.exact, text, doc.tokens());
    return { status: 'stale', reason: `quote not found in ${source}`, ...(nearest ? { nearest } : {}) };
  }
  if (best.length > 1 && sel.start !== undefined) {
    const old = sel.start;
    const dist = (i: number): number => Math.abs(norm.raw[i] - old);
    const dMin = best.reduce((m, i) => Math.min(m, dist(i)), Infinity);
    best = best.filter((i) => dist(i) === dMin);
  }
  const toSpan = (i: number): Span => ({ source, start: norm.raw[i], end: norm.raw[i + q.length] });
  if (best.length > 1) {
    const candidates: AnchorCandidate[] = best.slice(0, MAX_CANDIDATES).map((i) => {
      const s = toSpan(i);
      return { start: s.start, end: s.end, line: doc.line(s.start) };
    });
    return { status: 'ambiguous', candidates, ...(best.length > MAX_CANDIDATES ? { total: best.length } : {}) };
  }
  const span = toSpan(best[0]);
  return { status: span.start === sel.start && span.end === sel.end ? 'resolved' : 'moved', span };
}

/** Length of the longest common suffix of `prefix` and `n[0, at)`. */
function commonSuffixBefore(n: string, at: number, prefix: string): number {
  let k = 0;
  while (k < prefix.length && at - 1 - k >= 0 && n.charCodeAt(at - 1 - k) === prefix.charCodeAt(prefix.length - 1 - k)) k++;
  return k;
}

/** Length of the longest common prefix of `suffix` and `n[at, …)`. */
function commonPrefixAfter(n: string, at: number, suffix: string): number {
  let k = 0;
  while (k < suffix.length && at + k < n.length && n.charCodeAt(at + k) === suffix.charCodeAt(k)) k++;
  return k;
}

/**
 * Resolve every evidence item of `gt` against the corpus (`textOf(source)` = the document text, or
 * `undefined` when the source is not in the corpus) and build the acceptance report. `textOf` is only
 * called with normalised sources (see `normaliseSource`), never with one that leaves the root; pass
 * `opts.skipped` (the corpus loader's skipped files) so a skipped source is reported as such.
 *
 * A question counts as resolved only when **every** evidence item resolves — for `match: "any"` too:
 * scoring a question against a subset of its alternatives would silently change what it measures, so a
 * stale/ambiguous/rejected alternative excludes the whole question and is reported.
 */
export function resolveGroundTruth(gt: GroundTruthFile, textOf: (source: string) => string | undefined, opts: ResolveOptions = {}): Resolution {
  const views = new Map<string, DocumentView | undefined>();
  const viewOf = (raw: string): DocumentView | undefined => {
    const source = normaliseSource(raw);
    if (source === undefined) return undefined; // never look up a path that leaves the root
    if (!views.has(source)) {
      const t = textOf(source);
      views.set(source, t === undefined ? undefined : new DocumentView(t));
    }
    return views.get(source);
  };
  const updated = structuredClone(gt);
  const acceptance: AcceptanceReport = { total: gt.questions.length, resolved: 0, moved: 0, stale: [], ambiguous: [], rejected: [], relocated: [] };
  const questions: ResolvedQuestion[] = [];
  const perEvidence: EvidenceResolution[][] = [];
  let changed = false;

  gt.questions.forEach((q, qi) => {
    const rs = q.evidence.map((sel) => resolveIn(sel, viewOf(sel.source), opts));
    perEvidence.push(rs);
    let allResolved = true;
    let anyMoved = false;
    rs.forEach((r, j) => {
      const sel = q.evidence[j];
      switch (r.status) {
        case 'resolved':
          break;
        case 'moved': {
          anyMoved = true;
          changed = true;
          const target = updated.questions[qi].evidence[j];
          target.start = r.span.start;
          target.end = r.span.end;
          acceptance.relocated.push({
            id: q.id, source: sel.source, evidence: j,
            from: { ...(sel.start !== undefined ? { start: sel.start } : {}), ...(sel.end !== undefined ? { end: sel.end } : {}) },
            to: { start: r.span.start, end: r.span.end, line: viewOf(sel.source)!.line(r.span.start) },
          });
          break;
        }
        case 'stale':
          allResolved = false;
          acceptance.stale.push({ id: q.id, source: sel.source, exact: sel.exact, reason: r.reason, evidence: j, ...(r.nearest ? { nearest: r.nearest } : {}) });
          break;
        case 'ambiguous':
          allResolved = false;
          acceptance.ambiguous.push({ id: q.id, source: sel.source, exact: sel.exact, evidence: j, candidates: r.candidates, ...(r.total !== undefined ? { candidatesTotal: r.total } : {}) });
          break;
        case 'rejected':
          allResolved = false;
          acceptance.rejected.push({ id: q.id, reason: r.reason, source: sel.source, evidence: j });
          break;
      }
    });
    if (!allResolved) return;
    acceptance.resolved++;
    if (anyMoved) acceptance.moved++;
    questions.push({
      id: q.id, question: q.question, ...(q.answer !== undefined ? { answer: q.answer } : {}),
      match: q.match ?? 'all', tags: q.tags ?? [],
      spans: rs.map((r) => (r as { span: Span }).span),
    });
  });
  return { questions, perEvidence, acceptance, updated, changed };
}

/**
 * The run warning for questions left out of scoring, or undefined when every question resolved:
 * `"15 of 15 questions excluded: 15 with stale, 0 with ambiguous, 0 with rejected evidence (evidence
 * items: 18 stale, 0 ambiguous, 0 rejected)"`. The first counts are questions (distinct ids; a question
 * with two kinds of failed evidence counts under both), the parenthesis counts evidence items.
 */
export function excludedQuestionsSummary(a: AcceptanceReport): string | undefined {
  const excluded = a.total - a.resolved;
  if (excluded <= 0) return undefined;
  const questions = (items: Array<{ id: string }>): number => new Set(items.map((x) => x.id)).size;
  return `${excluded} of ${a.total} questions excluded: ${questions(a.stale)} with stale, ${questions(a.ambiguous)} with ambiguous, `
    + `${questions(a.rejected)} with rejected evidence (evidence items: ${a.stale.length} stale, ${a.ambiguous.length} ambiguous, ${a.rejected.length} rejected)`;
}
