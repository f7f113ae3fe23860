/**
 * Pathway's string-similarity answer judge (rag_evals `StringSimEvaluator`, SEED-SYSTEMS.md §B.5) and
 * its per-file × per-question pass/fail grid (§B.6).
 *
 * `pathway` mode reproduces it: lowercase; a "no information / don't know" prediction is right only
 * for a "no information found" or "[]" label; a label matching `^\d{1,2}/\d{1,2}/\d{2}$` is compared
 * as a date — the **whole** prediction parsed with one of `%d %B %Y`, `%B %d, %Y`, `%m/%d/%Y` and
 * reformatted `%-m/%-d/%y`, with no fallback; otherwise both strings are stripped to alphanumerics and
 * `difflib.SequenceMatcher(None, pred, label).ratio() > 0.4` (Python's default autojunk on).
 *
 * `fixed` mode (default) repairs P1–P6:
 *   P1 numeric dates in the prediction parse (m/d/yy, m/d/yyyy, yyyy-mm-dd);
 *   P2 a date *inside* a verbose prediction is found ("The agreement date is May 8, 2014.");
 *   P3 a 4-digit-year label (5/8/2014) is a date too;
 *   P4 formatting is ours (no glibc-only `%-m`), so it runs on every platform;
 *      and when no date can be read from the prediction, it falls back to the similarity rule;
 *   P5 a Yes/No label is compared with the prediction's leading yes/no ("Yes, the contract …" → yes);
 *   P6 SequenceMatcher runs with autojunk off, so the ratio is symmetric for long labels.
 */
import { sequenceMatcherRatio } from '../align/sequence-matcher';

export interface StringSimOptions {
  /** Default `fixed`. */
  mode?: 'pathway' | 'fixed';
  /** Similarity threshold, strict (Pathway `SEQUENCE_MATCH_MIN_THRESHOLD` = 0.4). */
  threshold?: number;
}

