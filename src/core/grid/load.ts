/**
 * Stage "load & resolve" (SPEC §6 step 1, §3.2): the corpus under the workspace (globs, size limit,
 * skipped files reported), the ground truth, its resolution against the corpus (stale, ambiguous and
 * rejected questions are excluded and counted in `acceptance`, never scored), the selection of
 * `questionIds`, and the content hashes that identify the inputs of the run.
 */
import { createHash } from 'node:crypto';
import { MAX_DATA_FILE_BYTES, readRegularFileSync } from '../files/read';
import { resolve } from 'node:path';
import { SpanproofError } from '../errors';
import type { CorpusDocument } from '../types';
import type { RunSettings } from '../settings';
import { loadCorpus, type Corpus } from '../corpus';
import { excludedQuestionsSummary, readGroundTruth, resolveGroundTruth, withoutDrafts, type AcceptanceReport, type ResolvedQuestion } from '../groundtruth';

export interface LoadInput {
  workspace: string;
  groundTruthFile: string;
  settings: RunSettings;
  /** Only these question ids are scored. */
  questionIds?: string[];
  /** Refuse (SpanproofError('bad-input')) when no question can be scored. */
  requireScorable?: boolean;
  /** Times the two steps (`load`, `resolve`). */
  time: <T>(stage: string, f: () => Promise<T> | T) => Promise<T>;
}

export interface RunInputs {
  /** Absolute corpus root. */
  workspace: string;
  corpus: Corpus;
  /** Documents by source. */
  byName: ReadonlyMap<string, CorpusDocument>;
  /** Absolute ground-truth file. */
  groundTruthFile: string;
  acceptance: AcceptanceReport;
  /** The questions to score, in ground-truth order. */
  questions: ResolvedQuestion[];
  /** SHA-256 over the documents' sources and hashes. */
  corpusHash: string;
  /** SHA-256 of the ground-truth file's bytes. */
  groundTruthHash: string;
  /** Skipped files, excluded questions, unknown selected ids. */
  warnings: string[];
}

function sha(s: string | Buffer): string {
  return createHash('sha256').update(s).digest('hex');
}

/**
 * The error of a run with no question to score (`requireScorable`): the acceptance summary says why.
 * `spanproof validate` reports the same error (exit 2) for a ground truth without questions (#16 item 20).
 */
export function nothingToScore(a: AcceptanceReport, gtFile: string, ids?: string[]): SpanproofError {
  const why = `${a.resolved} of ${a.total} questions resolved (stale ${a.stale.length}, ambiguous ${a.ambiguous.length}, rejected ${a.rejected.length})`;
  const drafts = a.draftsExcluded ?? 0;
  if (a.total === 0 && drafts > 0) return new SpanproofError('bad-input', `no question can be scored: the ground truth has only drafts (${drafts}), which are not scored until accepted.`, { file: gtFile, fix: 'review them: spanproof review --list, then --accept ID… or --accept-all.' });
  if (a.total === 0) return new SpanproofError('bad-input', 'no question can be scored: the ground truth has no questions.', { file: gtFile, fix: 'add questions with evidence to its "questions" array (the format: docs/ground-truth.md).' });
  if (ids && a.resolved > 0) return new SpanproofError('bad-input', `no question can be scored: none of the selected ids (${ids.join(', ')}) is a resolved question; ${why}.`, { file: gtFile, fix: 'select ids of resolved questions (spanproof validate --json lists them).' });
  return new SpanproofError('bad-input', `no question can be scored: ${why}.`, { file: gtFile, fix: 'run `spanproof validate` to see why each question is excluded, and fix the ground truth.' });
}

/**
 * The error of a run whose corpus has no document (`requireScorable`): an empty folder, a wrong
 * --workspace, or `include` globs that match nothing — said as such, not as every question stale.
 */
