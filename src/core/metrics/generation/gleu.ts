/**
 * GLEU (Google-BLEU, Wu et al. 2016, "Google's Neural Machine Translation System", §8) exactly as
 * NLTK computes it (`nltk/translate/gleu_score.py`): all n-grams with minLen ≤ n ≤ maxLen
 * (default 1–4) of hypothesis and reference; per reference GLEU = matches / max(hyp n-grams,
 * ref n-grams) (= min(precision, recall)); the best-scoring reference is used (first on a tie);
 * corpus GLEU sums matches and denominators over sentences (not a mean of sentence scores);
 * 0 when nothing can be counted. Inputs are token arrays (case-sensitive). Scale 0–1.
 */
import { SpanproofError } from '../../errors';
import { everygramCounts, overlapCount, sumCounts } from './ngrams';

export interface GleuOptions { minLen?: number; maxLen?: number }

/** NLTK `corpus_gleu(list_of_references, hypotheses, min_len, max_len)`. */
export function nltkCorpusGleu(
  listOfReferences: readonly (readonly (readonly string[])[])[],
  hypotheses: readonly (readonly string[])[],
  options: GleuOptions = {},
): number {
  const minLen = options.minLen ?? 1;
  const maxLen = options.maxLen ?? 4;
  if (listOfReferences.length !== hypotheses.length) {
    throw new SpanproofError('bad-input', `corpus GLEU needs one reference list per hypothesis (${listOfReferences.length} vs ${hypotheses.length}).`, {
      field: 'references', fix: 'Give the same number of reference lists and hypotheses.',
    });
  }
  let corpusMatch = 0;
  let corpusAll = 0;
  for (let s = 0; s < hypotheses.length; s++) {
    const hyp = everygramCounts(hypotheses[s], minLen, maxLen);
    const tpfp = sumCounts(hyp);
    let best: [number, number] | null = null;
    for (const ref of listOfReferences[s]) {
      const rc = everygramCounts(ref, minLen, maxLen);
      const tpfn = sumCounts(rc);
      const tp = overlapCount(rc, hyp);
      const nAll = Math.max(tpfp, tpfn);
      if (nAll > 0 && (best === null || tp / nAll > best[0] / best[1])) best = [tp, nAll];
    }
    if (best) {
      corpusMatch += best[0];
      corpusAll += best[1];
    }
  }
  return corpusAll === 0 ? 0 : corpusMatch / corpusAll;
}

/** NLTK `sentence_gleu(references, hypothesis)` = `corpus_gleu([references], [hypothesis])`. */
export function nltkSentenceGleu(references: readonly (readonly string[])[] | readonly string[], hypothesis: readonly string[], options: GleuOptions = {}): number {
  // NLTK's backward compatibility: a single reference (list of strings) may be passed directly.
  const refs = (references.length === 0 || typeof references[0] === 'string' ? [references] : references) as readonly (readonly string[])[];
  return nltkCorpusGleu([refs], [hypothesis], options);
}
