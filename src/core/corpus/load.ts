/**
 * Loading a corpus from disk (SPEC §2): glob under a root, read each file, decode, skip with a reason.
 */
import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { glob } from 'tinyglobby';
import { DEFAULT_SETTINGS } from '../../shared/settings';
import { SpanproofError } from '../errors';
import type { CorpusDocument } from '../types';
import type { Corpus, CorpusOptions, SkippedFile } from './index';
import { decodeDocument } from './decode';

/** Files read concurrently. */
const PARALLEL_READS = 16;

/**
 * Load every file under `root` matched by `include` and not by `exclude` (globs relative to the root,
 * dot files included, symlinks followed). Sources are POSIX paths relative to the root; documents and
 * skipped files are sorted by source in UTF-8 byte order.
 *
 * Never throws for an individual file: oversize, non-UTF-8, NUL-containing and unreadable files land
 * in `skipped` with a reason. Throws `SpanproofError('not-found')` only when `root` is not a directory.
 */
export async function loadCorpus(root: string, opts: CorpusOptions = {}): Promise<Corpus> {
  const absRoot = path.resolve(root);
  const include = opts.include ?? DEFAULT_SETTINGS.include;
  const exclude = opts.exclude ?? DEFAULT_SETTINGS.exclude;
  const maxFileBytes = opts.maxFileBytes ?? DEFAULT_SETTINGS.maxFileBytes;
  let rootStat;
  try {
    rootStat = await stat(absRoot);
  } catch (e) {
    throw new SpanproofError('not-found', 'the corpus folder does not exist.', { file: root, fix: 'pass an existing folder with --workspace DIR.', cause: e });
  }
  if (!rootStat.isDirectory()) {
    throw new SpanproofError('not-found', 'the corpus root is not a folder.', { file: root, fix: 'pass a folder (not a file) with --workspace DIR.' });
  }

  const sources = (await glob(include, { cwd: absRoot, ignore: exclude, onlyFiles: true, dot: true, expandDirectories: false }))
    .map((s) => s.split(path.sep).join('/'));
  const unique = [...new Set(sources)].sort(compareSources);

  const documents: CorpusDocument[] = [];
  const skipped: SkippedFile[] = [];
  const results = new Array<CorpusDocument | SkippedFile>(unique.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < unique.length) {
      const i = next++;
      results[i] = await loadOne(absRoot, unique[i], maxFileBytes);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, unique.length) }, worker));
  for (const r of results) {
    if ('text' in r) documents.push(r);
    else skipped.push(r);
  }
  return { root: absRoot, documents, skipped };
}

async function loadOne(root: string, source: string, maxFileBytes: number): Promise<CorpusDocument | SkippedFile> {
  const file = path.join(root, ...source.split('/'));
  try {
    const st = await stat(file);
    if (st.size > maxFileBytes) {
      return { source, reason: 'too-large', detail: `${st.size} bytes > limit ${maxFileBytes} bytes (setting maxFileBytes)` };
    }
    const bytes = await readFile(file);
    if (bytes.length > maxFileBytes) {
      return { source, reason: 'too-large', detail: `${bytes.length} bytes > limit ${maxFileBytes} bytes (setting maxFileBytes)` };
    }
    return decodeDocument(source, bytes);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { source, reason: 'unreadable', detail: code ? `${code}: ${(e as Error).message}` : String(e) };
  }
}

/** Order of sources: UTF-8 byte order (= code-point order), independent of locale. */
export function compareSources(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
