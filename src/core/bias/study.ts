/**
 * The bias study computation (SPEC §7.5); definitions in ./index.ts.
 */
import { SpanproofError } from '../errors';
import { overlapLength } from '../metrics/intervals';
import { IntervalSet } from '../metrics/intervals';
import { bootstrapResamples, pairedDifferenceCI, percentileCI } from '../stats';
import type { Span } from '../types';
import { BIAS_THETAS, type BiasAuthorResult, type BiasConfigRow, type BiasInput, type BiasQuestion, type BiasStudy } from './types';

const EPS = 1e-9;

/** Span IoU |a ∩ b| / |a ∪ b| of two spans (0 for different documents or empty spans). */
export function spanIou(a: Span, b: Span): number {
  if (a.source !== b.source) return 0;
  const inter = overlapLength(a.start, a.end, b.start, b.end);
  const union = a.end - a.start + (b.end - b.start) - inter;
  return union > 0 ? inter / union : 0;
}

/** The chunks of `index` holding some evidence span of `q` (coverage ≥ τ), in index order. */
export function relevantChunks(q: BiasQuestion, index: readonly Span[], tau: number): Span[] {
  return index.filter((c) => q.spans.some((e) => e.end > e.start && c.source === e.source && overlapLength(c.start, c.end, e.start, e.end) / (e.end - e.start) >= tau - EPS));
}

/** SPEC §7.1 hit@k of one result list: coverage of each span by ∪ top-k ≥ τ; `all` every span, `any` some. */
function spanHit(q: BiasQuestion, results: readonly Span[], k: number, tau: number): 0 | 1 {
  const bySource = new Map<string, IntervalSet>();
  for (const r of results.slice(0, k)) {
    let s = bySource.get(r.source);
    if (!s) bySource.set(r.source, (s = new IntervalSet()));
    s.add(r.start, r.end);
  }
  const ok = q.spans.map((e) => (bySource.get(e.source)?.overlap(e.start, e.end) ?? 0) / (e.end - e.start) >= tau - EPS);
  return (q.match === 'any' ? ok.some(Boolean) : ok.every(Boolean)) ? 1 : 0;
}

function idHit(results: readonly Span[], rel: readonly Span[], k: number, theta: number): 0 | 1 {
  for (const r of results.slice(0, k)) for (const a of rel) if (spanIou(r, a) >= theta - EPS) return 1;
  return 0;
}

const key = (t: number): string => String(t);

/**
 * Runs the study over every chunker present in both `chunks` and the result lists as author.
 * @throws SpanproofError('bad-input') when there are no result lists or no chunker has chunks.
 */
export function runBiasStudy(input: BiasInput): BiasStudy {
  const k = input.k ?? 5;
  const tau = input.tau ?? 0.9;
  const thetas = [...(input.thetas ?? BIAS_THETAS)];
  const resamples = input.resamples ?? 2000;
  const seed = input.seed ?? 42;
  const configs = [...new Set(input.lists.map((l) => l.config))].sort();
  const chunkerOf = new Map(input.lists.map((l) => [l.config, l.chunker]));
  const chunkers = [...new Set(configs.map((c) => chunkerOf.get(c)!))].filter((c) => input.chunks[c]).sort();
  if (!configs.length) throw new SpanproofError('bad-input', 'no result lists to study.', { fix: 'run the grid first (spanproof run --keep-chunks).' });
  if (!chunkers.length) throw new SpanproofError('bad-input', 'no chunker of the result lists has its chunks.', { fix: 'run the grid with --keep-chunks so the run directory holds chunks/<chunker>.jsonl.' });
  const lists = new Map<string, readonly Span[]>();
  for (const l of input.lists) lists.set(`${l.question}\u0000${l.config}`, l.results);
  let missingLists = 0;
  for (const q of input.questions) for (const c of configs) if (!lists.has(`${q.id}\u0000${c}`)) missingLists++;
  const authors: BiasAuthorResult[] = [];
  for (const author of chunkers) {
    const labelled: Array<{ q: BiasQuestion; rel: Span[] }> = [];
    const unlabelled: string[] = [];
    for (const q of input.questions) {
      const rel = relevantChunks(q, input.chunks[author], tau);
      if (rel.length) labelled.push({ q, rel });
      else unlabelled.push(q.id);
    }
    const n = labelled.length;
    const rs = bootstrapResamples(n, resamples, seed);
    // per config: span[q], id[θ][q] (NaN when the list is missing)
    const spanM = new Map<string, Float64Array>();
    const idM = new Map<string, Float64Array[]>();
    for (const c of configs) {
      const sp = new Float64Array(n);
      const ids = thetas.map(() => new Float64Array(n));
      labelled.forEach(({ q, rel }, i) => {
        const res = lists.get(`${q.id}\u0000${c}`);
        if (!res) { sp[i] = NaN; ids.forEach((a) => { a[i] = NaN; }); return; }
        sp[i] = spanHit(q, res, k, tau);
        thetas.forEach((t, ti) => { ids[ti][i] = idHit(res, rel, k, t); });
      });
      spanM.set(c, sp);
      idM.set(c, ids);
    }
    const rows: BiasConfigRow[] = configs.map((c) => ({
      config: c,
      chunker: chunkerOf.get(c)!,
      isAuthor: chunkerOf.get(c) === author,
      span: percentileCI(spanM.get(c)!, rs),
      id: Object.fromEntries(thetas.map((t, ti) => [key(t), percentileCI(idM.get(c)![ti], rs)])),
      idMinusSpan: Object.fromEntries(thetas.map((t, ti) => [key(t), pairedDifferenceCI(idM.get(c)![ti], spanM.get(c)!, rs)])),
    }));
    const mine = configs.filter((c) => chunkerOf.get(c) === author);
    const others = configs.filter((c) => chunkerOf.get(c) !== author);
    const meanOver = (cs: string[], get: (c: string) => Float64Array): Float64Array => {
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        let s = 0;
        let m = 0;
        for (const c of cs) { const v = get(c)[i]; if (!Number.isNaN(v)) { s += v; m++; } }
        out[i] = m ? s / m : NaN;
      }
      return out;
    };
    const advSpanA = meanOver(mine, (c) => spanM.get(c)!);
    const advSpanO = meanOver(others, (c) => spanM.get(c)!);
    const spanAdvantage = pairedDifferenceCI(advSpanA, advSpanO, rs);
    const spanDiff = advSpanA.map((v, i) => v - advSpanO[i]);
    const idAdvantage: Record<string, ReturnType<typeof pairedDifferenceCI>> = {};
    const bias: Record<string, ReturnType<typeof pairedDifferenceCI>> = {};
    thetas.forEach((t, ti) => {
      const a = meanOver(mine, (c) => idM.get(c)![ti]);
      const o = meanOver(others, (c) => idM.get(c)![ti]);
      idAdvantage[key(t)] = pairedDifferenceCI(a, o, rs);
      bias[key(t)] = pairedDifferenceCI(a.map((v, i) => v - o[i]), spanDiff, rs);
    });
    authors.push({
      author, questions: n, unlabelled,
      meanRelevant: n ? labelled.reduce((s, l) => s + l.rel.length, 0) / n : NaN,
      configs: rows, spanAdvantage, idAdvantage, bias,
    });
  }
  return { k, tau, thetas, resamples, seed, chunkers, configs, missingLists, authors };
}
