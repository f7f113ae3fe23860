/** sha256 of every file under a folder, to prove a feature left the user's documents untouched. */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Relative path → sha256 hex of every file under `dir` (sorted walk). */
export function hashTree(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const p = join(rel, name);
    if (statSync(join(dir, p)).isDirectory()) Object.assign(out, hashTree(dir, p));
    else out[p] = createHash('sha256').update(readFileSync(join(dir, p))).digest('hex');
  }
  return out;
}
