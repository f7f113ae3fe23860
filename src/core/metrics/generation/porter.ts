/**
 * Porter stemmer, behaving like NLTK's `nltk.stem.porter.PorterStemmer` (NLTK ≥ 3.2.2, the
 * rewrite with three modes). NLTK's default mode, `NLTK_EXTENSIONS`, is what google `rouge_score`
 * (`tokenize.py`: `porter.PorterStemmer()`) and NLTK `meteor_score` use, so it is our default.
 *
 * Algorithm: M. F. Porter, "An algorithm for suffix stripping", Program 14(3):130–137, 1980,
 * with the departures documented by NLTK:
 * - `ORIGINAL_ALGORITHM`: the published algorithm.
 * - `MARTIN_EXTENSIONS`: Martin Porter's later reference implementation (bli→ble, logi→log,
 *   words of ≤ 2 letters untouched).
 * - `NLTK_EXTENSIONS`: Martin's extensions plus NLTK's: an irregular-forms table (sky, dying,
 *   news, …), `ies`/`ied` on 4-letter words → `ie`, step 1c y→i only after a consonant that is
 *   not the first letter, `alli` handled first and re-run through step 2, `fulli`→`ful`,
 *   `logi`→`log` with the `l` kept in the stem, and a 2-letter vowel–consonant stem counts as cvc.
 * Why ours: the npm Porter packages implement the published or Martin's algorithm, which stem
 * differently from NLTK (e.g. `dying`, `skies`, `flies`, `generously`), and the reference values of
 * ROUGE/METEOR depend on NLTK's output. Input is lowercased first (NLTK `to_lowercase=True`).
 */

export type PorterMode = 'NLTK_EXTENSIONS' | 'MARTIN_EXTENSIONS' | 'ORIGINAL_ALGORITHM';

const IRREGULAR: Record<string, string> = {
  skies: 'sky', sky: 'sky', dying: 'die', lying: 'lie', tying: 'tie', news: 'news',
  innings: 'inning', inning: 'inning', outings: 'outing', outing: 'outing',
  cannings: 'canning', canning: 'canning', howe: 'howe',
  proceed: 'proceed', exceed: 'exceed', succeed: 'succeed',
};

type Cond = ((stem: string) => boolean) | null;
type Rule = [suffix: string, replacement: string, cond: Cond];

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

function isConsonant(w: string, i: number): boolean {
  const c = w[i];
  if (VOWELS.has(c)) return false;
  if (c === 'y') return i === 0 ? true : !isConsonant(w, i - 1);
  return true;
}

/** Porter's m: the number of VC sequences in the stem. */
function measure(stem: string): number {
  let n = 0;
  let prevVowel = false;
  for (let i = 0; i < stem.length; i++) {
    const cons = isConsonant(stem, i);
    if (cons && prevVowel) n++;
    prevVowel = !cons;
  }
  return n;
}

function containsVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsDoubleConsonant(w: string): boolean {
  return w.length >= 2 && w[w.length - 1] === w[w.length - 2] && isConsonant(w, w.length - 1);
}

function replaceSuffix(w: string, suffix: string, repl: string): string {
  return (suffix === '' ? w : w.slice(0, w.length - suffix.length)) + repl;
}

export class PorterStemmer {
  readonly mode: PorterMode;

  constructor(mode: PorterMode = 'NLTK_EXTENSIONS') {
    this.mode = mode;
  }

  private endsCvc(w: string): boolean {
    const n = w.length;
    return (
      (n >= 3 && isConsonant(w, n - 3) && !isConsonant(w, n - 2) && isConsonant(w, n - 1) && !'wxy'.includes(w[n - 1])) ||
      (this.mode === 'NLTK_EXTENSIONS' && n === 2 && !isConsonant(w, 0) && isConsonant(w, 1))
    );
  }

  /** NLTK `_apply_rule_list`: the first rule whose suffix matches decides (even if its condition fails). */
  private applyRules(word: string, rules: Rule[]): string {
    for (const [suffix, repl, cond] of rules) {
      if (suffix === '*d' && endsDoubleConsonant(word)) {
        const stem = word.slice(0, -2);
        return cond === null || cond(stem) ? stem + repl : word;
      }
      if (word.endsWith(suffix)) {
        const stem = replaceSuffix(word, suffix, '');
        return cond === null || cond(stem) ? stem + repl : word;
      }
    }
    return word;
  }

  private step1a(w: string): string {
    if (this.mode === 'NLTK_EXTENSIONS' && w.endsWith('ies') && w.length === 4) return replaceSuffix(w, 'ies', 'ie');
    return this.applyRules(w, [['sses', 'ss', null], ['ies', 'i', null], ['ss', 'ss', null], ['s', '', null]]);
  }

