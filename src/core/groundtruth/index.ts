/**
 * Span ground truth (SPEC §3): the `.spanproof/groundtruth.json` file, its schema, atomic writes, and
 * the resolution of each evidence selector (a W3C TextQuoteSelector `exact`/`prefix`/`suffix` plus a
 * TextPositionSelector `start`/`end` cache) to a span of a corpus document.
 *
 * Units: every offset is a UTF-16 code unit index into the document text (BOM removed, EOLs as on
 * disk). Line numbers are 1-based and count `\r\n`, `\r` and `\n` each as one line break.
 *
 * **The quote is the truth; offsets are a cache.** Resolution never uses fuzzy matching; the "nearest
 * near-match" of a stale quote is reported for a quick fix only.
 */
import type { SkippedFile } from '../corpus';
import type { Span } from '../types';

/** One evidence item: TextQuoteSelector (`exact`, `prefix`, `suffix`) + TextPositionSelector (`start`, `end`). */
export interface EvidenceSelector {
  /** POSIX path relative to the corpus root. */
  source: string;
  /** The verbatim quote (UTF-16 string; may contain `\r\n`). */
  exact: string;
  /** Up to ~32 characters immediately before the quote (used to disambiguate repeats). */
  prefix?: string;
  /** Up to ~32 characters immediately after the quote. */
  suffix?: string;
  /** Cached start offset (UTF-16 code units); present together with `end`. */
  start?: number;
  /** Cached end offset (exclusive, UTF-16 code units). */
  end?: number;
  /** Unknown fields are preserved on save. */
  [extra: string]: unknown;
}

export interface Question {
  id: string;
  question: string;
  /** Optional reference answer. */
  answer?: string;
  /** One or more evidence selectors. */
  evidence: EvidenceSelector[];
  /** `all` (default): every span is needed; `any`: alternatives, the best one counts. */
  match?: 'all' | 'any';
  tags?: string[];
  /** `"draft"`: drafted by a model (src/core/draft) and not yet accepted — never scored; absent = an ordinary question. */
  status?: 'draft';
  /** Where a drafted question came from; kept when it is accepted. */
  provenance?: DraftProvenance;
  [extra: string]: unknown;
}

/** `provenance` of a drafted question (`spanproof draft`). */
export interface DraftProvenance {
  model: string;
  /** The endpoint's base URL with any credentials (user:password@, key-like query parameters) redacted. */
  endpoint: string;
  /** `<id>@<version>#<hash>` of the drafting prompt. */
  promptVersion: string;
  /** The passage the model was shown: `text.slice(start, end)` of `source` (UTF-16 code units). */
  passage: { source: string; start: number; end: number };
  /** ISO 8601 time of drafting. */
  createdAt: string;
  [extra: string]: unknown;
}

export interface GroundTruthFile {
  /** Format version; always 1. */
  spanproof: 1;
  /** Optional corpus name (informational). */
  corpus?: string;
  questions: Question[];
  [extra: string]: unknown;
}

/** How one evidence selector resolved (SPEC §3.2). */
export type EvidenceResolution =
  /** `resolved`: the cached offsets are right (rule 1, or an EOL-insensitive re-anchor that found the same offsets);
   *  `moved`: re-anchored to different offsets (rule 2) — the new offsets are written on the next save. */
  | { status: 'resolved' | 'moved'; span: Span }
  /** Rule 3: no occurrence, or the source is not in the corpus (`reason: "source not found"`), was skipped by
   *  the corpus loader (`"source skipped: <reason> (<detail>)"`) or leaves the corpus root. */
  | { status: 'stale'; reason: string; nearest?: NearMatch }
  /** Rule 4: several equally good occurrences; candidate offsets and 1-based lines. */
  /** `candidates` holds the first MAX_CANDIDATES occurrences in document order; `total` (only when more) counts them all. */
  | { status: 'ambiguous'; candidates: AnchorCandidate[]; total?: number }
  /** Rule 5: the quote is too short (or longer than `maxQuoteLength`) to be evidence. */
  | { status: 'rejected'; reason: string };

