/**
 * Real text for the use-lite build check, drawn deterministically from the sample corpora in
 * `../shared/data`: sentences (Intl.Segmenter) of the FastAPI docs, the prose books, the Chroma
 * corpora and the SQuAD contexts, every n-th one so each corpus gives the same count, plus a few
 * whole paragraphs longer than the model's 128-token limit (to check truncation).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

export const SHARED_DATA = path.resolve(__dirname, '..', '..', '..', 'shared', 'data');

/** One sampled text with where it came from. */
export interface SampleText {
  corpus: string;
  text: string;
}

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = path.join(dir, n);
      return statSync(p).isDirectory() ? walk(p) : /\.(md|txt)$/.test(n) && !/^(LICENSE|SOURCE)/.test(n) ? [p] : [];
    });
}

function squadContexts(): string[] {
  const file = path.join(SHARED_DATA, 'squad', 'squad2_dev_small.json');
  const data = JSON.parse(readFileSync(file, 'utf8')) as { data: { paragraphs: { context: string }[] }[] };
  return data.data.flatMap((a) => a.paragraphs.map((p) => p.context));
}

/** Texts of each corpus, in a fixed order. Throws Error when ../shared/data is missing. */
export function corpusTexts(): Map<string, string[]> {
  if (!existsSync(SHARED_DATA)) throw new Error(`${SHARED_DATA} not found: the check draws its sentences from the sample corpora`);
  const read = (dir: string) => walk(path.join(SHARED_DATA, dir)).map((f) => readFileSync(f, 'utf8'));
  return new Map([
    ['fastapi-docs', read('fastapi-docs')],
    ['prose', read('prose')],
    ['chroma', read(path.join('chroma', 'corpora'))],
    ['squad', squadContexts()],
  ]);
}

/**
 * `perCorpus` sentences of 20–600 UTF-16 code units from each corpus (every n-th, n = count /
 * perCorpus), then `longPerCorpus` paragraphs of 1,000–3,000 code units (beyond 128 tokens).
 */
export function sampleTexts(perCorpus: number, longPerCorpus: number): SampleText[] {
  const seg = new Intl.Segmenter('en', { granularity: 'sentence' });
  const out: SampleText[] = [];
  for (const [corpus, texts] of corpusTexts()) {
    const sentences: string[] = [];
    const long: string[] = [];
    for (const t of texts) {
      for (const s of seg.segment(t)) {
        const x = s.segment.trim();
        if (x.length >= 20 && x.length <= 600) sentences.push(x);
      }
      for (const p of t.split(/\r?\n[ \t]*\r?\n/)) if (p.length >= 1000 && p.length <= 3000) long.push(p.trim());
    }
    const pick = (xs: string[], n: number) => (xs.length <= n ? xs : Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)]));
    for (const text of [...pick(sentences, perCorpus), ...pick(long, longPerCorpus)]) out.push({ corpus, text });
  }
  return out;
}

/** Every non-blank line of every corpus text (for the exhaustive token-id comparison). */
export function corpusLines(): string[] {
  const lines: string[] = [];
  for (const texts of corpusTexts().values()) for (const t of texts) for (const l of t.split('\n')) if (l.trim()) lines.push(l);
  return lines;
}
