/**
 * Generation metrics with reference-exact values (SPEC §7.3): SQuAD token F1 / EM, NLTK BLEU,
 * sacreBLEU, rouge_score ROUGE-N/L/Lsum, NLTK GLEU, NLTK METEOR (exact + stem stages; WordNet
 * synonyms only via an injected lookup), memory-eval keyword overlap, and NLTK's Porter stemmer.
 * Each function's docstring names its reference implementation and tokeniser.
 */
export * from './squad';
export * from './bleu-nltk';
export * from './bleu-sacre';
export * from './rouge';
export * from './gleu';
export * from './meteor';
export * from './keywords';
export { PorterStemmer, porterStem, type PorterMode } from './porter';
export * from './score';
