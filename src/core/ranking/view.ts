/**
 * Reading a run's ranking.json, whichever format wrote it, into the one view every surface reads
 * (RunData.ranking + verdict): format 2 (SPEC §9 v2, an object with `spanproof: 2`) and format 1
 * (older runs: an array of weighted-score entries, no verdict status). Older runs keep working in
 * `spanproof report` and the panel's History.
 */
import type { RankingEntry, ResultsFile, TimingsFile } from '../runs/types';
import type { RankingFile, TimedVerdict, Verdict } from './types';

export interface RankingView {
  format: 1 | 2;
  /** In rank order. */
  entries: RankingEntry[];
  /** Null for format-1 runs (written before the verdict existed). */
  verdict: Verdict | null;
  timedVerdict: TimedVerdict | null;
}

/** True for a ranking.json of format 2. */
export function isRankingFileV2(raw: unknown): raw is RankingFile {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) && (raw as { spanproof?: unknown }).spanproof === 2;
}

/**
 * The entries of a format-2 ranking with the format-1 keys the panel reads: `latencyMs` (median from
 * timings.json), `contextChars` (results.json), `tiedWithTop` (= not significantly worse).
 */
export function rankingEntries(file: RankingFile, timings: TimingsFile | null, results: ResultsFile | null): RankingEntry[] {
  const chars = new Map((results?.configs ?? []).map((c) => [c.id, c.contextChars]));
  return file.configs.map((c) => ({
    ...c,
    latencyMs: timings?.perConfig[c.id]?.medianQueryMs ?? null,
    contextChars: chars.get(c.id) ?? (c.cost.contextUnit === 'characters' ? c.cost.context : NaN),
    tiedWithTop: !c.significantlyWorse,
  }));
}

/**
 * The view of a parsed ranking.json (`raw`), or null when there is none. Format 1 is passed through
 * (sorted by rank); anything else that is not an array or a format-2 object gives null.
 */
export function rankingView(raw: unknown, timings: TimingsFile | null, results: ResultsFile | null): RankingView | null {
  if (isRankingFileV2(raw)) return { format: 2, entries: rankingEntries(raw, timings, results), verdict: raw.verdict, timedVerdict: raw.timedVerdict ?? null };
  if (Array.isArray(raw)) return { format: 1, entries: [...(raw as RankingEntry[])].sort((a, b) => a.rank - b.rank), verdict: null, timedVerdict: null };
  return null;
}
