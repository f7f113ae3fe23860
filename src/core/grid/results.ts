/**
 * What the aggregate and verdict stages hand to "write" (SPEC §10–§11): the results.json object, the
 * timings, one questions.jsonl record per item and evidence.json — built from the engine's items and
 * the inputs, with no file access (src/core/runs/write.ts writes them).
 */
import type { Chunk, CorpusDocument } from '../types';
import type { ResolvedQuestion } from '../groundtruth';
import { latencySummary, type LatencySummary } from '../ranking';
import type { ConfigResult, EvidenceFile, QuestionRecord, ResultsFile, TimingsFile } from '../runs/types';
import type { RunSettings } from '../settings';
import type { RunInputs } from './load';
import type { EngineOutput, ItemRecord } from './types';

/** The questions.jsonl record of an item (SPEC §11 keys, plus `k`, `metrics`, `miss`, `error`). */
export function questionRecord(it: ItemRecord, chunks: readonly Chunk[], k: number): QuestionRecord {
  const span = (h: { chunk: number; score: number }) => {
    const c = chunks[h.chunk];
    return { source: c.source, start: c.start, end: c.end, score: h.score };
  };
  const m = it.scores?.metrics;
  return {
    question: it.question,
    config: it.config,
    status: it.status,
    results: it.status === 'ok' ? it.final.map(span) : [],
    pool: it.status === 'ok' ? it.pool.map(span) : [],
    'coverage@5': m ? m['coverage@5'] : null,
    'hit@5': m ? (m['hit@5'] as 0 | 1) : null,
    rr: m ? m.rr : null,
    cause: it.scores?.cause ?? null,
    k,
    ...(m && k !== 5 ? { [`coverage@${k}`]: m[`coverage@${k}`], [`hit@${k}`]: m[`hit@${k}`] } : {}),
    ...(m ? { metrics: m, tauHits: it.scores!.tauHits, contextTokens: it.contextTokens } : {}),
    ...(it.scores?.miss ? { miss: it.scores.miss } : {}),
    ...(it.error ? { error: it.error } : {}),
    ...(it.external ? { external: it.external } : {}),
  };
}

/** The chunks an item's hits index into: its own (external retrievers) or its chunker's. */
function itemChunks(it: ItemRecord, chunksOf: ReadonlyMap<string, readonly Chunk[]>): readonly Chunk[] {
  return it.chunks ?? chunksOf.get(it.chunker) ?? [];
}

/** Every item's record, in engine order (the writer sorts them). */
export function questionRecords(out: EngineOutput, k: number): QuestionRecord[] {
  const chunksOf = new Map<string, readonly Chunk[]>(out.stages.map((s) => [s.chunker, s.chunks]));
  return out.items.map((it) => questionRecord(it, itemChunks(it, chunksOf), k));
}

/** results.json (deterministic: no timing in it). `configs` come from the verdict stage (rank, explanation, vsTop). */
export interface ResultsInputs {
  questions: { length: number };
  acceptance: RunInputs['acceptance'];
  skipped: ReadonlyArray<{ source: string; reason: string; detail: string }>;
}

export function buildResults(inputs: ResultsInputs, settings: RunSettings, primaryMetric: string, configs: ConfigResult[], out: { stages: ReadonlyArray<{ chunker: string; error?: string }>; items: readonly ItemRecord[] }): ResultsFile {
  const n = inputs.questions.length;
  return {
    spanproof: 1,
    k: settings.k,
    tau: settings.tau,
    n,
    poolSize: settings.poolSize,
    primaryMetric,
    seed: settings.bootstrap.seed,
    resamples: settings.bootstrap.resamples,
    questions: n,
    acceptance: inputs.acceptance,
    configs,
    skipped: inputs.skipped.map((s) => ({ source: s.source, reason: s.reason, detail: s.detail })),
    errors: [
      ...out.stages.filter((s) => s.error).map((s) => ({ stage: 'chunker', chunker: s.chunker, message: s.error! })),
      ...out.items.filter((i) => i.status === 'failed').map((f) => ({ stage: 'item', config: f.config, question: f.question, message: f.error ?? 'failed' })),
    ],
  };
}

/** Measured latency per config: median and IQR of its items' retrieve + rerank ms (ok items only). */
export function configLatencies(out: Pick<EngineOutput, 'configs' | 'items'>): Map<string, LatencySummary> {
  return new Map(out.configs.map((c) => [c.id, latencySummary(out.items.filter((i) => i.config === c.id && i.status === 'ok').map((i) => i.retrieveMs + i.rerankMs))]));
}

/** timings.json (`totalMs` is set by the caller when the run ends). */
export function buildTimings(out: Pick<EngineOutput, 'configs' | 'items' | 'stages'>, latency: ReadonlyMap<string, LatencySummary>, stageMs: Record<string, number>, documents: number, resources?: TimingsFile['resources']): TimingsFile {
  const perConfig: TimingsFile['perConfig'] = {};
  for (const c of out.configs) {
    const its = out.items.filter((i) => i.config === c.id && i.status === 'ok');
    const l = latency.get(c.id)!;
    perConfig[c.id] = {
      retrieveMs: its.reduce((s, i) => s + i.retrieveMs, 0),
      rerankMs: its.reduce((s, i) => s + i.rerankMs, 0),
      medianQueryMs: l.n ? l.medianMs : 0,
      p25QueryMs: l.n ? l.p25Ms : 0,
      p75QueryMs: l.n ? l.p75Ms : 0,
      timedQueries: l.n,
    };
  }
  const perItem: NonNullable<TimingsFile['perItem']> = {};
  for (const it of out.items) if (it.status === 'ok') (perItem[it.question] ??= {})[it.config] = { retrieveMs: it.retrieveMs, rerankMs: it.rerankMs };
  return {
    totalMs: 0,
    stages: stageMs,
    ...(resources ? { resources } : {}),
    perChunker: Object.fromEntries(out.stages.map((s) => [s.chunker, { chunkMs: s.chunkMs, bm25Ms: s.bm25Ms, embedMs: s.embedMs, chunks: s.chunks.length, cacheHit: s.cachedDocs === documents, cachedDocs: s.cachedDocs, ...(s.resources ?? {}) }])),
    perConfig,
    perItem,
  };
}

/** evidence.json: the scored questions with their evidence text, and the texts of the chunks misses point at. */
export function buildEvidence(questions: readonly ResolvedQuestion[], byName: ReadonlyMap<string, CorpusDocument>, out: EngineOutput): EvidenceFile {
  const chunksOf = new Map<string, readonly Chunk[]>(out.stages.map((s) => [s.chunker, s.chunks]));
  const chunkTexts: Record<string, Record<string, string>> = {};
  for (const it of out.items) {
    const cut = it.scores?.miss;
    if (!cut) continue;
    const map = (chunkTexts[it.chunker] ??= {});
    const cs = itemChunks(it, chunksOf);
    for (const ref of [cut.bestChunk, cut.neighbour]) if (ref && cs[ref.chunk]) map[ref.id] = cs[ref.chunk].text;
  }
  return {
    questions: questions.map((q) => ({ id: q.id, question: q.question, match: q.match, spans: q.spans.map((s) => ({ ...s, text: byName.get(s.source)!.text.slice(s.start, s.end) })) })),
    chunks: chunkTexts,
  };
}
