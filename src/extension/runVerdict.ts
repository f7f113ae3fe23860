/**
 * A run's verdict as the editor shows it (status bar, CodeLens, Test Explorer): the recommended config
 * and how strong the evidence is. Reads ranking.json format 2 (`{ spanproof: 2, verdict, configs }`,
 * SPEC §9 v2, src/core/ranking/types.ts) and, for runs written before it, the format-1 array of
 * entries (recommended flag; no evidence status). vscode-free.
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

/** The verdict of a run's ranking (either format); all-null when there is no ranking. */
export function runVerdict(ranking: unknown): RunVerdict {
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
