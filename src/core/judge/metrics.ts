/**
 * The judge metrics of SPEC §14 for one answer. Every metric returns a score with a reason, or
 * `{unmeasured: true, reason}` — after a timeout / HTTP failure (once the client's retries are spent),
 * a refusal, or a reply that stays unreadable after one repair attempt. Never 0 or NaN for a failure.
 *
 * Definitions (sources):
 * - groundedness, relevance, coherence, fluency, similarity, retrieval: integer 1–5 as the Azure AI
 *   evaluation SDK's AI-assisted quality evaluators define them (azure-ai-evaluation
 *   GroundednessEvaluator, RelevanceEvaluator, CoherenceEvaluator, FluencyEvaluator,
 *   SimilarityEvaluator, RetrievalEvaluator).
 * - faithfulness = |answer claims supported by the retrieved context| / |answer claims| (RAGAS
 *   Faithfulness; no claims → unmeasured, where RAGAS returns NaN).
 * - answerCorrectness: claim-level F-beta (RAGAS answer correctness / FactualCorrectness):
 *   TP = answer claims supported by the reference, FP = answer claims not supported by it,
 *   FN = reference claims not supported by the answer; P = TP/(TP+FP), R = TP/(TP+FN),
 *   F_β = (1+β²)·P·R / (β²·P + R), β = 1.5 by default (recall weighted more); 0 when TP = 0;
 *   no claims on either side → unmeasured.
 * - booleanCorrectness: 1 when the judge says the answer is correct w.r.t. the reference, else 0
 *   (Pathway's LLM-as-judge correctness).
 */
import type { z } from 'zod';
import { ChatClient, RequestFailure } from './client';
import { booleanReply, claimsReply, parseReply, scaleReply, stripReasoning, verdictsReply } from './parse';
import { BOOLEAN_CORRECTNESS, EXTRACT_CLAIMS, REPAIR, SCALE_PROMPTS, VERIFY_CLAIMS, fill, formatClaims, formatContext, promptVersion, render, type PromptTemplate } from './prompts';
import { REFERENCE_METRICS, SCALE_METRICS, type ClaimVerdict, type JudgeMetric, type JudgeScore, type ScaleMetric } from './types';

export interface JudgeInput {
  question: string;
  answer: string;
  /** The passages given to the generator, in rank order. */
  contexts: Array<{ source: string; text: string }>;
  /** Reference answer from the ground truth, when there is one. */
  reference?: string;
}

export interface JudgeContext {
  client: ChatClient;
  judgeModel: string;
  signal?: AbortSignal;
  /** Skip the cache (judge repeats). */
  bypassCache?: boolean;
  /** β of answer correctness (default 1.5). */
  beta?: number;
  /** Completion-token limit per judge request (default 1024). */
  maxTokens?: number;
}

type Asked<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * One judge question with robust parsing and one repair attempt. A non-fatal RequestFailure becomes
 * `{ok: false}`; fatal failures and cancellation propagate.
 */
export async function ask<T>(ctx: JudgeContext, prompt: PromptTemplate, vars: Record<string, string>, schema: z.ZodType<T>, check?: (v: T) => string | null): Promise<Asked<T>> {
  const messages = render(prompt, vars);
  const version = promptVersion(prompt);
  const req = { model: ctx.judgeModel, promptVersion: version, temperature: 0, maxTokens: ctx.maxTokens ?? 1024, bypassCache: ctx.bypassCache };
  const readReply = (content: string): { ok: true; value: T } | { ok: false; error: string } => {
    const p = parseReply(content, schema);
    if (!p.ok) return p;
    const bad = check?.(p.value) ?? null;
    return bad ? { ok: false, error: bad } : p;
  };
  try {
    const first = await ctx.client.chat({ ...req, messages }, ctx.signal);
    if (first.refusal || first.finishReason === 'content_filter') return { ok: false, reason: `the judge refused${first.refusal ? `: ${first.refusal.slice(0, 200)}` : ' (content filter)'}` };
    const p1 = readReply(first.content);
    if (p1.ok) return p1;
    const repairMessages = [...messages, { role: 'assistant' as const, content: first.content }, { role: 'user' as const, content: fill(REPAIR.user, { error: p1.error }) }];
    const second = await ctx.client.chat({ ...req, messages: repairMessages, promptVersion: `${version}+${promptVersion(REPAIR)}` }, ctx.signal);
    if (second.refusal || second.finishReason === 'content_filter') return { ok: false, reason: 'the judge refused on the repair attempt' };
    const p2 = readReply(second.content);
    if (p2.ok) return p2;
    return { ok: false, reason: `unreadable judge reply after one repair attempt (${p2.error})` };
  } catch (e) {
    if (e instanceof RequestFailure && e.kind !== 'fatal') return { ok: false, reason: `no judge reply: ${e.message}` };
    throw e;
  }
}

const unmeasured = (reason: string): JudgeScore => ({ unmeasured: true, reason });

/** F-beta from claim counts (RAGAS `fbeta_score` without its 1e-10 smoothing): 0 when TP = 0. */
export function fBeta(tp: number, fp: number, fn: number, beta: number): { precision: number; recall: number; f: number } {
  const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  const b2 = beta * beta;
  const f = precision + recall > 0 ? ((1 + b2) * precision * recall) / (b2 * precision + recall) : 0;
  return { precision, recall, f };
}

