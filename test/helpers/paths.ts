/**
 * Paths the tests share: the repository root, its fixtures, and `../shared` beside the checkout
 * (read-only reference data and corpora; absent in a bare clone).
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';

/** The repository root. */
export const REPO = path.resolve(__dirname, '..', '..');
/** `test/fixtures`. */
export const FIXTURES = path.join(REPO, 'test', 'fixtures');
/** `../shared` beside the checkout (absent on a clean clone, as in CI — prefer {@link SHARED_DATA}). */
export const SHARED = path.resolve(REPO, '..', 'shared');
/**
 * `test/fixtures/shared-data`: byte-for-byte copies of the `../shared/data` files the tests read
 * (sources and licences in its SOURCE.md), so those tests run on a clean clone too (#16 item 24).
 */
export const SHARED_DATA = path.join(FIXTURES, 'shared-data');

/**
 * For a test that can only run with `../shared/<rel>` (prefer copying the data into
 * {@link SHARED_DATA}): returns the path when present; when absent, skips the test — or throws,
 * saying why, when `CI` is set, so a CI run never goes green without it (#16 item 24).
 */
export function requireShared(t: { name: string; skip(msg: string): void }, rel: string): string | null {
  const p = path.join(SHARED, rel);
  if (existsSync(p)) return p;
  const why = `needs ../shared/${rel}, which is absent`;
  if (process.env.CI) throw new Error(`"${t.name}" ${why} — in CI every test must run: copy the data into test/fixtures/shared-data (SOURCE.md) instead`);
  t.skip(why);
  return null;
}
