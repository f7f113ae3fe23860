/**
 * The prompts of the generation loop and the judges — Spanproof's own wording, versioned. Each
 * prompt's identity is `<id>@<version>#<hash>` (hash = first 12 hex digits of SHA-256 over the system
 * and user templates), which is part of the cache key: editing a prompt changes the hash, so no stale
 * cached reply is reused. Bump `version` when the meaning changes; docs/judges.md lists the versions.
 *
 * The metric DEFINITIONS follow the sources cited per prompt (Azure AI evaluation's AI-assisted
 * quality evaluators; RAGAS faithfulness and answer/factual correctness; Pathway's LLM-as-judge
 * correctness verdict); the text is not theirs.
 *
 * Placeholders `{{name}}` are filled in one pass (a value containing `{{…}}` is not re-expanded).
 */
import { createHash } from 'node:crypto';
import type { ChatMessage, ScaleMetric } from './types';

export interface PromptTemplate {
  id: string;
  version: number;
  system: string;
  user: string;
}

const JSON_SCALE = 'Reply with one JSON object and nothing else: {"score": <integer 1 to 5>, "reason": "<one or two sentences>"}.';

export const GENERATE: PromptTemplate = {
  id: 'generate',
  version: 1,
  system:
    'You answer questions about a set of documents. Use only the numbered passages you are given. ' +
    'If the passages do not contain the answer, say that the passages do not say. Be concise: answer in at most a few sentences, without preamble.',
  user: 'Passages:\n{{context}}\n\nQuestion: {{question}}\n\nAnswer:',
};

/** 1–5 judges. Definitions after Azure AI evaluation's GroundednessEvaluator, RelevanceEvaluator, CoherenceEvaluator, FluencyEvaluator, SimilarityEvaluator and RetrievalEvaluator. */
export const SCALE_PROMPTS: Record<ScaleMetric, PromptTemplate> = {
  groundedness: {
    id: 'groundedness',
    version: 1,
    system:
      'You are a strict grader. You check whether an answer is backed by the supplied source passages. ' +
      'Score 5 when every statement in the answer can be found in or directly inferred from the passages; ' +
      '4 when nearly all is backed and the rest is harmless; 3 when a noticeable part is not backed; ' +
      '2 when most of it is not backed or it distorts the passages; 1 when it contradicts the passages or has nothing to do with them. ' +
      'Judge only support by the passages, not whether the answer is true in the world. ' + JSON_SCALE,
    user: 'Passages:\n{{context}}\n\nQuestion: {{question}}\n\nAnswer to grade:\n{{answer}}',
  },
  relevance: {
    id: 'relevance',
    version: 1,
    system:
      'You are a strict grader. You check how well an answer addresses the question that was asked. ' +
      'Score 5 when it answers the question fully and directly with the key details; 4 when it answers it with small gaps; ' +
      '3 when it answers only part of it; 2 when it barely touches the question; 1 when it does not address the question at all. ' + JSON_SCALE,
    user: 'Question: {{question}}\n\nAnswer to grade:\n{{answer}}',
  },
  coherence: {
    id: 'coherence',
    version: 1,
    system:
      'You are a strict grader. You check the coherence of an answer: whether its ideas are in a sensible order, connect to one another and read as one line of thought. ' +
      'Score 5 for a clear, well-connected answer; 4 for a mostly clear one with small jumps; 3 for one that is partly disjointed; ' +
      '2 for one that is hard to follow; 1 for one with no discernible logic. Ignore whether it is correct. ' + JSON_SCALE,
    user: 'Question: {{question}}\n\nAnswer to grade:\n{{answer}}',
  },
  fluency: {
    id: 'fluency',
    version: 1,
    system:
      'You are a strict grader. You check the fluency of a text: grammar, word choice, sentence construction and readability. ' +
      'Score 5 for polished, natural language; 4 for good language with minor slips; 3 for understandable text with clear errors; ' +
      '2 for text whose errors get in the way; 1 for text that is barely readable. Ignore content and correctness. ' + JSON_SCALE,
    user: 'Text to grade:\n{{answer}}',
  },
  similarity: {
    id: 'similarity',
    version: 1,
    system:
      'You are a strict grader. You compare an answer with a reference answer to the same question and judge how close they are in meaning. ' +
      'Score 5 when they say the same thing; 4 when they agree apart from minor details; 3 when they share the main point but differ in important details; ' +
      '2 when they overlap only a little; 1 when they disagree or are unrelated. Wording and length do not matter, meaning does. ' + JSON_SCALE,
    user: 'Question: {{question}}\n\nReference answer:\n{{reference}}\n\nAnswer to grade:\n{{answer}}',
  },
  retrieval: {
    id: 'retrieval',
    version: 1,
    system:
      'You are a strict grader. You judge a list of retrieved passages for a question: are the passages that matter for the question present, and are they near the top of the list? ' +
      'Score 5 when the passages needed to answer are present and ranked first; 4 when they are present but not all at the top; ' +
      '3 when only part of what is needed is present; 2 when the passages are mostly off-topic; 1 when none of them helps with the question. ' + JSON_SCALE,
    user: 'Question: {{question}}\n\nRetrieved passages, in rank order:\n{{context}}',
  },
};

