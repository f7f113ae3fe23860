/**
 * Stage "external" (issue #18): the configs `external/<name>/none` of the settings'
 * `externalRetrievers`. Such a config skips chunk → index → retrieve → rerank: its result list is what
 * the user's retriever returned (src/core/external: a command or a URL, asked for N = poolSize
 * passages per question), mapped to corpus passages; it joins the grid at "score & attribute" and
 * everything after it (aggregate, bootstrap, verdict) is shared with the built-in configs.
 *
 * Scoring an external list: the item's own index is its returned passages (sorted by source, start),
 * so `reachable` = some returned passage alone reaches τ, and the causes are `ranked-too-low`,
 * `passage-split` and `retriever-missed` (src/core/attribution `externalSpanCause`). The ideal ordering
 * of nDCG is the evidence itself (a passage equal to each span, the best any retriever can return),
 * not the returned list — so returning one partial passage never scores nDCG 1.
 *
 * A question without a usable answer (the command died, the request failed) is a failed item,
 * reported and never averaged as zero; a retriever that answers no question at all fails the run with
 * its reason (stderr included).
 */
import { SpanproofError } from '../errors';
import type { Chunk, CorpusDocument } from '../types';
import type { RunSettings } from '../settings';
import type { ResolvedQuestion } from '../groundtruth';
import { analyzeIndex, type IndexAnalysis } from '../metrics/span';
import { primaryCutoffs, resolvePrimaryMetric } from '../metrics/registry';
import { mapReturnedItems, queryRetrieverUrl, runRetrieverCommand, type ExternalAnswer, type ExternalRequest } from '../external';
import { planExternalConfigs, type ConfigPlan } from './plan';
import { scoreItem, type ChunkerScoring } from './score';
import type { RunProgress } from './progress';
import type { ItemRecord } from './types';
import type { ExternalConfigSummary } from '../runs/types';
import { pairedComparison } from '../stats';

