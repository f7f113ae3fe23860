/**
 * Reading and atomically writing ground-truth files (SPEC §3.1, §16). Reading never modifies the file.
 */
import { mkdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { SpanproofError } from '../errors';
import { writeFileAtomicAsync } from '../files';
import { errnoCode } from '../fsErrors';
import type { GroundTruthFile } from './index';
import { parseGroundTruth, serializeGroundTruth } from './schema';

/**
 * Read and validate a ground-truth file.
 * @throws SpanproofError('not-found') when the file does not exist; ('bad-input') when it is not
 *   readable UTF-8 JSON of the §3.1 shape (message names file, JSON path and fix).
 */
export async function readGroundTruth(file: string): Promise<GroundTruthFile> {
  return parseGroundTruth(await readText(file), file);
}

/**
 * Like `readGroundTruth`, also returning the file's exact text — pass it as `expectedContent` to
 * `writeGroundTruth` to refuse overwriting a concurrent change. Same errors as `readGroundTruth`.
 */
export async function readGroundTruthWithText(file: string): Promise<{ gt: GroundTruthFile; text: string }> {
  const text = await readText(file);
  return { gt: parseGroundTruth(text, file), text };
}

async function readText(file: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new SpanproofError('not-found', 'ground-truth file not found.', {
        file, fix: 'create it in the editor (Spanproof: New Question from Selection), import one with `spanproof import`, or pass --groundtruth FILE.', cause: e,
      });
    }
    throw new SpanproofError('bad-input', `cannot read the ground-truth file (${code ?? String(e)}).`, { file, fix: 'check that the path is a readable file.', cause: e });
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (e) {
    throw new SpanproofError('bad-input', 'the ground-truth file is not valid UTF-8.', { file, fix: 'save it as UTF-8.', cause: e });
  }
}

/**
 * Write `gt` to `file` atomically (src/core/files `writeFileAtomicAsync`: temp, fsync, rename, folder fsync), creating the folder
 * if needed. Keeps the existing file's indentation. Does not write when the serialised content equals
 * the file's current content.
 * @param opts.expectedContent when given, the write is refused with SpanproofError('bad-input') if the
 *   file's current content differs (someone else changed it since it was read); `null` = expect no file.
 * @returns whether the file was written.
 */
export async function writeGroundTruth(file: string, gt: GroundTruthFile, opts: { expectedContent?: string | null } = {}): Promise<boolean> {
  return writeGroundTruthText(file, (current) => serializeGroundTruth(gt, { like: current }), opts);
}

/**
 * Write the text `render(current)` computes from the file's current content (null = no file) to
 * `file` atomically (temp file in the same folder, fsync, rename), creating the folder if needed; no
 * write when it equals the current content. For text-level edits that must leave every other byte of
 * the file as it is (drafted questions are inserted and accepted this way, so hand-written questions
 * stay byte-identical). Same `expectedContent` rule and errors as `writeGroundTruth`.
 * @returns whether the file was written.
 */
export async function writeGroundTruthText(file: string, render: (current: string | null) => string, opts: { expectedContent?: string | null } = {}): Promise<boolean> {
  let current: string | null = null;
  try {
    current = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new SpanproofError('bad-input', 'cannot read the ground-truth file before writing it.', { file, cause: e });
  }
  if (opts.expectedContent !== undefined && current !== opts.expectedContent) {
    throw new SpanproofError('bad-input', 'the ground-truth file changed on disk since it was read; not overwriting it.', {
      file, fix: 'reload the file and apply the change again.',
    });
  }
  const text = render(current);
  if (text === current) return false;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomicAsync(file, text);
  } catch (e) {
    throw new SpanproofError('bad-input', `cannot write the ground-truth file (${errnoCode(e) ?? String(e)}).`, {
      file, fix: 'check that the folder is writable.', cause: e,
    });
  }
  return true;
}