/** The best near-match of a stale quote, for the report / quick fix only — never used as a resolution. */
export interface NearMatch {
  start: number;
  end: number;
  /** 1-based line of `start`. */
  line: number;
  /** The document text `[start, end)`. */
  text: string;
  /** Token-overlap similarity in [0, 1] (fraction of the quote's word tokens found in the window), 3 decimals. */
  similarity: number;
}

export interface AnchorCandidate {
  start: number;
  end: number;
  /** 1-based line of `start`. */
  line: number;
}

/** A question whose every evidence item resolved; `spans` in evidence order. */
export interface ResolvedQuestion {
  id: string;
  question: string;
  answer?: string;
  match: 'all' | 'any';
  tags: string[];
  spans: Span[];
}

/** The acceptance report — exactly the `validate --json` object of SPEC §11 (plus extra keys). */
export interface AcceptanceReport {
  /** Number of questions in the file. */
  total: number;
  /** Questions whose every evidence item resolved (including moved ones). */
  resolved: number;
  /** Resolved questions with at least one evidence item re-anchored to new offsets (a subset of `resolved`). */
  moved: number;
  /** One entry per stale evidence item. `evidence` is its index in the question's evidence list. */
  stale: Array<{ id: string; source: string; exact: string; reason: string; evidence: number; nearest?: NearMatch }>;
  /** One entry per ambiguous evidence item. */
  ambiguous: Array<{ id: string; source: string; exact: string; evidence: number; candidates: AnchorCandidate[]; candidatesTotal?: number }>;
  /** One entry per rejected evidence item. */
  rejected: Array<{ id: string; reason: string; source: string; evidence: number }>;
  /** One entry per moved evidence item: old and new offsets. */
  relocated: Array<{ id: string; source: string; evidence: number; from: { start?: number; end?: number }; to: { start: number; end: number; line: number } }>;
  /** Drafted questions (`"status": "draft"`) left out of a run until accepted; set by the grid run only when there are some. */
  draftsExcluded?: number;
}

export interface Resolution {
  /** Fully resolved questions only, in file order. */
  questions: ResolvedQuestion[];
  /** `perEvidence[i][j]`: resolution of `gt.questions[i].evidence[j]`. */
  perEvidence: EvidenceResolution[][];
  acceptance: AcceptanceReport;
  /** A copy of the input with moved offsets applied (everything else untouched). */
  updated: GroundTruthFile;
  /** True when `updated` differs from the input (some offsets moved or were filled in). */
  changed: boolean;
}

export interface ResolveOptions {
  /** Quotes shorter than this many UTF-16 code units (after trimming whitespace) are rejected; default 12. */
  minQuoteLength?: number;
  /** Quotes longer than this many UTF-16 code units (as written, untrimmed) are rejected; default 20 000. */
  maxQuoteLength?: number;
  /**
   * Files the corpus loader skipped (`Corpus.skipped`, or a map by source): evidence whose document is
   * missing but listed here is stale with reason `source skipped: <reason> (<detail>)` instead of
   * `source not found`. Keys/`source` are POSIX paths relative to the root.
   */
  skipped?: ReadonlyMap<string, SkippedFile> | readonly SkippedFile[];
}

export { groundTruthJsonSchema, indentOf, orderedQuestion, parseGroundTruth, serializeGroundTruth } from './schema';
export { isDraft, withoutDrafts } from './status';
export { readGroundTruth, readGroundTruthWithText, replaceGroundTruthText, writeGroundTruth, writeGroundTruthText } from './io';
export { backupGroundTruth } from './backup';
export { appendToQuestions, applyEvidenceFixes, evidenceFixes, type EvidenceFix } from './edit';
export { applyWhitespaceFixes, whitespaceFixes, whitespaceOccurrences, type WhitespaceFix } from './whitespace';
export { excludedQuestionsSummary, normaliseSource, resolveEvidence, resolveGroundTruth } from './resolve';
export { makeSelector } from './selector';
export { lineOf, lineStarts, lineAt } from './text';
export { groundTruthLocation, groundTruthPathRefusal, type GroundTruthPathOrigin } from './location';