export interface ExternalStageInput {
  settings: RunSettings;
  /** Every question of the run, in ground-truth order. */
  questions: readonly ResolvedQuestion[];
  byName: ReadonlyMap<string, CorpusDocument>;
  /** Working directory of commands. */
  workspace: string;
  /** Embedder tokens of a result list (the run's context-token counter). */
  contextTokens: (list: readonly Chunk[]) => number;
  progress: RunProgress;
  signal?: AbortSignal;
  /** Sharded runs: only these question ids per config id (absent = all questions). */
  only?: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface ExternalStageOutput {
  configs: ConfigPlan[];
  items: ItemRecord[];
  warnings: string[];
}

/** Work units of the stage: one per (question, external config). */
export function externalTotal(settings: Pick<RunSettings, 'externalRetrievers'>, questions: number): number {
  return settings.externalRetrievers.length * questions;
}

/** Runs every external retriever over its questions and scores the answers. */
export async function externalStage(input: ExternalStageInput): Promise<ExternalStageOutput> {
  const { settings, progress } = input;
  const configs = planExternalConfigs(settings);
  const items: ItemRecord[] = [];
  const warnings: string[] = [];
  for (let i = 0; i < configs.length; i++) {
    const c = configs[i];
    const spec = settings.externalRetrievers[i];
    const mine = input.only ? input.questions.filter((q) => input.only!.get(c.id)?.has(q.id)) : input.questions;
    if (!mine.length) continue;
    await progress.setStage(`external:${c.retriever}`);
    const requests: ExternalRequest[] = mine.map((q) => ({ id: q.id, question: q.question, k: settings.poolSize }));
    const o = { timeoutMs: settings.external.timeoutMs, totalTimeoutMs: settings.external.totalTimeoutMs, signal: input.signal, onAnswer: () => void progress.tick(1) };
    const t0 = performance.now();
    const got: { answers: Map<string, ExternalAnswer>; failure: string | null; warnings?: string[] } = 'command' in spec
      ? await runRetrieverCommand(spec.command, requests, { ...o, cwd: input.workspace })
      : await queryRetrieverUrl(spec.url, requests, { ...o, concurrency: settings.external.concurrency, retries: settings.external.retries });
    const msPer = (performance.now() - t0) / mine.length;
    for (const w of got.warnings ?? []) warnings.push(`external retriever ${c.retriever}: ${w}`);
    const answered = mine.filter((q) => 'items' in got.answers.get(q.id)!).length;
    if (got.failure && answered === 0) {
      throw new SpanproofError('bad-input', `external retriever "${c.retriever}" answered no question: ${got.failure}.`, { field: 'externalRetrievers', fix: 'run the command (or call the URL) by hand with one request line, fix it, and run again (docs/external.md shows the protocol).' });
    }
    if (got.failure) warnings.push(`external retriever ${c.retriever}: ${got.failure}`);
    for (const q of mine) items.push(scoreExternal(c, q, got.answers.get(q.id)!, input, msPer));
  }
  return { configs, items, warnings };
}

/** The analysis of a question against the returned passages, with the evidence itself as nDCG's ideal. */
function externalAnalysis(q: ResolvedQuestion, passages: readonly Chunk[], tau: number): IndexAnalysis {
  const a = analyzeIndex(q.spans, q.match, passages, tau);
  const evidence = [...q.spans].sort((x, y) => (x.source < y.source ? -1 : x.source > y.source ? 1 : x.start - y.start)).map((s) => ({ ...s, id: `${s.source}#${s.start}-${s.end}`, text: '' }));
  const ideal = analyzeIndex(q.spans, q.match, evidence, tau);
  return { ...a, idealGains: ideal.idealGains, idcg: ideal.idcg, spans: a.spans.map((s, i) => ({ ...s, idealGains: ideal.spans[i].idealGains, idcg: ideal.spans[i].idcg })) };
}

/** One (question, external config) item: mapped, scored and attributed, or failed with the reason. */
function scoreExternal(c: ConfigPlan, q: ResolvedQuestion, answer: ExternalAnswer, input: ExternalStageInput, msPer: number): ItemRecord {
  const rec: ItemRecord = { question: q.id, config: c.id, chunker: c.chunker, retriever: c.retriever, rerank: false, status: 'ok', pool: [], final: [], retrieveMs: msPer, rerankMs: 0, scores: null };
  if ('error' in answer) return { ...rec, status: 'failed', error: answer.error };
  const { settings } = input;
  try {
    const m = mapReturnedItems(answer.items, input.byName, settings.poolSize);
    const scoring: ChunkerScoring = {
      chunks: m.chunks, questions: [q], analyses: [externalAnalysis(q, m.chunks, settings.tau)],
      extraCutoffs: primaryCutoffs(resolvePrimaryMetric(settings.primaryMetric, settings.k)), external: true,
    };
    rec.chunks = m.chunks;
    rec.final = rec.pool = m.ranked;
    rec.external = { returned: Math.min(answer.items.length, settings.poolSize), dropped: m.dropped, aligned: m.aligned };
    rec.scores = scoreItem(scoring, 0, rec.final, rec.pool, null, settings);
    rec.contextTokens = input.contextTokens(rec.final.slice(0, settings.k).map((h) => m.chunks[h.chunk]).filter((ch) => ch.end > ch.start));
    return rec;
  } catch (e) {
    if ((e as SpanproofError).code === 'cancelled') throw e;
    return { ...rec, status: 'failed', error: (e as Error).message, scores: null };
  }
}

/**
 * results.json's `external` block of each external config: returned/used/dropped counts, unknown
 * sources, aligned `text` items, and the paired bootstrap CI of (this − built-in config) of the
 * primary metric for every built-in config (the run's shared resamples, src/core/stats).
 */
export function externalSummaries(configs: readonly ConfigPlan[], items: readonly ItemRecord[], agg: { primary: ReadonlyMap<string, Float64Array>; resamples: Uint32Array[] }): Map<string, ExternalConfigSummary> {
  const out = new Map<string, ExternalConfigSummary>();
  const builtIn = configs.filter((c) => !c.external).map((c) => c.id).sort();
  for (const c of configs) {
    if (!c.external) continue;
    const its = items.filter((it) => it.config === c.id && it.external);
    const dropped: Record<string, number> = {};
    const unknown = new Set<string>();
    let returned = 0;
    let used = 0;
    const sims: number[] = [];
    for (const it of its) {
      returned += it.external!.returned;
      used += it.external!.returned - it.external!.dropped.length;
      for (const d of it.external!.dropped) {
        dropped[d.reason] = (dropped[d.reason] ?? 0) + 1;
        if (d.reason === 'unknown-source') unknown.add(d.source);
      }
      for (const a of it.external!.aligned) sims.push(a.similarity);
    }
    const mine = agg.primary.get(c.id);
    const vsBuiltIn = mine && agg.resamples.length
      ? builtIn.filter((b) => agg.primary.has(b)).map((b) => {
        const d = pairedComparison(mine, agg.primary.get(b)!, agg.resamples);
        return { config: b, diff: { mean: d.mean, lo: d.lo, hi: d.hi }, p: d.p };
      })
      : [];
    out.set(c.id, { kind: c.external.kind, returned, used, dropped, unknownSources: [...unknown].sort().slice(0, 20), aligned: { count: sims.length, minSimilarity: sims.length ? Math.min(...sims) : null }, vsBuiltIn });
  }
  return out;
}