/** Claim extraction, shared by faithfulness and answer correctness (RAGAS: the answer is broken into standalone statements). */
export const EXTRACT_CLAIMS: PromptTemplate = {
  id: 'extract-claims',
  version: 1,
  system:
    'You split a text into its factual claims. A claim is one short, self-contained statement that can be checked on its own: ' +
    'replace pronouns with what they refer to, and keep numbers, names and conditions. Leave out greetings, hedges and statements that assert nothing. ' +
    'If the text asserts nothing (for example it only says it cannot answer), return an empty list. ' +
    'Reply with one JSON object and nothing else: {"claims": ["<claim>", "..."]}.',
  user: 'Question the text responds to: {{question}}\n\nText:\n{{text}}',
};

/** Claim verification against a premise text (RAGAS faithfulness: a claim counts when the context supports it; also the TP/FP/FN classification of answer correctness). */
export const VERIFY_CLAIMS: PromptTemplate = {
  id: 'verify-claims',
  version: 1,
  system:
    'You check numbered claims against a source text. A claim is supported only when the source text states it or it follows directly from the source text; ' +
    'a claim that the source does not mention, or contradicts, is not supported. Give a verdict for every claim, in order. ' +
    'Reply with one JSON object and nothing else: {"verdicts": [{"index": <claim number>, "supported": true|false, "reason": "<short reason>"}]}.',
  user: 'Source text:\n{{premise}}\n\nClaims:\n{{claims}}',
};

/** Boolean correctness verdict (Pathway's LLM-as-judge: is the answer correct with respect to the expected answer). */
export const BOOLEAN_CORRECTNESS: PromptTemplate = {
  id: 'boolean-correctness',
  version: 1,
  system:
    'You decide whether an answer to a question is correct, using the reference answer as the truth. ' +
    'It is correct when it gives the information the reference gives (other wording, extra harmless detail and a different format are fine); ' +
    'it is incorrect when it misses the key information, contradicts the reference, or declines to answer. ' +
    'Reply with one JSON object and nothing else: {"correct": true|false, "reason": "<one sentence>"}.',
  user: 'Question: {{question}}\n\nReference answer:\n{{reference}}\n\nAnswer to check:\n{{answer}}',
};

/** Sent after an unreadable reply (the one repair attempt). */
export const REPAIR: PromptTemplate = {
  id: 'repair',
  version: 1,
  system: '',
  user: 'Your reply could not be read ({{error}}). Reply again with only the JSON object in the format asked for, with no other text.',
};

export const ALL_PROMPTS: PromptTemplate[] = [GENERATE, ...Object.values(SCALE_PROMPTS), EXTRACT_CLAIMS, VERIFY_CLAIMS, BOOLEAN_CORRECTNESS, REPAIR];

/** `<id>@<version>#<first 12 hex of SHA-256(system + "\n\u0000\n" + user)>`. */
export function promptVersion(p: PromptTemplate): string {
  const h = createHash('sha256').update(`${p.system}\n\u0000\n${p.user}`).digest('hex').slice(0, 12);
  return `${p.id}@${p.version}#${h}`;
}

/** Prompt id → version string, for results.json and the ledger. */
export function promptVersions(): Record<string, string> {
  return Object.fromEntries(ALL_PROMPTS.map((p) => [p.id, promptVersion(p)]));
}

/** Fills `{{name}}` placeholders in one pass; an unknown name is left as is. */
export function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (m, k: string) => (k in vars ? vars[k] : m));
}

/** The chat messages of a prompt with its placeholders filled. */
export function render(p: PromptTemplate, vars: Record<string, string>): ChatMessage[] {
  const msgs: ChatMessage[] = [];
  if (p.system) msgs.push({ role: 'system', content: fill(p.system, vars) });
  msgs.push({ role: 'user', content: fill(p.user, vars) });
  return msgs;
}

/** Numbered passages `[1] source\ntext` separated by blank lines (what the generator and context judges see). */
export function formatContext(contexts: Array<{ source: string; text: string }>): string {
  if (contexts.length === 0) return '(no passages)';
  return contexts.map((c, i) => `[${i + 1}] ${c.source}\n${c.text}`).join('\n\n');
}

/** Numbered claims, one per line. */
export function formatClaims(claims: string[]): string {
  return claims.map((c, i) => `${i + 1}. ${c}`).join('\n');
}
