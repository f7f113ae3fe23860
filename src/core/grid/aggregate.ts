/**
 * Aggregation of a grid run (SPEC §7.1 aggregates, §7.4 statistics, §8 cause counts): per config the
 * mean of every metric over the scored questions with a 95% percentile-bootstrap CI, the τ sweep of
 * hit@k, cause counts and mean context cost, under the metric keys of src/core/metrics/registry.ts at
 * the run's real cutoff (`coverage@10` when k = 10). Ranks, explanations and the comparison with the
 * best config come from the verdict stage (./ranking.ts, src/core/ranking), not from here.
 *
 * One set of B resamples of the question indices (src/core/stats, seeded) is applied to every config,
 * so a config's numbers do not depend on which other configs ran, and differences are paired.
 * A failed item is NaN in its config's column: left out of the means (percentileCI skips NaN) and
 * listed in `failed`, never averaged as zero.
 */
import { CAUSES, type Cause } from '../types';
import type { RunSettings } from '../settings';
import type { ResolvedQuestion } from '../groundtruth';
import { bootstrapResampleSteps, percentileCIs } from '../stats';
import { runSteps, type Steps } from '../steps';
import { metricDef, resolvePrimaryMetric, resultMetricKeys } from '../metrics/registry';
import type { ConfigResult, MeanCI } from '../runs/types';
import type { ConfigPlan } from './plan';
import { TAU_SWEEP } from './plan';
import type { ItemRecord } from './engine';

/** Distinct CI columns computed between two yields of {@link aggregateSteps} (≈ 10 ms of work at B = 2000, n = 45). */
const CI_GROUP = 32;

/** Values of one config over the questions (NaN = item failed / not scored). */
type Column = Float64Array;

function mean(col: Column): number {
  let s = 0;
  let n = 0;
  for (const v of col) if (!Number.isNaN(v)) { s += v; n++; }
  return n ? s / n : NaN;
}

export interface AggregateOutput {
  /** Sorted by id; `rank`, `explanation` and `vsTop` are filled by the verdict stage (./ranking.ts). */
  configs: ConfigResult[];
  /** Resolved primary metric key (`hit@5` for the default `hit@k` at k = 5). */
  primaryMetric: string;
  /** Per config, per question: primary-metric column, for ranking and comparison. */
  primary: Map<string, Column>;
  /** The shared bootstrap resamples of question indices. */
  resamples: Uint32Array[];
}

/**
 * Aggregates the items of a run. `questions` fixes the question order (the bootstrap resamples
 * index into it). Config entries are returned sorted by id.
 */
export function aggregate(configs: readonly ConfigPlan[], items: readonly ItemRecord[], questions: ReadonlyArray<Pick<ResolvedQuestion, 'id'>>, settings: RunSettings): AggregateOutput {
  return runSteps(aggregateSteps(configs, items, questions, settings));
}

/** {@link aggregate} as steps (src/core/steps.ts): yields while drawing the resamples and after every bootstrap CI. */
export function* aggregateSteps(configs: readonly ConfigPlan[], items: readonly ItemRecord[], questions: ReadonlyArray<Pick<ResolvedQuestion, 'id'>>, settings: RunSettings): Steps<AggregateOutput> {
  const n = questions.length;
  const qIndex = new Map(questions.map((q, i) => [q.id, i]));
  // With one question every resample is that question, so one resample gives the same CIs as B
  // (a one-question re-run from the editor stays fast).
  const B = n === 1 ? Math.min(1, settings.bootstrap.resamples) : settings.bootstrap.resamples;
  const resamples = n > 0 ? yield* bootstrapResampleSteps(n, B, settings.bootstrap.seed) : [];
  // Every CI's column is gathered first; a column with the same values as an earlier one (a metric
  // that agrees across τ, configs whose reranker kept the order, …) shares its CI — computed once,
  // bit-identical by construction — and the distinct ones are computed in groups (B × n work each).
  const unique = new Map<string, { col: Column; ci?: MeanCI }>();
  const need = (col: Column): { col: Column; ci?: MeanCI } => {
    const key = Buffer.from(col.buffer, col.byteOffset, col.byteLength).toString('latin1');
    let u = unique.get(key);
    if (!u) unique.set(key, (u = { col }));
    return u;
  };
  const k = settings.k;
  const byConfig = new Map<string, ItemRecord[]>();
  for (const it of items) {
    let l = byConfig.get(it.config);
    if (!l) byConfig.set(it.config, (l = []));
    l.push(it);
  }
  const primaryMetric = resolvePrimaryMetric(settings.primaryMetric, k, settings.poolSize);
  const keys = resultMetricKeys(k, primaryMetric);
  const primaryKey = metricDef(primaryMetric).questionKey;
  const primary = new Map<string, Column>();
  const pending: Array<{ result: ConfigResult; metrics: Array<[string, { ci?: MeanCI }]>; tau: Array<[string, { ci?: MeanCI }]> }> = [];
  for (const c of [...configs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const its = byConfig.get(c.id) ?? [];
    const col = (f: (it: ItemRecord) => number | undefined): Column => {
      const v = new Float64Array(n).fill(NaN);
      for (const it of its) {
        const qi = qIndex.get(it.question);
        if (qi === undefined || it.status !== 'ok' || !it.scores) continue;
        const x = f(it);
        if (x !== undefined) v[qi] = x;
      }
      return v;
    };
    const metrics = keys.map((m): [string, { ci?: MeanCI }] => {
      const key = metricDef(m).questionKey;
      return [m, need(col((it) => it.scores!.metrics[key]))];
    });
    const tau = TAU_SWEEP.map((t): [string, { ci?: MeanCI }] => [String(t), need(col((it) => it.scores!.tauHits[String(t)]))]);
    const causes = Object.fromEntries(CAUSES.map((x) => [x, 0])) as Record<Cause, number>;
    for (const it of its) if (it.status === 'ok' && it.scores?.cause) causes[it.scores.cause]++;
    const ok = its.filter((it) => it.status === 'ok' && it.scores);
    primary.set(c.id, col((it) => it.scores!.metrics[primaryKey]));
    pending.push({
      metrics,
      tau,
      result: {
        id: c.id,
        chunker: c.chunker,
        retriever: c.retriever,
        rerank: c.rerank,
        scored: ok.length,
        failed: its.filter((it) => it.status === 'failed').map((it) => it.question).sort(),
        metrics: {},
        causes,
        contextChars: mean(col((it) => it.scores!.metrics.contextChars)),
        contextTokens: mean(col((it) => it.contextTokens)),
        tauSweep: {},
        vsTop: null,
        rank: 0,
        explanation: '',
      },
    });
  }
  const todo = [...unique.values()];
  for (let g = 0; g < todo.length; g += CI_GROUP) {
    const group = todo.slice(g, g + CI_GROUP);
    const cis = n > 0 ? percentileCIs(group.map((u) => u.col), resamples) : group.map(() => ({ mean: NaN, lo: NaN, hi: NaN }));
    group.forEach((u, i) => (u.ci = cis[i]));
    yield; // each CI is B × n work
  }
  const out: ConfigResult[] = pending.map((p) => ({
    ...p.result,
    metrics: Object.fromEntries(p.metrics.map(([m, u]) => [m, { ...u.ci! }])),
    tauSweep: Object.fromEntries(p.tau.map(([t, u]) => [t, { ...u.ci! }])),
  }));
  return { configs: out, primaryMetric, primary, resamples };
}
