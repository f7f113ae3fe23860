/**
 * ID-based retrieval metrics that equal trec_eval v10.0 (usnistgov/trec_eval, commit f4253652)
 * on its own test data (SPEC §7.2). This is the chunk-/document-ID view of retrieval quality
 * that established evaluators report; Spanproof's span metrics live in `span.ts`.
 *
 * Conventions (all from trec_eval's source and test data; see docs/metrics-reference.md and
 * ../shared/reference/metrics/CONVENTIONS.md):
 * - Ranking: the rank column and the order of lines are ignored. Documents are sorted by score
 *   descending (a C `double`), ties broken by docno descending, compared byte-wise as UTF-8
 *   (`strcmp`) — so `doc9` ranks above `doc10`, and `C,B,A`. A docno twice in one query is an error.
 * - Query set: only queries present in the qrels are evaluated; run-only queries are ignored.
 *   A judged query with zero relevant docs is evaluated (scores 0) and counts in the mean.
 *   A judged query absent from the run: with `completeQueries` (trec_eval `-c`) it scores 0 and
 *   counts; without it, it is skipped and reported in `counts.missingFromRun` (trec_eval v10
 *   itself aborts with exit code 4 in that situation).
 * - Relevant means rel ≥ `relevanceLevel` (trec_eval `-l`, default 1). Unjudged and negative
 *   judgments are non-relevant. `-l` does not change nDCG gains (trec_eval `ndcg`/`ndcg_cut`).
 * - Mean row: arithmetic mean over evaluated queries; `num_rel`, `num_ret`, `num_rel_ret` are sums
 *   and `num_q` is the number of evaluated queries.
 */
import { SpanproofError } from '../errors';

import { rankTrec, type TrecQrels, type TrecRun, type TrecRunEntry } from './trecData';

export { compareDocnoBytes, rankTrec, parseTrecQrels, parseTrecRun, qrelsFromObject, runFromObject, type TrecQrels, type TrecRun, type TrecRunEntry } from './trecData';

/**
 * Canonical measure names (output keys). `k` is a positive integer cutoff.
 * - `precision@k` = trec_eval `P_k`; `recall@k` = `recall_k`; `ap` = `map` (per query AP);
 *   `ap_cut@k` = `map_cut_k`; `ndcg@k` = `ndcg_cut_k`; `ndcg_full` = `ndcg`; `mrr` = `recip_rank`;
 *   `hit@k` = `success_k`; `r_precision` = `Rprec`; `num_rel`, `num_ret`, `num_rel_ret`;
 *   `num_q` (mean row only).
 * trec_eval names (`P_5`, `P.5`, `map_cut_10`, `ndcg_cut.10`, `recip_rank`, `success_1`, `Rprec`, `map`, `ndcg`)
 * are accepted as input by {@link normalizeMeasure}.
 */
export type IdMeasureName = string;

/** nDCG gain: `linear` = the raw relevance value (trec_eval); `exponential` = 2^rel − 1 (Burges, ranx `ndcg_burges`). */
export type NdcgGain = 'linear' | 'exponential';

export interface EvaluateRunOptions {
  /** Measures to compute (canonical or trec_eval names). Default: {@link DEFAULT_ID_MEASURES}. */
  measures?: readonly string[];
  /** trec_eval `-l`: minimum relevance level counted as relevant. Default 1. */
  relevanceLevel?: number;
  /** trec_eval `-c`: judged queries absent from the run score 0 and count in the mean. Default false. */
  completeQueries?: boolean;
  /** nDCG gain convention. Default `linear` (trec_eval). */
  gain?: NdcgGain;
  /**
   * What to do with a judged query absent from the run when `completeQueries` is false:
   * `skip` (default; counted in `counts.missingFromRun`) or `error` (trec_eval v10 aborts, exit 4).
   */
  missingRunQueries?: 'skip' | 'error';
  /**
   * Not trec_eval: leave out judged queries with no relevant document (R = 0) instead of scoring
   * them 0 — the convention of tools that average over "queries with ≥ 1 relevant doc". Their
   * count is reported in `counts.zeroRelevantSkipped`. Default false (trec_eval).
   */
  skipZeroRelevant?: boolean;
}

export interface EvaluateRunResult {
  /** qid → canonical measure → value, for every evaluated query, in qid order (numeric-aware sort). */
  perQuery: Map<string, Record<string, number>>;
  /** Mean over evaluated queries (num_* are sums; `num_q` is the count). */
  mean: Record<string, number>;
  counts: {
    /** Queries evaluated (= `num_q`). */
    evaluated: number;
    /** Run queries that have no judgments in the qrels (ignored, as trec_eval does). */
    ignored: number;
    /** Judged queries absent from the run and not evaluated (only when `completeQueries` is false). */
    missingFromRun: number;
    /** Judged queries with R = 0 left out because of `skipZeroRelevant` (0 otherwise). */
    zeroRelevantSkipped: number;
  };
  /** Canonical measure names, in the order computed. */
  measures: string[];
  relevanceLevel: number;
  gain: NdcgGain;
}

