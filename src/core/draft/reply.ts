/**
 * Reading a drafting reply: `{"questions": [{"question", "answer"?, "evidence": [{"quote"}]}]}`,
 * found by the judges' robust reader (`extractJson`: `<think>` blocks, code fences, JSON in prose,
 * trailing commas). The top level must have a `questions` array (else the reply is malformed: one
 * repair request, then the passage counts as rejected); each candidate is checked on its own, so one
 * bad candidate does not discard the others. Common slips are accepted: an evidence item given as a
 * plain string, `evidence` given as one object or string.
 */
import { z } from 'zod';
import { extractJson } from '../judge/parse';

export interface Candidate {
  question: string;
  answer?: string;
  quotes: string[];
}

const quoteItem = z.preprocess((v) => (typeof v === 'string' ? { quote: v } : v), z.object({ quote: z.string() }));
const candidateSchema = z.object({
  question: z.string().trim().min(1),
  answer: z.preprocess((v) => (v === null ? undefined : v), z.string().optional()),
  evidence: z.preprocess((v) => (v !== null && !Array.isArray(v) && (typeof v === 'string' || typeof v === 'object') ? [v] : v), z.array(quoteItem).min(1)),
});

export type ParsedReply =
  | { ok: true; candidates: Candidate[]; invalid: Array<{ index: number; error: string }> }
  | { ok: false; error: string };

/** Parses one reply; `invalid` lists candidates that do not fit (by 0-based index, with the zod message). */
export function parseDraftReply(text: string): ParsedReply {
  const obj = extractJson(text);
  if (!obj) return { ok: false, error: 'no JSON object found in the reply' };
  if (!Array.isArray(obj.questions)) return { ok: false, error: 'field "questions": expected an array' };
  const candidates: Candidate[] = [];
  const invalid: Array<{ index: number; error: string }> = [];
  obj.questions.forEach((raw: unknown, index: number) => {
    const r = candidateSchema.safeParse(raw);
    if (!r.success) {
      const issue = r.error.issues[0];
      invalid.push({ index, error: `field "${issue.path.join('.') || '(item)'}": ${issue.message}` });
      return;
    }
    const answer = r.data.answer?.trim();
    candidates.push({ question: r.data.question, ...(answer ? { answer } : {}), quotes: r.data.evidence.map((e) => e.quote) });
  });
  return { ok: true, candidates, invalid };
}
