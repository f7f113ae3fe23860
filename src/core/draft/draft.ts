/**
 * The drafting loop (issue #14): sample passages, ask the model for questions with verbatim quotes on
 * each (one passage per request, through the judges' `ChatClient`: concurrency, retries, cache,
 * ledger), verify every quote (`verifyQuote`), drop near-duplicates, audit, and return the drafts —
 * nothing is written here (see ./store). Only candidates whose EVERY quote verified are returned.
 *
 * Failures: a fatal endpoint error (cannot be reached, 401/403, 404) stops at once and throws
 * SpanproofError('bad-input') naming the endpoint; a reply that cannot be read gets ONE repair request,
 * then the passage counts as rejected; a request that fails after the client's retries, or a refusal,
 * counts as rejected. Cancelling (signal) returns status `cancelled` with what verified so far.
 */
import { setMaxListeners } from 'node:events';
import { SpanproofError } from '../errors';
import { resolveEvidence, type EvidenceSelector, type Question } from '../groundtruth';
import { RequestFailure, type ChatClient } from '../judge/client';
import { REPAIR, fill, promptVersion } from '../judge/prompts';
import type { ChatMessage, LedgerFile } from '../judge/types';
import type { CorpusDocument, Span } from '../types';
import { answerWords, coverageAudit, distribution, DUPLICATE_SIMILARITY, leakageAudit, lexicalLeakage, questionSimilarity, type CoverageAudit, type Distribution, type LeakageAudit } from './audit';
import { samplePassages, type Passage, type PassagePlan } from './passages';
import { DRAFT_MULTI_EVIDENCE, DRAFT_QUESTIONS, draftMessages } from './prompts';
import { draftId, redactEndpoint } from './provenance';
import { parseDraftReply, type Candidate } from './reply';
import { verifyQuote } from './verify';

export interface DraftParams {
  /** The documents to draft on (already narrowed by `--sources`); coverage is reported over them. */
  documents: readonly CorpusDocument[];
  /** Questions already in the ground truth (never changed; used for duplicates, ids and coverage). */
  existing: readonly Question[];
  client: ChatClient;
  model: string;
  /** Questions wanted. */
  count: number;
  perDocument?: number;
  /** Questions asked per passage (default 1). */
  perPassage?: number;
  multiEvidence?: boolean;
  seed?: number;
  /** Longest passage in UTF-16 code units (default 2000). */
  maxPassageChars?: number;
  /** Ask on these passages instead of sampling (VS Code: the selection); each gets ⌈count / passages⌉ questions. */
  passages?: Passage[];
  minQuoteLength?: number;
  maxQuoteLength?: number;
  /** Completion-token limit per request (default 2048). */
  maxTokens?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /** Clock for `provenance.createdAt` (tests). */
  now?: () => Date;
}

export interface RejectedQuote {
  reason: string;
  /** The quote as the model wrote it ("" when the whole reply or candidate was rejected). */
  quote: string;
  source: string;
  question?: string;
}

export interface DraftAuditEntry {
  id: string;
  question: string;
  source: string;
  leakage: number;
  answerWords: number;
  evidence: number;
  reanchored: number;
}

export interface DraftResult {
  status: 'succeeded' | 'cancelled';
  requested: number;
  /** Passages asked about (requests, before repairs). */
  passages: number;
  /** Verified drafts, ready to be written (status "draft", provenance set). */
  drafts: Question[];
  rejected: RejectedQuote[];
  /** Near-duplicates dropped: the question, and the id (or text) of the one kept. */
  duplicates: Array<{ question: string; source: string; duplicateOf: string; similarity: number }>;
  perDraft: DraftAuditEntry[];
  leakage: LeakageAudit;
  coverage: CoverageAudit;
  answers: { withAnswer: number; without: number; words: Distribution };
  /** Evidence items re-anchored after whitespace/quote normalisation. */
  reanchored: number;
  ledger: LedgerFile;
  /** Passages that got no usable reply (no reply, or unreadable after the repair) while others did; absent when none. */
  failedPassages?: { count: number; mostOften: string };
}