/** The measures computed when none are named: the common trec_eval set with cutoffs 1, 3, 5, 10. */
export const DEFAULT_ID_MEASURES: readonly string[] = [
  'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'ap', 'r_precision', 'mrr',
  'precision@1', 'precision@3', 'precision@5', 'precision@10',
  'recall@1', 'recall@3', 'recall@5', 'recall@10',
  'ndcg@1', 'ndcg@3', 'ndcg@5', 'ndcg@10', 'ndcg_full',
  'ap_cut@10', 'hit@1', 'hit@3', 'hit@5', 'hit@10',
];

const CUT_ALIASES: Record<string, string> = {
  p: 'precision', precision: 'precision', recall: 'recall', map_cut: 'ap_cut', ap_cut: 'ap_cut',
  ndcg_cut: 'ndcg', ndcg: 'ndcg', success: 'hit', hit: 'hit',
};
const PLAIN_ALIASES: Record<string, string> = {
  map: 'ap', ap: 'ap', ndcg: 'ndcg_full', ndcg_full: 'ndcg_full', recip_rank: 'mrr', mrr: 'mrr',
  rprec: 'r_precision', r_precision: 'r_precision', num_rel: 'num_rel', num_ret: 'num_ret',
  num_rel_ret: 'num_rel_ret', num_q: 'num_q',
};

/**
 * Canonical name of a measure given in our form (`ndcg@10`) or trec_eval's (`ndcg_cut_10`,
 * `ndcg_cut.10`, `P_5`, `map`). A trec_eval list form such as `P.5,10` expands to several names.
 * @throws SpanproofError('bad-input') for an unknown measure or a cutoff that is not a positive integer.
 */
export function normalizeMeasure(name: string): string[] {
  const raw = name.trim();
  const lower = raw.toLowerCase();
  if (PLAIN_ALIASES[lower]) return [PLAIN_ALIASES[lower]];
  const m = /^([a-z_]+?)(?:@|_|\.)([0-9][0-9,]*)$/i.exec(raw);
  if (m) {
    const base = CUT_ALIASES[m[1].toLowerCase()];
    if (base) {
      return m[2].split(',').filter((s) => s !== '').map((s) => {
        const k = Number(s);
        if (!Number.isInteger(k) || k < 1) throw badMeasure(name);
        return `${base}@${k}`;
      });
    }
  }
  throw badMeasure(name);
}

function badMeasure(name: string): SpanproofError {
  return new SpanproofError('bad-input', `Unknown ID-based measure "${name}".`, {
    field: 'measures',
    fix: 'Use precision@k, recall@k, ap, ap_cut@k, ndcg@k, ndcg_full, mrr, hit@k, r_precision, num_rel, num_ret, num_rel_ret or num_q (trec_eval names such as P_5, map, ndcg_cut_10, recip_rank, success_1, Rprec are accepted).',
  });
}

function gainOf(rel: number, gain: NdcgGain): number {
  if (!(rel > 0)) return 0;
  return gain === 'exponential' ? Math.pow(2, rel) - 1 : rel;
}

/** DCG of a gain list cut at `k` (k = Infinity for full): Σ gain_i / log2(i + 1), i = 1-based rank. */
function dcg(gains: readonly number[], k: number): number {
  let s = 0;
  const n = Math.min(gains.length, k);
  for (let i = 0; i < n; i++) if (gains[i] !== 0) s += gains[i] / Math.log2(i + 2);
  return s;
}

interface ParsedMeasure { key: string; base: string; k: number }

function parseMeasures(measures: readonly string[]): ParsedMeasure[] {
  const out: ParsedMeasure[] = [];
  const seen = new Set<string>();
  for (const m of measures) {
    for (const key of normalizeMeasure(m)) {
      if (seen.has(key)) continue;
      seen.add(key);
      const at = key.indexOf('@');
      out.push(at < 0 ? { key, base: key, k: 0 } : { key, base: key.slice(0, at), k: Number(key.slice(at + 1)) });
    }
  }
  return out;
}

