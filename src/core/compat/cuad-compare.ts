/**
 * Pathway's retrieval hit rule as a comparison metric over a Spanproof run (SPEC §13): for every
 * config, the 0.65 word-overlap hit index of each question over the run's ranked result chunks
 * (labels = the evidence texts, as Pathway's labels are the clause excerpts), aggregated Pathway's way
 * and the fixed way (src/core/compat/cuad-hit.ts), beside the run's own span hit@k and MRR — and how
 * often the two rules agree on hit@k.
 */
import * as path from 'node:path';
import { readRun } from '../runs';
import { readTextFile } from '../import/common';
import { cuadHitIndex, cuadRetrievalMetrics, type CuadRetrievalMetrics } from './cuad-hit';

export interface PathwayComparisonRow {
  config: string;
  /** Questions scored for this config. */
  n: number;
  /** The run's span hit@k and MRR over the same questions. */
  span: { hitAtK: number; mrr: number };
  pathway: CuadRetrievalMetrics;
  fixed: CuadRetrievalMetrics;
  /** Share of questions where Pathway's rule (hit index < k) and span hit@k agree. */
  agreement: number;
  k: number;
}

export interface PathwayComparisonInput {
  k: number;
  /** Ranked result-chunk texts per (question, config), with the run's span hit@k and reciprocal rank. */
  items: ReadonlyArray<{ question: string; config: string; texts: readonly string[]; spanHit: 0 | 1; rr: number }>;
  /** Labels (evidence texts) per question. */
  labels: ReadonlyMap<string, readonly string[]>;
  /** How many result chunks the rule looks at (Pathway's app returns 8). Default 8. */
  depth?: number;
}

/** Compares Pathway's rule with span hit@k per config (configs sorted by id). */
export function comparePathwayHitRule(input: PathwayComparisonInput): PathwayComparisonRow[] {
  const depth = input.depth ?? 8;
  const byConfig = new Map<string, Array<PathwayComparisonInput['items'][number]>>();
  for (const it of input.items) {
    const l = byConfig.get(it.config) ?? [];
    l.push(it);
    byConfig.set(it.config, l);
  }
  const rows: PathwayComparisonRow[] = [];
  for (const [config, items] of [...byConfig].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const pw: Array<number | null | 'unscorable'> = [];
    const fx: Array<number | null | 'unscorable'> = [];
    let agree = 0;
    for (const it of items) {
      const labels = [...(input.labels.get(it.question) ?? [])];
      const docs = it.texts.slice(0, depth);
      const p = cuadHitIndex(labels, docs, { mode: 'pathway' });
      pw.push(p);
      fx.push(cuadHitIndex(labels, docs, { mode: 'fixed' }));
      if ((typeof p === 'number' && p < input.k ? 1 : 0) === it.spanHit) agree++;
    }
    rows.push({
      config, n: items.length, k: input.k,
      span: { hitAtK: items.reduce((s, i) => s + i.spanHit, 0) / items.length, mrr: items.reduce((s, i) => s + i.rr, 0) / items.length },
      pathway: cuadRetrievalMetrics(pw, 'pathway', [3, 6, input.k]),
      fixed: cuadRetrievalMetrics(fx, 'fixed', [3, 6, input.k]),
      agreement: agree / items.length,
    });
  }
  return rows;
}

/**
 * Builds the comparison input from a finished run directory: labels from `evidence.json`, result
 * chunk texts sliced from the workspace documents named in `run.json`.
 * @throws SpanproofError('not-found') when the run or a document is missing.
 */
export function readPathwayComparisonFromRun(runDir: string, depth = 8): PathwayComparisonInput {
  const run = readRun(runDir);
  const workspace = run.run.workspace;
  const texts = new Map<string, string>();
  const textOf = (source: string): string => {
    let t = texts.get(source);
    if (t === undefined) texts.set(source, (t = readTextFile(path.join(workspace, source), 'corpus document')));
    return t;
  };
  const labels = new Map((run.evidence?.questions ?? []).map((q) => [q.id, q.spans.map((s) => s.text)]));
  const items = run.questions.filter((r) => r.status === 'ok').map((r) => ({
    question: r.question,
    config: r.config,
    texts: r.results.slice(0, depth).map((x) => textOf(x.source).slice(x.start, x.end)),
    spanHit: (r['hit@5'] ?? 0) as 0 | 1,
    rr: r.rr ?? 0,
  }));
  const k = run.questions.find((r) => typeof r.k === 'number')?.k ?? run.results?.k ?? 5;
  return { k, items, labels, depth };
}