/** The judge metrics of one answer (all concurrently; claim extraction shared by faithfulness and answer correctness). */
export async function judgeAnswer(input: JudgeInput, ctx: JudgeContext, metrics: readonly JudgeMetric[]): Promise<Partial<Record<JudgeMetric, JudgeScore>>> {
  const context = formatContext(input.contexts);
  const contextPlain = input.contexts.map((c) => c.text).join('\n\n');
  const claimMemo = new Map<string, Promise<Asked<string[]>>>();
  const claimsOf = (text: string): Promise<Asked<string[]>> => {
    let p = claimMemo.get(text);
    if (!p) {
      p = ask(ctx, EXTRACT_CLAIMS, { question: input.question, text }, claimsReply).then((r) => (r.ok ? { ok: true as const, value: r.value.claims } : r));
      claimMemo.set(text, p);
    }
    return p;
  };
  const verify = async (claims: string[], premise: string): Promise<Asked<ClaimVerdict[]>> => {
    if (claims.length === 0) return { ok: true, value: [] };
    const r = await ask(ctx, VERIFY_CLAIMS, { premise: premise || '(empty)', claims: formatClaims(claims) }, verdictsReply, (v) => {
      const seen = new Set(v.verdicts.map((x) => x.index));
      for (let i = 1; i <= claims.length; i++) if (!seen.has(i)) return `no verdict for claim ${i} (give one verdict per claim, ${claims.length} in all)`;
      return null;
    });
    if (!r.ok) return r;
    const byIndex = new Map(r.value.verdicts.map((v) => [v.index, v]));
    return { ok: true, value: claims.map((claim, i) => ({ claim, supported: byIndex.get(i + 1)!.supported, reason: byIndex.get(i + 1)!.reason })) };
  };

  const one = async (m: JudgeMetric): Promise<JudgeScore> => {
    if (REFERENCE_METRICS.includes(m) && !input.reference?.trim()) return unmeasured('no reference answer for this question in the ground truth');
    if ((SCALE_METRICS as readonly string[]).includes(m)) {
      const r = await ask(ctx, SCALE_PROMPTS[m as ScaleMetric], { question: input.question, answer: input.answer, context, reference: input.reference ?? '' }, scaleReply);
      return r.ok ? { score: r.value.score, reason: r.value.reason || '(the judge gave no reason)' } : unmeasured(r.reason);
    }
    if (m === 'faithfulness') {
      const c = await claimsOf(input.answer);
      if (!c.ok) return unmeasured(`claim extraction: ${c.reason}`);
      if (c.value.length === 0) return unmeasured('the answer makes no factual claims to check');
      const v = await verify(c.value, contextPlain);
      if (!v.ok) return unmeasured(`claim verification: ${v.reason}`);
      const sup = v.value.filter((x) => x.supported).length;
      const unsup = v.value.filter((x) => !x.supported).map((x) => `"${x.claim}"`);
      return { score: sup / v.value.length, reason: `${sup} of ${v.value.length} claims supported by the retrieved context${unsup.length ? `; not supported: ${unsup.slice(0, 3).join('; ')}${unsup.length > 3 ? '; …' : ''}` : ''}`, claims: v.value };
    }
    if (m === 'answerCorrectness') {
      const reference = input.reference!;
      const [a, r] = await Promise.all([claimsOf(input.answer), claimsOf(reference)]);
      if (!a.ok) return unmeasured(`claim extraction (answer): ${a.reason}`);
      if (!r.ok) return unmeasured(`claim extraction (reference): ${r.reason}`);
      if (a.value.length + r.value.length === 0) return unmeasured('neither the answer nor the reference makes a factual claim');
      const [va, vr] = await Promise.all([verify(a.value, reference), verify(r.value, input.answer)]);
      if (!va.ok) return unmeasured(`claim verification (answer vs reference): ${va.reason}`);
      if (!vr.ok) return unmeasured(`claim verification (reference vs answer): ${vr.reason}`);
      const tp = va.value.filter((x) => x.supported).length;
      const fp = va.value.length - tp;
      const fn = vr.value.filter((x) => !x.supported).length;
      const beta = ctx.beta ?? 1.5;
      const { precision, recall, f } = fBeta(tp, fp, fn, beta);
      return { score: f, reason: `TP ${tp}, FP ${fp}, FN ${fn}: precision ${precision.toFixed(2)}, recall ${recall.toFixed(2)}, F${beta} ${f.toFixed(2)}`, tp, fp, fn, precision, recall };
    }
    // booleanCorrectness
    const r = await ask(ctx, BOOLEAN_CORRECTNESS, { question: input.question, reference: input.reference!, answer: input.answer }, booleanReply);
    return r.ok ? { score: r.value.correct ? 1 : 0, reason: r.value.reason || '(the judge gave no reason)' } : unmeasured(r.reason);
  };

  const entries = await Promise.all(metrics.map(async (m) => [m, await one(m)] as const));
  return Object.fromEntries(entries);
}

/** The generated answer text of a reply (reasoning blocks removed, trimmed). */
export function answerText(content: string): string {
  return stripReasoning(content).trim();
}