/** Numeric-aware qid order (trec_eval sorts qids as strings; order does not affect any value). */
function compareQid(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

/**
 * Per-query measures for one query. `ranked` must already be in trec_eval order ({@link rankTrec});
 * `judged` is the query's qrels (empty map for none).
 */
export function evaluateQuery(
  judged: ReadonlyMap<string, number>,
  ranked: readonly TrecRunEntry[],
  measures: readonly string[],
  options: { relevanceLevel?: number; gain?: NdcgGain } = {},
): Record<string, number> {
  const level = options.relevanceLevel ?? 1;
  const gain = options.gain ?? 'linear';
  const parsed = parseMeasures(measures).filter((m) => m.key !== 'num_q');
  let numRel = 0;
  const idealGains: number[] = [];
  for (const rel of judged.values()) {
    if (rel >= level) numRel++;
    const g = gainOf(rel, gain);
    if (g > 0) idealGains.push(g);
  }
  idealGains.sort((a, b) => b - a);
  const isRel = ranked.map((e) => {
    const r = judged.get(e.docno);
    return r !== undefined && r >= level;
  });
  const gains = ranked.map((e) => gainOf(judged.get(e.docno) ?? 0, gain));
  // relCum[i] = relevant docs among ranks 1..i
  const relCum = new Array<number>(ranked.length + 1);
  relCum[0] = 0;
  for (let i = 0; i < ranked.length; i++) relCum[i + 1] = relCum[i] + (isRel[i] ? 1 : 0);
  const relAt = (k: number): number => relCum[Math.min(k, ranked.length)];
  const apCut = (k: number): number => {
    if (numRel === 0) return 0;
    let s = 0;
    const n = Math.min(k, ranked.length);
    for (let i = 0; i < n; i++) if (isRel[i]) s += relCum[i + 1] / (i + 1);
    return s / numRel;
  };
  const ndcgCut = (k: number): number => {
    const ideal = dcg(idealGains, k);
    return ideal > 0 ? dcg(gains, k) / ideal : 0;
  };
  const out: Record<string, number> = {};
  for (const m of parsed) {
    switch (m.base) {
      case 'num_rel': out[m.key] = numRel; break;
      case 'num_ret': out[m.key] = ranked.length; break;
      case 'num_rel_ret': out[m.key] = relCum[ranked.length]; break;
      case 'ap': out[m.key] = apCut(Infinity); break;
      case 'ap_cut': out[m.key] = apCut(m.k); break;
      case 'r_precision': out[m.key] = numRel === 0 ? 0 : relAt(numRel) / numRel; break;
      case 'mrr': {
        const i = isRel.indexOf(true);
        out[m.key] = i < 0 ? 0 : 1 / (i + 1);
        break;
      }
      case 'precision': out[m.key] = relAt(m.k) / m.k; break;
      case 'recall': out[m.key] = numRel === 0 ? 0 : relAt(m.k) / numRel; break;
      case 'hit': out[m.key] = relAt(m.k) > 0 ? 1 : 0; break;
      case 'ndcg': out[m.key] = ndcgCut(m.k); break;
      case 'ndcg_full': out[m.key] = ndcgCut(Infinity); break;
      default: throw badMeasure(m.key);
    }
  }
  return out;
}

const SUMMED = new Set(['num_rel', 'num_ret', 'num_rel_ret']);

/**
 * Evaluates a run against qrels exactly as trec_eval v10 does (`trec_eval -q [-c] [-l N] -m ...`).
 * Source of each formula: trec_eval `m_P.c`, `m_recall.c`, `m_map.c`, `m_map_cut.c`, `m_ndcg.c`,
 * `m_ndcg_cut.c`, `m_recip_rank.c`, `m_success.c`, `m_Rprec.c`, `m_num_*.c`; tie order from
 * `form_res_rels.c` (qsort by sim desc, then docno desc with strcmp).
 * @throws SpanproofError('bad-input') for an unknown measure or a duplicate docno within a query.
 */
export function evaluateRun(qrels: TrecQrels, run: TrecRun, options: EvaluateRunOptions = {}): EvaluateRunResult {
  const relevanceLevel = options.relevanceLevel ?? 1;
  const gain = options.gain ?? 'linear';
  const parsed = parseMeasures(options.measures ?? DEFAULT_ID_MEASURES);
  const keys = parsed.map((m) => m.key);
  const perQueryKeys = keys.filter((k) => k !== 'num_q');
  const perQuery = new Map<string, Record<string, number>>();
  let ignored = 0;
  let missingFromRun = 0;
  let zeroRelevantSkipped = 0;
  for (const qid of run.keys()) if (!qrels.has(qid)) ignored++;
  // Validate run queries that are ignored too (a duplicate is fatal in trec_eval whatever the qrels).
  for (const [qid, entries] of run) if (!qrels.has(qid)) rankTrec(entries, qid);
  for (const qid of [...qrels.keys()].sort(compareQid)) {
    const entries = run.get(qid);
    if (entries === undefined && !options.completeQueries) {
      if (options.missingRunQueries === 'error') {
        throw new SpanproofError('bad-input', `Query "${qid}" is judged in the qrels but has no lines in the run (trec_eval v10 stops here).`, {
          field: `run[${qid}]`, fix: 'Add the query to the run, or evaluate with completeQueries (trec_eval -c) to score it 0.',
        });
      }
      missingFromRun++;
      continue;
    }
    const ranked = rankTrec(entries ?? [], qid);
    if (options.skipZeroRelevant && ![...qrels.get(qid)!.values()].some((r) => r >= relevanceLevel)) {
      zeroRelevantSkipped++;
      continue;
    }
    perQuery.set(qid, evaluateQuery(qrels.get(qid)!, ranked, perQueryKeys, { relevanceLevel, gain }));
  }
  const mean: Record<string, number> = {};
  const n = perQuery.size;
  for (const k of keys) {
    if (k === 'num_q') { mean[k] = n; continue; }
    let s = 0;
    for (const row of perQuery.values()) s += row[k];
    mean[k] = SUMMED.has(k) ? s : n === 0 ? 0 : s / n;
  }
  return { perQuery, mean, counts: { evaluated: n, ignored, missingFromRun, zeroRelevantSkipped }, measures: keys, relevanceLevel, gain };
}
