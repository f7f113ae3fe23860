/** Where the embedded default model lives, for both the dist/*.js bundles and tsx runs from src/. */
import { existsSync } from 'node:fs';
import * as path from 'node:path';

/** Folder name of the embedded default static embedder under `media/models/`. */
export const DEFAULT_MODEL_NAME = 'glove-6b-100d-50k-int8';

/**
 * Absolute path of `media/models/glove-6b-100d-50k-int8`. Looks relative to this module's directory:
 * `dist/` (bundles: `dist/../media`) and `src/core/models/` (tsx: `../../../media`). Returns the first
 * candidate that exists, else the bundle location (so a "missing files" error names a sensible path).
 */
export function defaultModelDir(): string {
  const candidates = [
    path.resolve(__dirname, '..', 'media', 'models', DEFAULT_MODEL_NAME),
    path.resolve(__dirname, '..', '..', '..', 'media', 'models', DEFAULT_MODEL_NAME),
  ];
  return candidates.find((c) => existsSync(path.join(c, 'model.onnx'))) ?? candidates[0];
}
