/**
 * Drafting into a workspace's ground truth, end to end — what `spanproof draft` and VS Code's
 * **Draft Questions…** both run: load the corpus, narrow it to `sources`, read the ground truth (an
 * invalid file stops here, before any request), draft, and append the verified drafts to the file.
 * Cancelled drafting writes only when `keepPartial` (CLI `--keep-partial`, VS Code: the user
 * confirmed); a fatal endpoint failure writes nothing.
 */
import { globMatcher } from '../corpus/glob';
import { loadCorpus } from '../corpus';
import { SpanproofError } from '../errors';
import { readGroundTruth, type Question } from '../groundtruth';
import type { RunSettings } from '../settings';
import type { ChatClient } from '../judge/client';
import { draftQuestions, type DraftParams, type DraftResult } from './draft';
import { writeDrafts } from './store';

/** Fixed defaults of drafting (issue #14); the question count and model are settings (`draft.count`, `draft.model`). */
export const DRAFT_DEFAULTS = Object.freeze({ perPassage: 1, maxPassageChars: 2000, seed: 42 });

export interface DraftSessionOptions extends Omit<DraftParams, 'documents' | 'existing' | 'client' | 'minQuoteLength' | 'maxQuoteLength'> {
  workspace: string;
  groundTruthFile: string;
  /** include/exclude/maxFileBytes/minQuoteLength/maxQuoteLength apply. */
  settings: RunSettings;
  client: ChatClient;
  /** Globs (relative to the workspace) narrowing the documents drafted on; empty = the whole corpus. */
  sources?: readonly string[];
  /** Exact sources (POSIX paths relative to the workspace) narrowing the documents, e.g. VS Code's active file. */
  exactSources?: readonly string[];
  /** Cancelled: write what verified so far (otherwise nothing is written). */
  keepPartial?: boolean;
  /** Decides at the end whether a cancelled session writes (VS Code asks the user); overrides `keepPartial`. */
  confirmPartial?: (result: DraftResult) => Promise<boolean>;
}

export interface DraftSessionResult extends DraftResult {
  groundTruthFile: string;
  written: boolean;
  backup?: string;
}

async function existingQuestions(file: string): Promise<Question[]> {
  try {
    return (await readGroundTruth(file)).questions;
  } catch (e) {
    if (e instanceof SpanproofError && e.code === 'not-found') return [];
    throw e;
  }
}

/** Runs one drafting session (see the module comment). Throws SpanproofError for bad input and fatal endpoint errors. */
export async function draftIntoGroundTruth(o: DraftSessionOptions): Promise<DraftSessionResult> {
  const match = o.sources?.length ? globMatcher(o.sources, { file: o.workspace, field: '--sources', fix: 'use a simpler glob relative to the workspace, e.g. --sources "docs/**/*.md".' }) : undefined;
  const existing = await existingQuestions(o.groundTruthFile);
  const corpus = await loadCorpus(o.workspace, { include: o.settings.include, exclude: o.settings.exclude, maxFileBytes: o.settings.maxFileBytes });
  const exact = o.exactSources ? new Set(o.exactSources) : undefined;
  const documents = corpus.documents.filter((d) => (!match || match(d.source)) && (!exact || exact.has(d.source)));
  if (documents.length === 0 && exact) {
    throw new SpanproofError('bad-input', `${[...exact].join(', ')} is not a document of the corpus (skipped, or outside the include/exclude globs).`, { file: o.workspace, fix: 'draft on a file the corpus includes (settings include/exclude).' });
  }
  if (documents.length === 0) {
    throw new SpanproofError('bad-input', match ? `no document of the corpus matches --sources ${o.sources!.join(', ')}.` : 'the corpus has no documents.', {
      file: o.workspace, field: match ? '--sources' : undefined, fix: match ? 'use globs relative to the workspace, e.g. --sources "docs/**/*.md".' : 'point --workspace at the folder of your documents.',
    });
  }
  const result = await draftQuestions({
    ...o, documents, existing, client: o.client,
    minQuoteLength: o.settings.minQuoteLength, maxQuoteLength: o.settings.maxQuoteLength,
  });
  const write = result.status === 'succeeded' || (o.confirmPartial ? await o.confirmPartial(result) : !!o.keepPartial);
  if (!write || result.drafts.length === 0) return { ...result, groundTruthFile: o.groundTruthFile, written: false };
  const w = await writeDrafts(o.groundTruthFile, result.drafts);
  return { ...result, groundTruthFile: o.groundTruthFile, ...w };
}