interface Verified { question: string; answer?: string; evidence: EvidenceSelector[]; reanchored: number }
/** `failed`: the passage got no usable reply at all (no reply, or unreadable after the repair) — its reason. */
interface Outcome { kept: Verified[]; rejected: RejectedQuote[]; failed?: { kind: 'no-reply' | 'unreadable'; reason: string } }

const MALFORMED = 'malformed reply after one retry';

/** Verifies one candidate: every quote must pass, and `--multi-evidence` needs two separate spans. */
function verifyCandidate(c: Candidate, doc: CorpusDocument, passage: Passage, p: DraftParams): { ok: true; value: Verified } | { ok: false; rejected: RejectedQuote[] } {
  const evidence: EvidenceSelector[] = [];
  const rejected: RejectedQuote[] = [];
  let reanchored = 0;
  for (const quote of c.quotes) {
    const r = verifyQuote(quote, doc.source, doc.text, passage, { minQuoteLength: p.minQuoteLength, maxQuoteLength: p.maxQuoteLength });
    if (!r.ok) rejected.push({ reason: r.reason, quote, source: doc.source, question: c.question });
    else if (!evidence.some((e) => e.start === r.evidence.start && e.end === r.evidence.end)) {
      evidence.push(r.evidence);
      if (r.reanchored) reanchored++;
    }
  }
  if (rejected.length) return { ok: false, rejected };
  if (p.multiEvidence && evidence.length < 2) {
    return { ok: false, rejected: [{ reason: 'multi-evidence: the question needs two or more separate quotes, the model gave one', quote: c.quotes[0] ?? '', source: doc.source, question: c.question }] };
  }
  return { ok: true, value: { question: c.question, ...(c.answer ? { answer: c.answer } : {}), evidence, reanchored } };
}

/** One request (plus at most one repair) for one passage, verified. Throws on fatal failures and cancel. */
async function askPassage(plan: PassagePlan, doc: CorpusDocument, p: DraftParams, signal: AbortSignal): Promise<Outcome> {
  const prompt = p.multiEvidence ? DRAFT_MULTI_EVIDENCE : DRAFT_QUESTIONS;
  const version = promptVersion(prompt);
  const { passage } = plan;
  const messages = draftMessages(prompt, { n: plan.questions, source: passage.source, heading: passage.heading, passage: doc.text.slice(passage.start, passage.end) });
  const reject = (reason: string, failed?: 'no-reply' | 'unreadable'): Outcome => ({ kept: [], rejected: [{ reason, quote: '', source: passage.source }], ...(failed ? { failed: { kind: failed, reason } } : {}) });
  const ask = async (msgs: ChatMessage[], pv: string) => p.client.chat({ model: p.model, messages: msgs, promptVersion: pv, maxTokens: p.maxTokens ?? 2048, responseFormat: 'json_object' }, signal);
  try {
    const first = await ask(messages, version);
    if (first.refusal || first.finishReason === 'content_filter') return reject('the model refused');
    let parsed = parseDraftReply(first.content);
    if (!parsed.ok) {
      const repair = [...messages, { role: 'assistant' as const, content: first.content }, { role: 'user' as const, content: fill(REPAIR.user, { error: parsed.error }) }];
      const second = await ask(repair, `${version}+${promptVersion(REPAIR)}`);
      parsed = parseDraftReply(second.content);
      if (!parsed.ok) return reject(`${MALFORMED} (${parsed.error})`, 'unreadable');
    }
    const out: Outcome = { kept: [], rejected: parsed.invalid.map((x) => ({ reason: `malformed candidate ${x.index + 1}: ${x.error}`, quote: '', source: passage.source })) };
    for (const c of parsed.candidates) {
      const v = verifyCandidate(c, doc, passage, p);
      if (!v.ok) out.rejected.push(...v.rejected);
      else if (out.kept.length < plan.questions) out.kept.push(v.value);
      else out.rejected.push({ reason: `beyond the ${plan.questions} question(s) asked for this passage`, quote: '', source: passage.source, question: c.question });
    }
    return out;
  } catch (e) {
    if (e instanceof RequestFailure && e.kind !== 'fatal') return reject(`no reply: ${e.message}`, 'no-reply');
    throw e;
  }
}

