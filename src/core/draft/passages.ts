/**
 * Passages to draft questions on, and their sampling (issue #14 §4): spread over documents and
 * sections with a seeded, deterministic order instead of taking the first files.
 *
 * Sections: in Markdown files (`isMarkdownSource`) every top-level heading starts a section that runs
 * to the next one, exactly as the `heading` chunker sees them (`headingStarts`, after YAML front
 * matter); text before the first heading is a section with no heading. Other files are one section.
 * Passages: a section trimmed of surrounding whitespace, or — when longer than `maxChars` — cut into
 * consecutive pieces at blank lines (paragraphs packed greedily up to `maxChars`; a longer paragraph
 * at its last whitespace before `maxChars`). Pieces with fewer than `MIN_PASSAGE_CHARS` non-space
 * characters (a lone heading) are not passages. All offsets are UTF-16 code units; a passage is
 * always `text.slice(start, end)` of its document, unchanged.
 */
import { frontMatterEnd, headingStarts, isMarkdownSource } from '../chunking/heading';
import { lineAt, lineStarts } from '../groundtruth/text';
import { createRng } from '../stats/rng';
import type { CorpusDocument } from '../types';

/** Pieces with fewer non-whitespace characters than this are not worth a question. */
export const MIN_PASSAGE_CHARS = 40;

export interface Section {
  source: string;
  start: number;
  end: number;
  /** The heading line's text without `#` marks, or null (text before the first heading, non-Markdown files). */
  heading: string | null;
  /** 1-based line of `start`. */
  line: number;
}

export interface Passage {
  source: string;
  start: number;
  end: number;
  heading: string | null;
}

/** A sampled passage and how many questions to ask on it. */
export interface PassagePlan {
  passage: Passage;
  questions: number;
}

function headingText(text: string, start: number): string | null {
  const line = /^[^\r\n]*/.exec(text.slice(start, start + 400))![0];
  const atx = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line);
  const t = (atx ? atx[1] ?? '' : line).trim();
  return t || null;
}

/** The sections of a document (see the module comment), in order, whitespace-only ones left out. */
export function documentSections(doc: CorpusDocument): Section[] {
  const { text, source } = doc;
  const base = isMarkdownSource(source) ? frontMatterEnd(text) : 0;
  const starts = isMarkdownSource(source) ? headingStarts(text, base) : [];
  const bounds = [base, ...starts.filter((s) => s > base), text.length];
  const out: Section[] = [];
  const lines = lineStarts(text); // one pass; a 700 kB release-notes file has ~900 sections
  for (let i = 0; i + 1 < bounds.length; i++) {
    const end = bounds[i + 1];
    const [start] = trim(text, bounds[i], end);
    if (start >= end) continue;
    const heading = i === 0 && !starts.includes(bounds[i]) ? null : headingText(text, start);
    out.push({ source, start, end, heading, line: lineAt(lines, start) });
  }
  return out;
}

/** `[start, end)` narrowed to exclude leading and trailing whitespace. */
function trim(text: string, start: number, end: number): [number, number] {
  while (start < end && /\s/.test(text[start])) start++;
  while (end > start && /\s/.test(text[end - 1])) end--;
  return [start, end];
}

/** Cuts `[start, end)` into pieces of at most `maxChars` at blank lines, else at whitespace, else hard. */
function pieces(text: string, start: number, end: number, maxChars: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let a = start;
  while (a < end) {
    [a] = trim(text, a, end);
    if (a >= end) break;
    if (end - a <= maxChars) { out.push(trim(text, a, end)); break; }
    const window = text.slice(a, a + maxChars);
    let cut = -1;
    for (const m of window.matchAll(/(?:\r\n|\r|\n)[ \t]*(?:\r\n|\r|\n)/g)) if (m.index > 0) cut = m.index;
    if (cut < 0) cut = Math.max(window.search(/\s\S*$/), 0);
    if (cut <= 0) cut = maxChars;
    out.push(trim(text, a, a + cut));
    a += cut;
  }
  return out.filter(([s, e]) => text.slice(s, e).replace(/\s+/g, '').length >= MIN_PASSAGE_CHARS);
}

/** The passages of one section, in order. */
export function sectionPassages(doc: CorpusDocument, section: Section, maxChars: number): Passage[] {
  return pieces(doc.text, section.start, section.end, maxChars).map(([start, end]) => ({ source: doc.source, start, end, heading: section.heading }));
}

function shuffle<T>(items: T[], rng: () => number): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

export interface SampleOptions {
  /** Questions wanted in total. */
  count: number;
  /** Questions asked per passage (default 1: the most spread). */
  perPassage?: number;
  /** At most this many questions from one document (default: no limit beyond the round-robin spread). */
  perDocument?: number;
  /** Longest passage, UTF-16 code units (default 2000). */
  maxChars?: number;
  /** Seed of the Mulberry32 generator (default 42). */
  seed?: number;
}

/**
 * Plans which passages to ask on: documents in a seeded random order, taken round-robin — one passage
 * per document per round — and within a document its sections in a seeded random order, cycling, one
 * unused passage of the section at a time (seeded choice). Stops when `count` questions are planned or
 * no passage is left. Same documents + options → same plan.
 */
export function samplePassages(docs: readonly CorpusDocument[], o: SampleOptions): PassagePlan[] {
  const rng = createRng(o.seed ?? 42);
  const perPassage = Math.max(1, o.perPassage ?? 1);
  const perDocument = o.perDocument ?? Infinity;
  const maxChars = o.maxChars ?? 2000;
  const pools = shuffle([...docs], rng).map((doc) => ({
    asked: 0,
    next: 0,
    sections: shuffle(documentSections(doc).map((s) => sectionPassages(doc, s, maxChars)).filter((p) => p.length > 0), rng),
  }));
  const plan: PassagePlan[] = [];
  let remaining = o.count;
  for (let progress = true; remaining > 0 && progress;) {
    progress = false;
    for (const pool of pools) {
      if (remaining <= 0) break;
      const room = perDocument - pool.asked;
      if (room <= 0 || pool.sections.length === 0) continue;
      const s = pool.next % pool.sections.length;
      const [passage] = pool.sections[s].splice(Math.floor(rng() * pool.sections[s].length), 1);
      if (pool.sections[s].length === 0) pool.sections.splice(s, 1);
      else pool.next = s + 1;
      const questions = Math.min(perPassage, remaining, room);
      plan.push({ passage, questions });
      pool.asked += questions;
      remaining -= questions;
      progress = true;
    }
  }
  return plan;
}