  private step1b(w: string): string {
    if (this.mode === 'NLTK_EXTENSIONS' && w.endsWith('ied')) return replaceSuffix(w, 'ied', w.length === 4 ? 'ie' : 'i');
    if (w.endsWith('eed')) {
      const stem = replaceSuffix(w, 'eed', '');
      return measure(stem) > 0 ? stem + 'ee' : w;
    }
    let inter: string | null = null;
    for (const suffix of ['ed', 'ing']) {
      if (w.endsWith(suffix)) {
        const s = replaceSuffix(w, suffix, '');
        if (containsVowel(s)) {
          inter = s;
          break;
        }
      }
    }
    if (inter === null) return w;
    const last = inter[inter.length - 1];
    return this.applyRules(inter, [
      ['at', 'ate', null],
      ['bl', 'ble', null],
      ['iz', 'ize', null],
      ['*d', last, () => !'lsz'.includes(last)],
      ['', 'e', (stem) => measure(stem) === 1 && this.endsCvc(stem)],
    ]);
  }

  private step1c(w: string): string {
    const cond: Cond = this.mode === 'NLTK_EXTENSIONS'
      ? (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)
      : (stem) => containsVowel(stem);
    return this.applyRules(w, [['y', 'i', cond]]);
  }

  private step2(w: string): string {
    const pos = (s: string): boolean => measure(s) > 0;
    if (this.mode === 'NLTK_EXTENSIONS' && w.endsWith('alli') && pos(replaceSuffix(w, 'alli', ''))) {
      return this.step2(replaceSuffix(w, 'alli', 'al'));
    }
    const rules: Rule[] = [
      ['ational', 'ate', pos], ['tional', 'tion', pos], ['enci', 'ence', pos], ['anci', 'ance', pos],
      ['izer', 'ize', pos],
      this.mode === 'ORIGINAL_ALGORITHM' ? ['abli', 'able', pos] : ['bli', 'ble', pos],
      ['alli', 'al', pos], ['entli', 'ent', pos], ['eli', 'e', pos], ['ousli', 'ous', pos],
      ['ization', 'ize', pos], ['ation', 'ate', pos], ['ator', 'ate', pos], ['alism', 'al', pos],
      ['iveness', 'ive', pos], ['fulness', 'ful', pos], ['ousness', 'ous', pos], ['aliti', 'al', pos],
      ['iviti', 'ive', pos], ['biliti', 'ble', pos],
    ];
    if (this.mode === 'NLTK_EXTENSIONS') {
      rules.push(['fulli', 'ful', pos]);
      rules.push(['logi', 'log', () => pos(w.slice(0, -3))]);
    }
    if (this.mode === 'MARTIN_EXTENSIONS') rules.push(['logi', 'log', pos]);
    return this.applyRules(w, rules);
  }

  private step3(w: string): string {
    const pos = (s: string): boolean => measure(s) > 0;
    return this.applyRules(w, [
      ['icate', 'ic', pos], ['ative', '', pos], ['alize', 'al', pos], ['iciti', 'ic', pos],
      ['ical', 'ic', pos], ['ful', '', pos], ['ness', '', pos],
    ]);
  }

  private step4(w: string): string {
    const gt1 = (s: string): boolean => measure(s) > 1;
    return this.applyRules(w, [
      ['al', '', gt1], ['ance', '', gt1], ['ence', '', gt1], ['er', '', gt1], ['ic', '', gt1],
      ['able', '', gt1], ['ible', '', gt1], ['ant', '', gt1], ['ement', '', gt1], ['ment', '', gt1],
      ['ent', '', gt1], ['ion', '', (s) => measure(s) > 1 && (s.endsWith('s') || s.endsWith('t'))],
      ['ou', '', gt1], ['ism', '', gt1], ['ate', '', gt1], ['iti', '', gt1], ['ous', '', gt1],
      ['ive', '', gt1], ['ize', '', gt1],
    ]);
  }

  private step5a(w: string): string {
    if (w.endsWith('e')) {
      const stem = w.slice(0, -1);
      const m = measure(stem);
      if (m > 1) return stem;
      if (m === 1 && !this.endsCvc(stem)) return stem;
    }
    return w;
  }

  private step5b(w: string): string {
    return this.applyRules(w, [['ll', 'l', () => measure(w.slice(0, -1)) > 1]]);
  }

  /** The stem of `word` (lowercased first, as NLTK does by default). */
  stem(word: string): string {
    let s = word.toLowerCase();
    if (this.mode === 'NLTK_EXTENSIONS' && Object.prototype.hasOwnProperty.call(IRREGULAR, word)) return IRREGULAR[s];
    if (this.mode !== 'ORIGINAL_ALGORITHM' && word.length <= 2) return s;
    s = this.step1a(s);
    s = this.step1b(s);
    s = this.step1c(s);
    s = this.step2(s);
    s = this.step3(s);
    s = this.step4(s);
    s = this.step5a(s);
    s = this.step5b(s);
    return s;
  }
}

let defaultStemmer: PorterStemmer | undefined;

/** Stems `word` with NLTK's default Porter mode (`NLTK_EXTENSIONS`). */
export function porterStem(word: string): string {
  defaultStemmer ??= new PorterStemmer();
  return defaultStemmer.stem(word);
}
