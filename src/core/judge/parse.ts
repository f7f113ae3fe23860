/**
 * Robust reading of judge replies. Local models wrap JSON in prose, Markdown code fences or
 * `<think>…</think>` reasoning; this finds the JSON object and validates it with a zod schema. A
 * reply that cannot be read yields a message used for the one repair attempt, then `unmeasured`.
 */
import { z } from 'zod';

/**
 * Longest judge reply read, characters (UTF-16 code units): a longer one is cut before parsing. Judge
 * replies are limited to ~1 024 tokens (a few kB); the bound keeps a hostile reply from pinning a core.
 */
export const MAX_REPLY_CHARS = 200_000;

const REASONING_OPEN = /<(think|thinking|reasoning)>/gi;

/**
 * Removes `<think>…</think>` / `<thinking>…</thinking>` / `<reasoning>…</reasoning>` blocks (reasoning
 * models; tag names case-insensitive, each block closed by the first matching closing tag) and an
 * unclosed leading one (the reply is then empty). One pass: O(length).
 */
export function stripReasoning(text: string): string {
  const parts: string[] = [];
  const noClose = new Set<string>(); // tags with no closing tag after the last search: never searched again
  let keptFrom = 0;
  let leading = true; // nothing but whitespace kept so far (once false, false for ever: kept text only grows)
  REASONING_OPEN.lastIndex = 0;
  for (let m = REASONING_OPEN.exec(text); m; m = REASONING_OPEN.exec(text)) {
    const tag = m[1].toLowerCase();
    const bodyStart = m.index + m[0].length;
    let close = -1;
    if (!noClose.has(tag)) {
      const re = new RegExp(`</${tag}>`, 'gi');
      re.lastIndex = bodyStart;
      const c = re.exec(text);
      if (c) close = c.index + c[0].length;
      else noClose.add(tag);
    }
    if (close < 0) {
      // Unclosed: a leading one (only whitespace before it, after removals) swallows the rest.
      if (leading && text.slice(keptFrom, m.index).trim() === '') return '';
      leading = false;
      REASONING_OPEN.lastIndex = m.index + 1;
      continue;
    }
    const kept = text.slice(keptFrom, m.index);
    if (leading && kept.trim() !== '') leading = false;
    parts.push(kept);
    keptFrom = close;
    REASONING_OPEN.lastIndex = close;
  }
  parts.push(text.slice(keptFrom));
  return parts.join('').trim();
}

/**
 * Balanced `{…}` substrings of `text` in order of their start, from one left-to-right pass with a
 * stack of open braces: `strings` true respects JSON strings and escapes; false counts every brace
 * (a second chance when prose holds a stray quote). O(length) time and memory.
 */
function objectCandidates(text: string, strings: boolean): Array<[number, number]> {
  const open: number[] = [];
  const out: Array<[number, number]> = [];
  let inStr = false;
  let esc = false;
  for (let i = text.indexOf('{'); i >= 0 && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inStr) {
      if (esc) esc = false;
      else if (c === 0x5c) esc = true;
      else if (c === 0x22) inStr = false;
    } else if (c === 0x22 && strings && open.length) inStr = true;
    else if (c === 0x7b) open.push(i);
    else if (c === 0x7d && open.length) out.push([open.pop()!, i + 1]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** The contents of Markdown code fences (```lang … ```), in order; one indexOf pass. */
function fenceContents(text: string): string[] {
  const out: string[] = [];
  for (let i = text.indexOf('```'); i >= 0; ) {
    let j = i + 3;
    while (j < text.length && /[a-zA-Z]/.test(text[j])) j++;
    const close = text.indexOf('```', j);
    if (close < 0) break;
    out.push(text.slice(j, close).trim());
    i = text.indexOf('```', close + 3);
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

/** Parse attempts on brace candidates at most (each O(length)), so the whole search stays linear. */
const MAX_CANDIDATES = 20;

/**
 * The first JSON object in `text` (cut at {@link MAX_REPLY_CHARS}): the whole text, else the content
 * of ```json fences, else the first balanced `{…}` that parses (strings respected, then not).
 * Returns undefined when there is none. Linear in the length of `text`.
 */
export function extractJson(text: string): Record<string, unknown> | undefined {
  const t = stripReasoning(text.length > MAX_REPLY_CHARS ? text.slice(0, MAX_REPLY_CHARS) : text);
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  const whole = tryParse(t);
  if (isObj(whole)) return whole;
  let tries = 0;
  for (const f of fenceContents(t)) {
    if (++tries > MAX_CANDIDATES) break;
    const v = tryParse(f);
    if (isObj(v)) return v;
  }
  for (const strings of [true, false]) {
    tries = 0;
    for (const [a, b] of objectCandidates(t, strings)) {
      if (++tries > MAX_CANDIDATES) break;
      const v = tryParse(t.slice(a, b));
      if (isObj(v)) return v;
    }
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
