/**
 * Long generated contracts and CUAD-like excerpts for the alignment tests: numbered sections of
 * legal-vocabulary sentences (seeded, so every run builds the same text), a repeated boilerplate clause
 * in slightly different wordings, and excerpts cut from the text with the small edits Pathway's CUAD
 * labels show against their contracts — a changed word, dropped punctuation, curly quotes, a line
 * break or double space, a typo. Offsets are UTF-16 code units.
 */

const VOCABULARY = ('the Company shall Party agrees that any all such Agreement notice written consent prior to termination effective date hereof ' +
  'thereof herein pursuant Section provided however Licensee Licensor rights obligations confidential information including without ' +
  'limitation reasonable efforts indemnify hold harmless against losses damages claims liabilities costs expenses arising out of or in ' +
  'connection with breach representation warranty covenant term renewal period thirty days following receipt may not assign transfer ' +
  'delegate this its under hereunder without the other party which consent shall be unreasonably withheld conditioned delayed governed ' +
  'by laws State of New York exclusive jurisdiction courts located in').split(' ');

/** A boilerplate clause contracts repeat; `{n}` is replaced by the section number so each copy differs a little. */
export const BOILERPLATE = 'Notwithstanding anything to the contrary in Section {n}, neither party shall be liable to the other for any "Consequential Damages", including lost profits, arising out of this Agreement, except for breach of confidentiality.';

/** Deterministic linear congruential generator in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A contract of exactly `chars` UTF-16 code units; every `boilerplateEvery`-th section ends with {@link BOILERPLATE}. */
export function generatedContract(chars: number, seed: number, boilerplateEvery = 0): string {
  const r = random(seed);
  const word = () => VOCABULARY[Math.floor(r() * VOCABULARY.length)];
  const parts: string[] = [];
  let length = 0;
  for (let section = 1; length < chars; section++) {
    const sentences = [`\n\n${section}. ${word().toUpperCase()} ${word().toUpperCase()}.\n\n`];
    for (let s = 3 + Math.floor(r() * 6); s > 0; s--) {
      const words: string[] = [];
      for (let w = 12 + Math.floor(r() * 30); w > 0; w--) {
        let x = word();
        if (r() < 0.06) x += ',';
        if (r() < 0.03) x = `"${x}"`;
        if (r() < 0.02) x = `(${section}.${w})`;
        words.push(x);
      }
      words[0] = words[0][0].toUpperCase() + words[0].slice(1);
      sentences.push(words.join(' ') + (r() < 0.5 ? '.' : ';') + (r() < 0.3 ? '\n' : ' '));
    }
    if (boilerplateEvery && section % boilerplateEvery === 0) sentences.push(BOILERPLATE.replace('{n}', String(section)) + ' ');
    const text = sentences.join('');
    parts.push(text);
    length += text.length;
  }
  return parts.join('').slice(0, chars);
}

/** `length` code units of `text` from the first word start at or after `from` (from 0: the start), trimmed. */
export function passage(text: string, from: number, length: number): { start: number; text: string } {
  const start = from === 0 ? 0 : text.indexOf(' ', from) + 1;
  const raw = text.slice(start, start + length);
  const lead = raw.length - raw.trimStart().length;
  return { start: start + lead, text: raw.trim() };
}

/** A document and an excerpt of it with CUAD-like edits, named for the test's messages. */
export interface ExcerptCase {
  name: string;
  text: string;
  excerpt: string;
}

/** Curly double quotes for straight ones (the labels' quotes often differ from the contract's). */
const curly = (s: string): string => s.replace(/"([^"]*)"/g, '\u201c$1\u201d');

/**
 * Eight realistic cases, each without an exact or whitespace/case-insensitive occurrence (so the fuzzy
 * step places it): 999- and 300-character excerpts in 80 kB and 390 kB contracts, at the start and the
 * end, a short one, one with all punctuation dropped and line breaks, and a typo'd copy of a clause the
 * contract repeats in six places (the copy of section 40 is the right one).
 */
export function cuadLikeCases(): ExcerptCase[] {
  const c80 = generatedContract(80_000, 7);
  const c390 = generatedContract(390_000, 11);
  const boiler = generatedContract(80_000, 13, 10);
  const cases: ExcerptCase[] = [];
  const add = (name: string, text: string, from: number, length: number, edit: (s: string) => string) => {
    cases.push({ name, text, excerpt: edit(passage(text, from, length).text) });
  };
  add('999 chars in 80 kB: a changed word, a dropped comma, curly quotes', c80, 48_000, 999, (s) => curly(s.replace(' shall ', ' will ').replace(',', '')));
  add('999 chars in 390 kB: a changed word, a dropped comma, curly quotes', c390, 117_000, 999, (s) => curly(s.replace(' any ', ' each ').replace(',', '')));
  add('300 chars in 390 kB: a typo and a double space', c390, 300_000, 300, (s) => s.replace('e', 'a').replace(' ', '  ').replace(/the (\w)/, 'tha $1'));
  add('the start of the contract, a changed word', c80, 0, 500, (s) => s.replace(/([a-z]{6,})/, '$1s'));
  add('the end of the contract, a dropped word', c80, 79_400, 600, (s) => s.replace(/ of /, ' '));
  add('a short clause with a typo', c390, 200_000, 60, (s) => s.replace(/[aeiou]/, 'x'));
  add('all punctuation dropped, line breaks for spaces', c80, 20_000, 800, (s) => s.replace(/[.,;:"()]/g, '').replace(/ (\w+) /g, (m, w: string, i: number) => (i % 90 < 9 ? `\n${w}\n` : m)));
  const s40 = boiler.indexOf('Section 40,');
  cases.push({ name: 'a repeated clause: the typo\'d copy of section 40', text: boiler, excerpt: boiler.slice(boiler.lastIndexOf('Notwithstanding', s40), boiler.indexOf('confidentiality.', s40) + 16).replace('liable', 'liabel').replace('lost profits', 'lost revenue') });
  return cases;
}
