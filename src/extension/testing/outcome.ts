/**
 * What one question's record says, for the editor's surfaces (Test Explorer, CodeLens, hover, tree):
 * hit or miss at the run's own k, and a miss explained — cause, advice, the best chunk and where the
 * cut fell, the config. vscode-free, so the wording is unit-tested (test/unit/extension/outcome.test.ts).
 * Metric keys carry the run's real cutoff (`hit@10` when k = 10), never a fixed `hit@5`.
 */
import { CAUSE_ADVICE } from '../../core/attribution';
import { markdownCode } from '../../core/report/escape';
import { metricKey } from '../../core/metrics/registry';
import type { Cause } from '../../core/types';
import type { MissDetail, QuestionRecord } from '../../core/runs';

/** Key of a metric family at cutoff `k` (`hit@10`), from the metric registry: the name carries the real cutoff. */
const metricAt = (family: 'hit' | 'coverage', k: number): string => metricKey(family, k);

/** hit@k of one record (1, 0, or null when not scored), at the run's k (the record's own `k` wins). */
export function hitAt(r: QuestionRecord, k: number): 0 | 1 | null {
  const v = r[metricAt('hit', r.k ?? k)];
  return v === 1 ? 1 : v === 0 ? 0 : null;
}

/** coverage@k of one record, or null. */
export function coverageAt(r: QuestionRecord, k: number): number | null {
  const v = r[metricAt('coverage', r.k ?? k)];
  return typeof v === 'number' ? v : null;
}

export type Verdict = 'passed' | 'failed' | 'errored';

/** A question's outcome in one config: passed = hit@k, failed = a miss (with a cause), errored = the item failed. */
export function verdictOf(r: QuestionRecord, k: number): Verdict {
  if (r.status === 'failed') return 'errored';
  return hitAt(r, k) === 1 ? 'passed' : 'failed';
}

const f2 = (x: number) => x.toFixed(2);

/** Where the evidence the outcome is about sits: the deciding span of a miss. */
export interface EvidenceAt {
  source: string;
  start: number;
  end: number;
}

export interface OutcomeText {
  verdict: Verdict;
  /** One line for lists and notifications (`miss: retriever-missed in fixed/bm25/none`). */
  summary: string;
  /** Markdown for a TestMessage / hover: cause, advice, best chunk, the cut, the config. */
  markdown: string;
  /** The evidence span the message belongs at (the miss's deciding span), when known. */
  at: EvidenceAt | null;
}

/**
 * Explain record `r` (config `r.config`) at cutoff `k` and threshold `tau`. `role` names why this
 * config is the one judged ("recommended config", "rank 1 of this run").
 *
 * Example (a miss): "**Miss — retriever-missed** in `fixed/bm25/none` (recommended config; k = 5, τ = 0.5)"
 * then the advice of SPEC §8, then "Best chunk `a.md` [700, 1500) covers 0.82 of the evidence, rank 9 of
 * the result list (pool rank 12). Where the cut fell: 40 evidence characters before the chunk, 0 after."
 */
export function describeOutcome(r: QuestionRecord, k: number, tau: number, role: string): OutcomeText {
  const kk = r.k ?? k;
  const head = `in ${markdownCode(r.config)} (${role}; k = ${kk}, τ = ${tau})`;
  const verdict = verdictOf(r, k);
  if (verdict === 'errored') {
    const err = typeof r.error === 'string' ? r.error : 'the item failed in the worker';
    return { verdict, summary: `failed to score in ${r.config}: ${err}`, markdown: `**Not scored** ${head}: ${err}`, at: null };
  }
  const cov = coverageAt(r, k);
  const covText = cov === null ? '' : ` · ${metricAt('coverage', kk)} = ${f2(cov)}`;
  if (verdict === 'passed') {
    return { verdict, summary: `hit in ${r.config}`, markdown: `**Hit** ${head}: the top ${kk} results hold at least τ of the evidence${covText}.`, at: null };
  }
  const cause = (r.cause ?? 'miss') as Cause | 'miss';
  const advice = cause === 'miss' ? '' : CAUSE_ADVICE[cause];
  const miss = (r.miss as MissDetail | undefined) ?? null;
  const lines = [`**Miss — ${cause}** ${head}${covText}`, ''];
  if (advice) lines.push(`${advice[0].toUpperCase()}${advice.slice(1)}.`, '');
  if (miss) lines.push(...cutLines(miss, kk));
  return { verdict, summary: `miss: ${cause} in ${r.config}`, markdown: lines.join('\n').trimEnd(), at: miss ? { source: miss.evidence.source, start: miss.evidence.start, end: miss.evidence.end } : null };
}

/** "Best chunk …" and "Where the cut fell …" of a miss (offsets in UTF-16 code units). */
function cutLines(m: MissDetail, k: number): string[] {
  const e = m.evidence;
  const b = m.bestChunk;
  const out: string[] = [];
  if (!b) {
    out.push(`No chunk of the index touches the evidence ${markdownCode(e.source)} [${e.start}, ${e.end}).`);
    return out;
  }
  const rank = m.bestChunkRank === null ? 'not in the candidate pool' : `rank ${m.bestChunkRank} of the result list${m.bestChunkRank > k ? ` (below k = ${k})` : ''}`;
  const pool = m.bestChunkPoolRank === null ? '' : ` (retriever's rank ${m.bestChunkPoolRank})`;
  out.push(`Best chunk ${markdownCode(b.source)} [${b.start}, ${b.end}) covers ${f2(b.coverage)} of the evidence ${markdownCode(e.source)} [${e.start}, ${e.end}), ${rank}${pool}.`);
  out.push('');
  let cut = m.charsBefore === 0 && m.charsAfter === 0 ? 'Where the cut fell: nowhere — the chunk holds the whole evidence' : `Where the cut fell: ${m.charsBefore} evidence characters before the chunk, ${m.charsAfter} after`;
  if (m.neighbour) cut += `; the chunk ${m.neighbour.side} it holds the rest (the pair covers ${f2(m.neighbour.pairCoverage)})`;
  out.push(`${cut}.`);
  return out;
}