export function emptyCorpus(corpus: Corpus, settings: Pick<RunSettings, 'include' | 'exclude' | 'maxFileBytes'>): SpanproofError {
  const counts = new Map<string, number>();
  for (const s of corpus.skipped) counts.set(s.reason, (counts.get(s.reason) ?? 0) + 1);
  const patterns = `include ${settings.include.join(', ')}${settings.exclude.length ? `, exclude ${settings.exclude.join(', ')}` : ''}`;
  const why = corpus.skipped.length
    ? `the ${corpus.skipped.length} file(s) under this folder that match the patterns (${patterns}) were all skipped (${[...counts].map(([r, n]) => `${r} ${n}`).join(', ')})`
    : `no file under this folder matches the patterns (${patterns})`;
  return new SpanproofError('bad-input', `0 documents were indexed: ${why}, so no question can be scored.`, {
    file: corpus.root,
    fix: counts.has('too-large')
      // all skipped as too large: the limit is the setting to change, not the folder (fresh-user #13)
      ? `raise maxFileBytes (now ${settings.maxFileBytes} bytes; a --config file's "maxFileBytes", or spanproof.maxFileBytes in .vscode/settings.json) above the size of your documents, or pass the folder of your documents with --workspace DIR.`
      : 'pass the folder of your documents with --workspace DIR, or set `include` (a --config file\'s "include", or spanproof.include in .vscode/settings.json) to globs that match them.',
  });
}

/**
 * Loads the corpus and resolves the ground truth.
 * @throws SpanproofError('not-found' | 'bad-input') for a missing or invalid ground truth, and when
 *   `requireScorable` and the corpus has no document or no question can be scored; the corpus
 *   loader's errors.
 */
export async function loadStage(input: LoadInput): Promise<RunInputs> {
  const { settings } = input;
  const warnings: string[] = [];
  const workspace = resolve(input.workspace);
  const corpus = await input.time('load', () => loadCorpus(workspace, { include: settings.include, exclude: settings.exclude, maxFileBytes: settings.maxFileBytes }));
  for (const s of corpus.skipped) warnings.push(`skipped ${s.source}: ${s.reason} (${s.detail})`);
  if (input.requireScorable && corpus.documents.length === 0) throw emptyCorpus(corpus, settings);
  const groundTruthFile = resolve(input.groundTruthFile);
  let gtBytes: Buffer;
  try { gtBytes = readRegularFileSync(groundTruthFile, MAX_DATA_FILE_BYTES); } catch { gtBytes = Buffer.alloc(0); } // readGroundTruth says why
  // Drafted questions (status "draft", spanproof draft) are never scored until accepted (spanproof review).
  const { scored: gt, drafts } = withoutDrafts(await readGroundTruth(groundTruthFile));
  if (drafts.length) warnings.push(`${drafts.length} draft question(s) not scored until accepted (spanproof review --list)`);
  const byName = new Map(corpus.documents.map((d) => [d.source, d]));
  const resolution = await input.time('resolve', () => resolveGroundTruth(gt, (s) => byName.get(s)?.text, { minQuoteLength: settings.minQuoteLength, maxQuoteLength: settings.maxQuoteLength, skipped: corpus.skipped }));
  const acceptance: AcceptanceReport = drafts.length ? { ...resolution.acceptance, draftsExcluded: drafts.length } : resolution.acceptance;
  let questions = resolution.questions;
  if (input.questionIds) {
    const want = new Set(input.questionIds);
    questions = questions.filter((q) => want.has(q.id));
    for (const id of want) {
      if (questions.some((q) => q.id === id)) continue;
      warnings.push(drafts.some((q) => q.id === id) ? `question ${id} is a draft, not scored until accepted (spanproof review --accept ${id})` : `question ${id} is not resolved or does not exist; not scored`);
    }
  }
  const excludedNote = excludedQuestionsSummary(resolution.acceptance); // counts questions, then evidence items
  if (excludedNote) warnings.push(excludedNote);
  if (input.requireScorable && questions.length === 0) throw nothingToScore(acceptance, groundTruthFile, input.questionIds);
  return {
    workspace, corpus, byName, groundTruthFile, acceptance, questions,
    corpusHash: sha(corpus.documents.map((d) => `${d.source}\0${d.sha256}`).join('\n')),
    groundTruthHash: sha(gtBytes),
    warnings,
  };
}
