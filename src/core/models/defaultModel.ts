/** Where the built-in static GloVe model lives (the vectors of the MaxSim baseline reranker, too). */
import { BUILTIN_EMBEDDERS } from './embedderSpec';
import { builtinModelDir } from './registry';

/** Folder name of the built-in static GloVe embedder under `media/models/`. */
export const STATIC_GLOVE_FOLDER = BUILTIN_EMBEDDERS['static-glove'].folder;

/**
 * Absolute path of `media/models/glove-6b-100d-50k-int8` (`static-glove`), for the dist/*.js bundles
 * and tsx runs from src/ alike (see {@link builtinModelDir}).
 */
export function staticGloveDir(): string {
  return builtinModelDir('static-glove');
}
