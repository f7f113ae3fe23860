// The Porter stemmer (src/core/metrics/generation/porter.ts) against NLTK 3.8's own output for 19,280
// distinct English words (test/fixtures/metrics/porter/SOURCE.md), in its three modes. ROUGE
// (google rouge_score, use_stemmer) and METEOR (NLTK) reference values depend on these stems.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PorterStemmer } from '../../../../../src/core/metrics/generation';
import { REPO } from '../../../../helpers/paths';

interface Stems {
  words: string[];
  NLTK_EXTENSIONS: string[];
  MARTIN_EXTENSIONS_differences: Record<string, string>;
  ORIGINAL_ALGORITHM_differences: Record<string, string>;
}
const ref = JSON.parse(readFileSync(join(REPO, 'test/fixtures/metrics/porter/nltk-3.8-stems.json'), 'utf8')) as Stems;

for (const mode of ['NLTK_EXTENSIONS', 'MARTIN_EXTENSIONS', 'ORIGINAL_ALGORITHM'] as const) {
  test(`PorterStemmer('${mode}') gives NLTK 3.8's stem for each of ${ref.words.length} words`, () => {
    const st = new PorterStemmer(mode);
    const diff = mode === 'NLTK_EXTENSIONS' ? {} : ref[`${mode}_differences`];
    const wrong: string[] = [];
    ref.words.forEach((w, i) => {
      const want = diff[w] ?? ref.NLTK_EXTENSIONS[i];
      const got = st.stem(w);
      if (got !== want) wrong.push(`${w}: ${got} (NLTK ${want})`);
    });
    assert.deepEqual(wrong.slice(0, 20), [], `${wrong.length} of ${ref.words.length} differ`);
  });
}

// Words for the rules the corpus vocabulary never reaches (Stryker's survivors in porter.ts: the
// irregular forms innings/outings/cannings/succeed, -izer, -ization, -iveness, -fulness, -ousness,
// -fulli, -logi, -ement, -ll, two-letter words), stems printed by NLTK 3.8 (python3-nltk 3.8-1):
// PorterStemmer(mode=M).stem(w) for each word.
const EXTRA: Record<string, Record<string, string>> = {
  'NLTK_EXTENSIONS': {
    'innings': 'inning',
    'inning': 'inning',
    'outings': 'outing',
    'outing': 'outing',
    'cannings': 'canning',
    'canning': 'canning',
    'succeed': 'succeed',
    'proceed': 'proceed',
    'exceed': 'exceed',
    'troubled': 'troubl',
    'digitizer': 'digit',
    'organization': 'organ',
    'vietnamization': 'vietnam',
    'decisiveness': 'decis',
    'hopefulness': 'hope',
    'callousness': 'callous',
    'hopefully': 'hope',
    'analogy': 'analog',
    'archaeology': 'archaeolog',
    'replacement': 'replac',
    'agreement': 'agreement',
    'controlling': 'control',
    'controll': 'control',
    'hissing': 'hiss',
    'fizzed': 'fizz',
    'bb': 'bb',
    'b': 'b',
    'ab': 'ab',
    'by': 'by',
    'skies': 'sky'
  },
  'MARTIN_EXTENSIONS': {
    'innings': 'in',
    'inning': 'in',
    'outings': 'out',
    'outing': 'out',
    'cannings': 'can',
    'canning': 'can',
    'succeed': 'succe',
    'proceed': 'proce',
    'exceed': 'exce',
    'troubled': 'troubl',
    'digitizer': 'digit',
    'organization': 'organ',
    'vietnamization': 'vietnam',
    'decisiveness': 'decis',
    'hopefulness': 'hope',
    'callousness': 'callous',
    'hopefully': 'hopefulli',
    'analogy': 'analog',
    'archaeology': 'archaeolog',
    'replacement': 'replac',
    'agreement': 'agreement',
    'controlling': 'control',
    'controll': 'control',
    'hissing': 'hiss',
    'fizzed': 'fizz',
    'bb': 'bb',
    'b': 'b',
    'ab': 'ab',
    'by': 'by',
    'skies': 'ski'
  },
  'ORIGINAL_ALGORITHM': {
    'innings': 'in',
    'inning': 'in',
    'outings': 'out',
    'outing': 'out',
    'cannings': 'can',
    'canning': 'can',
    'succeed': 'succe',
    'proceed': 'proce',
    'exceed': 'exce',
    'troubled': 'troubl',
    'digitizer': 'digit',
    'organization': 'organ',
    'vietnamization': 'vietnam',
    'decisiveness': 'decis',
    'hopefulness': 'hope',
    'callousness': 'callous',
    'hopefully': 'hopefulli',
    'analogy': 'analogi',
    'archaeology': 'archaeologi',
    'replacement': 'replac',
    'agreement': 'agreement',
    'controlling': 'control',
    'controll': 'control',
    'hissing': 'hiss',
    'fizzed': 'fizz',
    'bb': 'bb',
    'b': 'b',
    'ab': 'ab',
    'by': 'by',
    'skies': 'ski'
  }
};

test('PorterStemmer gives NLTK 3.8\'s stems for the irregular forms and the rarer suffix rules, in every mode', () => {
  for (const [mode, stems] of Object.entries(EXTRA)) {
    const st = new PorterStemmer(mode as 'NLTK_EXTENSIONS');
    for (const [w, want] of Object.entries(stems)) assert.equal(st.stem(w), want, `${mode}: ${w}`);
  }
});