/** Runs every passage concurrently (the client limits requests in flight); results in plan order. */
async function askAll(plans: PassagePlan[], byName: Map<string, CorpusDocument>, p: DraftParams): Promise<{ outcomes: Array<Outcome | undefined>; cancelled: boolean }> {
  const ac = new AbortController();
  setMaxListeners(0, ac.signal); // one listener per request waiting in the client's limiter
  const onAbort = () => ac.abort();
  p.signal?.addEventListener('abort', onAbort, { once: true });
  if (p.signal?.aborted) ac.abort();
  const outcomes: Array<Outcome | undefined> = plans.map(() => undefined);
  let fatal: unknown;
  let done = 0;
  try {
    await Promise.all(plans.map(async (plan, i) => {
      try {
        outcomes[i] = await askPassage(plan, byName.get(plan.passage.source)!, p, ac.signal);
        p.onProgress?.(++done, plans.length);
      } catch (e) {
        if (!(e instanceof SpanproofError && e.code === 'cancelled')) {
          fatal ??= e;
          ac.abort(); // stop at once: the other requests are refused without being sent
        }
      }
    }));
  } finally {
    p.signal?.removeEventListener('abort', onAbort);
  }
  if (fatal instanceof RequestFailure) {
    const names = fatal.message.includes(p.client.endpoint) ? '' : ` (${redactEndpoint(p.client.endpoint)})`;
    throw new SpanproofError('bad-input', `drafting stopped: ${fatal.message}${names}; nothing was written.`, { field: '--endpoint', fix: fatal.fix ?? 'check the endpoint URL, the model name and SPANPROOF_API_KEY, then draft again (replies received so far are cached).' });
  }
  if (fatal) throw fatal;
  return { outcomes, cancelled: !!p.signal?.aborted };
}

/** Spans of the existing questions' evidence that resolve in `docs` (for coverage). */
function existingSpans(existing: readonly Question[], byName: Map<string, CorpusDocument>, p: DraftParams): Span[] {
  const out: Span[] = [];
  for (const q of existing) {
    for (const e of q.evidence) {
      const r = resolveEvidence(e, byName.get(e.source)?.text, { minQuoteLength: p.minQuoteLength, maxQuoteLength: p.maxQuoteLength });
      if (r.status === 'resolved' || r.status === 'moved') out.push(r.span);
    }
  }
  return out;
}

/**
 * Drafts up to `count` questions on `documents` (see the module comment). Deterministic for the same
 * documents, options and replies (ids and order do not depend on reply timing).
 * @throws SpanproofError('bad-input') on a fatal endpoint failure or `count` < 1.
 */
export async function draftQuestions(p: DraftParams): Promise<DraftResult> {
  if (!Number.isInteger(p.count) || p.count < 1) throw new SpanproofError('bad-input', `count must be a whole number ≥ 1, got ${p.count}.`, { field: '--count', fix: 'e.g. --count 20' });
  const byName = new Map(p.documents.map((d) => [d.source, d]));
  const plans: PassagePlan[] = p.passages
    ? p.passages.map((passage) => ({ passage, questions: Math.max(1, Math.ceil(p.count / p.passages!.length)) }))
    : samplePassages(p.documents, { count: p.count, perPassage: p.perPassage, perDocument: p.perDocument, maxChars: p.maxPassageChars, seed: p.seed });
  const { outcomes, cancelled } = await askAll(plans, byName, p);
  const failed = outcomes.flatMap((o) => (o?.failed ? [o.failed] : []));
  if (!cancelled && plans.length > 0 && failed.length === plans.length) throw everyPassageFailed(failed, p.client.endpoint);
  const result = assemble(plans, outcomes, byName, p, cancelled);
  return failed.length ? { ...result, failedPassages: { count: failed.length, mostOften: mostOften(failed) } } : result;
}

