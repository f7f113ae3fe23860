/**
 * Robust reading of judge replies. Local models wrap JSON in prose, Markdown code fences or
 * `<think>…</think>` reasoning; this finds the JSON object and validates it with a zod schema. A
 * reply that cannot be read yields a message used for the one repair attempt, then `unmeasured`.
 */
import { z } from 'zod';

/** Removes `<think>…</think>` / `<thinking>…</thinking>` blocks (reasoning models) and an unclosed leading one. */
export function stripReasoning(text: string): string {
  return text.replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi, '').replace(/^\s*<(think|thinking|reasoning)>[\s\S]*$/i, '').trim();
}

/** Balanced `{…}` substrings of `text` (strings and escapes respected), in order of their start. */
function objectCandidates(text: string): string[] {
  const out: string[] = [];
  for (let start = text.indexOf('{'); start >= 0 && out.length < 20; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inStr = false;
    let esc = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inStr) {
        if (esc) esc = false;
        else if (c === '\\') esc = true;
        else if (c === '"') inStr = false;
      } else if (c === '"') inStr = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        out.push(text.slice(start, i + 1));
        break;
      }
    }
  }
  return out;
}

function tryParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    // Common slips of small models: trailing commas, smart quotes around keys.
    try {
      return JSON.parse(s.replace(/,\s*([}\]])/g, '$1').replace(/[“”]/g, '"'));
    } catch {
      return undefined;
    }
  }
}

/**
 * The first JSON object in `text`: the whole text, else the content of ```json fences, else the first
 * balanced `{…}` that parses. Returns undefined when there is none.
 */
export function extractJson(text: string): Record<string, unknown> | undefined {
  const t = stripReasoning(text);
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  const whole = tryParse(t);
  if (isObj(whole)) return whole;
  for (const m of t.matchAll(/```[a-zA-Z]*\s*\n?([\s\S]*?)```/g)) {
    const v = tryParse(m[1].trim());
    if (isObj(v)) return v;
  }
  for (const c of objectCandidates(t)) {
    const v = tryParse(c);
    if (isObj(v)) return v;
  }
  return undefined;
}

const reason = z.preprocess((v) => (v === undefined || v === null ? '' : v), z.string());
const bool = z.preprocess((v) => {
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (['true', 'yes', 'correct', 'supported', '1'].includes(s)) return true;
    if (['false', 'no', 'incorrect', 'unsupported', 'not supported', '0'].includes(s)) return false;
  }
  if (v === 1) return true;
  if (v === 0) return false;
  return v;
}, z.boolean());

export const scaleReply = z.object({
  score: z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v.trim()) : v), z.number().int().min(1).max(5)),
  reason,
});
export const claimsReply = z.object({ claims: z.array(z.string().trim().min(1)).max(100) });
export const verdictsReply = z.object({
  verdicts: z.array(z.object({ index: z.preprocess((v) => (typeof v === 'string' ? Number(v) : v), z.number().int().min(1)), supported: bool, reason })),
});
export const booleanReply = z.object({ correct: bool, reason });

/** Parses `text` with `schema`; `{ok:false, error}` names what was wrong (for the repair message). */
export function parseReply<T>(text: string, schema: z.ZodType<T>): { ok: true; value: T } | { ok: false; error: string } {
  const obj = extractJson(text);
  if (!obj) return { ok: false, error: 'no JSON object found in the reply' };
  const r = schema.safeParse(obj);
  if (r.success) return { ok: true, value: r.data };
  const issue = r.error.issues[0];
  return { ok: false, error: `field "${issue.path.join('.') || '(root)'}": ${issue.message}` };
}
