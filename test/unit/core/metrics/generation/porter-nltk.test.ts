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
