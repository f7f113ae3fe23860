/**
 * Guessing which dataset a file is, from its first bytes, so that an import or score that converts
 * nothing can say which command the file is for ("this looks like a memory-eval JSON file: use
 * `spanproof score memory`"). Heuristics on field names only (SPEC §13 formats); never throws.
 */
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';

/** A guessed dataset kind and the command that reads it. */
export interface DatasetGuess {
  /** Plain-language description, e.g. "a memory-eval JSON file". */
  what: string;
  /** The Spanproof command for it, e.g. `spanproof score memory`. */
  command: string;
}

const HEAD_BYTES = 1 << 20;

function head(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(Math.min(HEAD_BYTES, statSync(file).size));
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8').replace(/^\uFEFF/, '');
  } finally {
    closeSync(fd);
  }
}

function firstObject(text: string): Record<string, unknown> | null {
  const t = text.trimStart();
  if (t.startsWith('[')) {
    try {
      const a = JSON.parse(t) as unknown;
      if (Array.isArray(a) && a[0] && typeof a[0] === 'object') return a[0] as Record<string, unknown>;
    } catch { /* a truncated head or not JSON */ }
    return null;
  }
  const line = t.split(/\r?\n/, 1)[0];
  try {
    const o = JSON.parse(line) as unknown;
    return o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Guesses the dataset kind of `input` (a file or a folder). Returns null when it cannot tell.
 * Recognises: WeKnora Parquet folders, SQuAD JSON, memory-eval JSON arrays, RAGAS JSONL (with
 * `reference_contexts` → import; with `response` only → score), Azure AI evaluation JSONL, the Chroma
 * questions CSV and the Pathway CUAD labeled TSV.
 */
export function guessDatasetFormat(input: string): DatasetGuess | null {
  try {
    const st = statSync(input);
    if (st.isDirectory()) {
      return readdirSync(input).some((f) => f.endsWith('.parquet')) ? { what: 'a WeKnora Parquet folder', command: 'spanproof import weknora' } : null;
    }
    if (!st.isFile()) return null; // a named pipe would block the read, a device never end it
    const text = head(input);
    const t = text.trimStart();
    const firstLine = t.split(/\r?\n/, 1)[0];
    if (firstLine.includes('\t') && /(^|\t)file\t/i.test(firstLine) && /-Answer/.test(firstLine)) return { what: 'a Pathway CUAD labeled TSV', command: 'spanproof import pathway-cuad --documents <contract texts folder>' };
    if (/^"?question"?,/.test(firstLine) && /corpus_id/.test(firstLine)) return { what: 'a Chroma questions CSV', command: 'spanproof import chroma' };
    if (t.startsWith('{')) {
      try {
        const o = JSON.parse(t) as { data?: Array<{ paragraphs?: unknown }> };
        if (Array.isArray(o.data) && o.data.some((d) => Array.isArray(d?.paragraphs))) return { what: 'a SQuAD JSON file', command: 'spanproof import squad' };
      } catch { /* JSON Lines, or truncated */ }
    }
    const o = firstObject(t);
    if (!o) return null;
    const has = (k: string): boolean => o[k] !== undefined && o[k] !== null;
    if (has('generated_answer') && has('reference_answer')) return { what: 'a memory-eval JSON file', command: 'spanproof score memory' };
    if (has('user_input')) {
      return has('reference_contexts')
        ? { what: 'a RAGAS dataset with reference contexts', command: 'spanproof import ragas --documents <source documents folder>' }
        : has('response')
          ? { what: 'a RAGAS dataset with generated answers', command: 'spanproof score ragas' }
          : null;
    }
    if ((has('query') && has('response')) || has('messages') || has('conversation')) return { what: 'an Azure AI evaluation dataset', command: 'spanproof score azure' };
    return null;
  } catch {
    return null;
  }
}

/**
 * The fix for an import or score that produced nothing: the command the file looks like it is for
 * when that differs from `current` (e.g. `spanproof import ragas`), else `fallback`.
 */
export function suggestCommand(input: string, current: string, fallback: string): string {
  const g = guessDatasetFormat(input);
  if (g && !g.command.startsWith(current)) return `this looks like ${g.what}: use \`${g.command} ${input}\`.`;
  return fallback;
}
