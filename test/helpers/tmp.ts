/**
 * Temporary folders for the unit tests. Every folder made here is removed again, so `npm test` leaves
 * nothing behind in os.tmpdir() (before this helper each run leaked ~40 `spanproof-*` folders, hundreds
 * on CI and developer machines).
 *
 * When: with a node:test context `t`, when that test ends (`t.after`); always — as a safety net, and
 * for helpers that have no `t` — when the test file's process exits (`node --test` runs each file in its
 * own process, so that is right after the file's last test).
 *
 * Debugging: `SPANPROOF_KEEP_TMP=1 node scripts/test.mjs grid` keeps the folders and prints each path
 * on stderr.
 */
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const KEEP = process.env.SPANPROOF_KEEP_TMP === '1';
const pending = new Set<string>();
let hooked = false;

/** Removes `dir` and everything in it; folders a test made read-only are made writable first. Never throws. */
export function removeTempDir(dir: string): void {
  pending.delete(dir);
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    try {
      makeWritable(dir);
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // A leftover in the temp folder is not worth failing a test for.
    }
  }
}

function makeWritable(p: string): void {
  const st = lstatSync(p);
  if (!st.isDirectory()) return;
  chmodSync(p, 0o700);
  for (const name of readdirSync(p)) makeWritable(join(p, name));
}

/**
 * A fresh empty folder `os.tmpdir()/<prefix>XXXXXX` (mkdtemp), removed when the test `t` ends or, without
 * `t`, when the test process exits — unless SPANPROOF_KEEP_TMP=1.
 */
export function tempDir(prefix: string, t?: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (KEEP) {
    process.stderr.write(`SPANPROOF_KEEP_TMP: kept ${dir}\n`);
    return dir;
  }
  pending.add(dir);
  if (!hooked) {
    hooked = true;
    process.on('exit', () => {
      for (const d of [...pending]) removeTempDir(d);
    });
  }
  t?.after(() => removeTempDir(dir));
  return dir;
}
