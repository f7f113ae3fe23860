/**
 * Drafted ground truth (issue #14): questions drafted by a model on passages of the user's documents,
 * kept only when every quote is verified verbatim in the document by the SPEC §3.2 resolver, stored
 * as `"status": "draft"` with provenance, never scored until accepted.
 *
 * - {@link draftQuestions}(params) → {@link DraftResult}: sample passages ({@link samplePassages},
 *   seeded, spread over documents and sections), one request per passage through the judges'
 *   `ChatClient`, verification ({@link verifyQuote}), near-duplicate removal and the audit
 *   (lexical leakage, coverage of documents and sections, answer length). Writes nothing.
 * - {@link writeDrafts}(file, drafts) appends them to the ground truth as a text edit (hand-written
 *   questions byte-identical), atomically, after a backup that never overwrites an older one (`backupGroundTruth`); {@link reviewFile}(file, text, action)
 *   accepts (removes `status`, keeps `provenance`) or rejects (removes) drafts the same way.
 * - Prompts: {@link DRAFT_QUESTIONS}, {@link DRAFT_MULTI_EVIDENCE} (versioned, `draftPromptVersions`).
 */
export { draftQuestions, type DraftParams, type DraftResult, type DraftAuditEntry, type RejectedQuote } from './draft';
export { verifyQuote, type QuoteCheck } from './verify';
export { looseOccurrences, looseForm } from './loose';
export { documentSections, samplePassages, sectionPassages, MIN_PASSAGE_CHARS, type Passage, type PassagePlan, type Section, type SampleOptions } from './passages';
export { DRAFT_QUESTIONS, DRAFT_MULTI_EVIDENCE, DRAFT_PROMPTS, draftMessages, draftPromptVersions } from './prompts';
export { parseDraftReply, type Candidate, type ParsedReply } from './reply';
export { answerWords, contentWords, coverageAudit, distribution, lexicalLeakage, leakageAudit, questionSimilarity, DUPLICATE_SIMILARITY, LEAKAGE_WARNING_MEDIAN, type CoverageAudit, type Distribution, type LeakageAudit } from './audit';
export { draftId, redactEndpoint } from './provenance';
export { insertDrafts, reviewFile, reviewText, writeDrafts, type ReviewAction } from './store';
export { acceptWithout, draftsToAccept, notAcceptedError, unresolvedDrafts, type UnresolvedDraft } from './acceptable';
export { draftIntoGroundTruth, DRAFT_DEFAULTS, type DraftSessionOptions, type DraftSessionResult } from './session';
export { draftJson, draftText } from './report';
