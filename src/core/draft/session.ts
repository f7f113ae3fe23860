/**
 * Drafting into a workspace's ground truth, end to end — what `spanproof draft` and VS Code's
 * **Draft Questions…** both run: load the corpus, narrow it to `sources`, read the ground truth (an
 * invalid file stops here, before any request), draft, and append the verified drafts to the file.
 * Cancelled drafting writes only when `keepPartial` (CLI `--keep-partial`, VS Code: the user
 * confirmed); a fatal endpoint failure writes nothing.
 */
import picomatch from 'picomatch';
import { loadCorpus } from '../corpus';
import { SpanproofError } from '../errors';
import { readGroundTruth, type Question } from '../groundtruth';
import type { RunSettings } from '../settings';
import type { ChatClient } from '../judge/client';
import { draftQuestions, type DraftParams, type DraftResult } from './draft';
import { writeDrafts } from './store';

/** Defaults of `spanproof draft` (issue #14). Move to the settings schema (src/core/settings) when it lands. */
export const DRAFT_DEFAULTS = Object.freeze({ count: 20, perPassage: 1, maxPassageChars: 2000, seed: 42 });

export interface DraftSessionOptions extends Omit<DraftParams, 'documents' | 'existing' | 'client' | 'minQuoteLength' | 'maxQuoteLength'> {
  workspace: string;
  groundTruthFile: string;
  /** include/exclude/maxFileBytes/minQuoteLength/maxQuoteLength apply. */
  settings: RunSettings;
  client: ChatClient;
  /** Globs (relative to the workspace) narrowing the documents drafted on; empty = the whole corpus. */
  sources?: readonly string[];
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
  const existing = await existingQuestions(o.groundTruthFile);
  const corpus = await loadCorpus(o.workspace, { include: o.settings.include, exclude: o.settings.exclude, maxFileBytes: o.settings.maxFileBytes });
  const match = o.sources?.length ? picomatch([...o.sources], { dot: true }) : undefined;
  const documents = match ? corpus.documents.filter((d) => match(d.source)) : corpus.documents;
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
