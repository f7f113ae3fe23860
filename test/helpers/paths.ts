/**
 * Paths the tests share: the repository root, its fixtures, and `../shared` beside the checkout
 * (read-only reference data and corpora; absent in a bare clone).
 */
import * as path from 'node:path';

/** The repository root. */
export const REPO = path.resolve(__dirname, '..', '..');
/** `test/fixtures`. */
export const FIXTURES = path.join(REPO, 'test', 'fixtures');
/** `../shared` beside the checkout. */
export const SHARED = path.resolve(REPO, '..', 'shared');
