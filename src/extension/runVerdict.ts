/**
 * A run's verdict as the editor shows it (status bar, CodeLens, Test Explorer): the recommended config
 * and how strong the evidence is. Takes the verdict object when the run has one (ranking.json format 2,
 * SPEC §9 v2: `RunData.verdict`, `GridRunResult.verdict`), else reads the ranking — the format-2 file
 * (`{ spanproof: 2, verdict, configs }`) or the format-1 array of entries of older runs (recommended
 * flag; no evidence status). vscode-free.
 */
import type { EvidenceStatus } from '../core/ranking/verdict';

export interface RunVerdict {
  /** Config id to use; null when the run recommends none. */
  recommended: string | null;
  /** Evidence status (format 2); null for a format-1 ranking, which has none. */
  status: EvidenceStatus | null;
  /** The verdict in plain words (format 2), else null. */
  summary: string | null;
  /** Rank-1 config of the quality order. */
  top: string | null;
}

interface V1Entry {
  id: string;
  rank: number;
  recommended?: boolean;
}
interface V2File {
  spanproof: 2;
  verdict: { recommended: string | null; best: string | null; status: EvidenceStatus; summary: string };
  configs: Array<{ id: string; rank: number }>;
}

/** The verdict of a run: its verdict object if given, else its ranking (either format); all-null when there is none. */
export function runVerdict(ranking: unknown, verdict?: V2File['verdict'] | null): RunVerdict {
  if (verdict) {
    const rows = Array.isArray(ranking) ? (ranking as V1Entry[]) : [];
    const top = [...rows].sort((a, b) => a.rank - b.rank)[0]?.id ?? verdict.best ?? null;
    return { recommended: verdict.recommended, status: verdict.status, summary: verdict.summary, top };
  }
  if (Array.isArray(ranking)) {
    const rows = ranking as V1Entry[];
    const top = [...rows].sort((a, b) => a.rank - b.rank)[0]?.id ?? null;
    return { recommended: rows.find((r) => r.recommended)?.id ?? null, status: null, summary: null, top };
  }
  if (ranking && typeof ranking === 'object' && (ranking as V2File).spanproof === 2) {
    const v = (ranking as V2File).verdict;
    const top = [...((ranking as V2File).configs ?? [])].sort((a, b) => a.rank - b.rank)[0]?.id ?? v.best ?? null;
    return { recommended: v.recommended, status: v.status, summary: v.summary, top };
  }
  return { recommended: null, status: null, summary: null, top: null };
}