const mostOften = (failed: ReadonlyArray<{ reason: string }>): string => {
  const counts = new Map<string, number>();
  for (const f of failed) counts.set(f.reason, (counts.get(f.reason) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
};

/** No passage got a usable reply: nothing was drafted because of the endpoint or the model, not the documents — exit 2, not "Drafted 0" (#16 items 11, 16). */
function everyPassageFailed(failed: ReadonlyArray<{ kind: 'no-reply' | 'unreadable'; reason: string }>, endpoint: string): SpanproofError {
  const at = redactEndpoint(endpoint);
  if (failed.every((f) => f.kind === 'no-reply')) {
    return new SpanproofError('bad-input', `every request to ${at} failed (${failed.length} passage(s)); most often: ${mostOften(failed)}; nothing was written.`, { field: '--endpoint', fix: 'check the endpoint URL, --model, SPANPROOF_API_KEY and the server\'s log, then draft again.' });
  }
  return new SpanproofError('bad-input', `no reply from ${at} could be used (${failed.length} passage(s)); most often: ${mostOften(failed)}; nothing was written.`, { field: '--model', fix: 'use a model that follows JSON instructions (--model), and check the server\'s log, then draft again.' });
}

function assemble(plans: PassagePlan[], outcomes: Array<Outcome | undefined>, byName: Map<string, CorpusDocument>, p: DraftParams, cancelled: boolean): DraftResult {
  const prompt = p.multiEvidence ? DRAFT_MULTI_EVIDENCE : DRAFT_QUESTIONS;
  const createdAt = (p.now ?? (() => new Date()))().toISOString();
  const taken = new Set(p.existing.map((q) => q.id));
  const seen: Array<{ text: string; id: string }> = p.existing.map((q) => ({ text: q.question, id: q.id }));
  const drafts: Question[] = [];
  const rejected: RejectedQuote[] = [];
  const duplicates: DraftResult['duplicates'] = [];
  const perDraft: DraftAuditEntry[] = [];
  let reanchored = 0;
  plans.forEach((plan, i) => {
    const o = outcomes[i];
    if (!o) return;
    rejected.push(...o.rejected);
    for (const v of o.kept) {
      if (drafts.length >= p.count) break;
      const dup = seen.map((s) => ({ s, sim: questionSimilarity(v.question, s.text) })).find((x) => x.sim >= DUPLICATE_SIMILARITY);
      if (dup) {
        duplicates.push({ question: v.question, source: plan.passage.source, duplicateOf: dup.s.id, similarity: Math.round(dup.sim * 1000) / 1000 });
        continue;
      }
      const { source, start, end } = plan.passage;
      const id = draftId(source, start, end, v.question, taken);
      taken.add(id);
      seen.push({ text: v.question, id });
      drafts.push({
        id, question: v.question, ...(v.answer ? { answer: v.answer } : {}), evidence: v.evidence, status: 'draft',
        provenance: { model: p.model, endpoint: redactEndpoint(p.client.endpoint), promptVersion: promptVersion(prompt), passage: { source, start, end }, createdAt },
      });
      const leakage = Math.round(lexicalLeakage(v.question, v.evidence.map((e) => e.exact)) * 1000) / 1000;
      perDraft.push({ id, question: v.question, source, leakage, answerWords: answerWords(v.answer), evidence: v.evidence.length, reanchored: v.reanchored });
      reanchored += v.reanchored;
    }
  });
  const spans = [...existingSpans(p.existing, byName, p), ...drafts.flatMap((d) => d.evidence.map((e) => ({ source: e.source, start: e.start!, end: e.end! })))];
  const withAnswer = drafts.filter((d) => d.answer).length;
  const done = outcomes.filter(Boolean).length;
  return {
    status: cancelled ? 'cancelled' : 'succeeded', requested: p.count, passages: plans.length, drafts, rejected, duplicates, perDraft,
    leakage: leakageAudit(perDraft.map((d) => d.leakage)), coverage: coverageAudit(p.documents, spans),
    answers: { withAnswer, without: drafts.length - withAnswer, words: distribution(drafts.filter((d) => d.answer).map((d) => answerWords(d.answer))) },
    reanchored,
    ledger: p.client.ledger.snapshot({ status: cancelled ? 'cancelled' : 'succeeded', items: { done, total: plans.length }, sameModel: false }),
  };
}