export interface StringSimVerdict {
  pass: boolean;
  /** Which rule decided. */
  rule: 'no-information' | 'date' | 'yes-no' | 'similarity';
  /** SequenceMatcher ratio when the similarity rule decided. */
  ratio?: number;
  /** The normalised dates compared, when the date rule decided. */
  dates?: { prediction: string | null; label: string };
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_RE = `(${MONTHS.join('|')}|${MONTHS.map((m) => m.slice(0, 3)).join('|')})\\.?`;

interface Ymd { y: number; m: number; d: number }
const fmt = (v: Ymd): string => `${v.m}/${v.d}/${String(v.y % 100).padStart(2, '0')}`;
const valid = (v: Ymd): boolean => v.m >= 1 && v.m <= 12 && v.d >= 1 && v.d <= new Date(Date.UTC(v.y, v.m, 0)).getUTCDate();
const month = (name: string): number => MONTHS.findIndex((m) => m.startsWith(name.slice(0, 3))) + 1;
/** Python strptime `%y`: 69–99 → 19xx, 00–68 → 20xx. */
const year2 = (y: string): number => (y.length === 2 ? (Number(y) >= 69 ? 1900 : 2000) + Number(y) : Number(y));

/** Pathway: the whole (lowercased) string must match one strptime format. */
function strptimeWhole(s: string): Ymd | null {
  let m = new RegExp(`^(\\d{1,2}) (${MONTHS.join('|')}) (\\d{4})$`).exec(s);
  if (m) return chk({ y: +m[3], m: month(m[2]), d: +m[1] });
  m = new RegExp(`^(${MONTHS.join('|')}) (\\d{1,2}), (\\d{4})$`).exec(s);
  if (m) return chk({ y: +m[3], m: month(m[1]), d: +m[2] });
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  if (m) return chk({ y: +m[3], m: +m[1], d: +m[2] });
  return null;
}
const chk = (v: Ymd): Ymd | null => (valid(v) ? v : null);

/** Fixed: the first date found anywhere in the string, in any of the common forms. */
function findDate(s: string): Ymd | null {
  const pats: Array<[RegExp, (m: RegExpExecArray) => Ymd]> = [
    [/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/, (m) => ({ y: +m[1], m: +m[2], d: +m[3] })],
    [/\b(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})\b/, (m) => ({ y: year2(m[3]), m: +m[1], d: +m[2] })],
    [new RegExp(`\\b${MONTH_RE}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`), (m) => ({ y: +m[3], m: month(m[1]), d: +m[2] })],
    [new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:day\\s+of\\s+)?${MONTH_RE},?\\s+(\\d{4})\\b`), (m) => ({ y: +m[3], m: month(m[2]), d: +m[1] })],
  ];
  let best: { at: number; v: Ymd } | null = null;
  for (const [re, f] of pats) {
    const m = re.exec(s);
    if (m) {
      const v = f(m);
      if (valid(v) && (!best || m.index < best.at)) best = { at: m.index, v };
    }
  }
  return best?.v ?? null;
}

const NO_INFO = /no information|don't know|do not know/;
const alnum = (s: string): string => s.replace(/[^\p{L}\p{N}]/gu, '');

/** Judges `prediction` against `label` (a CUAD `-Answer` cell). Pure; see the module doc for the rules. */
export function stringSimJudge(prediction: string, label: string, options: StringSimOptions = {}): StringSimVerdict {
  const mode = options.mode ?? 'fixed';
  const threshold = options.threshold ?? 0.4;
  const p = prediction.toLowerCase();
  const l = label.toLowerCase().trim();
  if (NO_INFO.test(p) && (l === 'no information found' || l === '[]')) return { pass: true, rule: 'no-information' };
  if (mode === 'pathway') {
    if (/^\d{1,2}\/\d{1,2}\/\d{2}$/.test(l)) {
      const v = strptimeWhole(p);
      return { pass: v !== null && fmt(v) === l, rule: 'date', dates: { prediction: v && fmt(v), label: l } };
    }
    const ratio = sequenceMatcherRatio(alnum(p), alnum(l), true);
    return { pass: ratio > threshold, rule: 'similarity', ratio };
  }
  const ld = /^\d{1,2}\/\d{1,2}\/(\d{2}|\d{4})$/.test(l) || /^\d{4}-\d{1,2}-\d{1,2}$/.test(l) ? findDate(l) : null;
  if (ld) {
    const pd = findDate(p);
    if (pd) return { pass: fmt(pd) === fmt(ld) && pd.y === ld.y, rule: 'date', dates: { prediction: fmt(pd), label: fmt(ld) } };
    // no date readable in the prediction: fall back to similarity
  }
  if (l === 'yes' || l === 'no') {
    const first = /^\W*(yes|no)\b/.exec(p)?.[1];
    if (first) return { pass: first === l, rule: 'yes-no' };
  }
  const ratio = sequenceMatcherRatio(alnum(p), alnum(l), false);
  return { pass: ratio > threshold, rule: 'similarity', ratio };
}

export interface PassFailGrid {
  files: string[];
  questions: string[];
  /** `cells[f][q]`: 1 pass, 0 fail, null not asked (Pathway filled these with 0). Several verdicts for one cell aggregate with max, as Pathway's pivot. */
  cells: Array<Array<0 | 1 | null>>;
  /** Accuracy per file / per question over asked cells (Pathway `file_based_eval_scores`/`question_based_eval_scores`). */
  perFile: Record<string, number>;
  perQuestion: Record<string, number>;
  /** Mean over all verdicts ("Total RAG Accuracy"). */
  accuracy: number;
}

/** The per-file × per-question pass/fail grid of a list of verdicts (files and questions in first-seen order). */
export function passFailGrid(items: ReadonlyArray<{ file: string; question: string; pass: boolean }>): PassFailGrid {
  const files: string[] = [];
  const questions: string[] = [];
  const fi = new Map<string, number>();
  const qi = new Map<string, number>();
  for (const it of items) {
    if (!fi.has(it.file)) { fi.set(it.file, files.length); files.push(it.file); }
    if (!qi.has(it.question)) { qi.set(it.question, questions.length); questions.push(it.question); }
  }
  const cells: Array<Array<0 | 1 | null>> = files.map(() => questions.map(() => null));
  const acc = (m: Map<string, [number, number]>, k: string, pass: boolean): void => {
    const v = m.get(k) ?? [0, 0];
    m.set(k, [v[0] + (pass ? 1 : 0), v[1] + 1]);
  };
  const pf = new Map<string, [number, number]>();
  const pq = new Map<string, [number, number]>();
  let passed = 0;
  for (const it of items) {
    const row = cells[fi.get(it.file)!];
    const q = qi.get(it.question)!;
    row[q] = Math.max(row[q] ?? 0, it.pass ? 1 : 0) as 0 | 1;
    acc(pf, it.file, it.pass);
    acc(pq, it.question, it.pass);
    if (it.pass) passed++;
  }
  const ratio = (m: Map<string, [number, number]>): Record<string, number> => Object.fromEntries([...m].map(([k, [a, n]]) => [k, a / n]));
  return { files, questions, cells, perFile: ratio(pf), perQuestion: ratio(pq), accuracy: items.length ? passed / items.length : NaN };
}
