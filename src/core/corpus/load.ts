import type { Corpus, CorpusOptions } from './index';

export async function loadCorpus(root: string, opts: CorpusOptions = {}): Promise<Corpus> {
  void root; void opts;
  throw new Error('not implemented');
}
