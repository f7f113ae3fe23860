/**
 * Loading a corpus from disk (SPEC §2): glob under a root, read each file, decode, skip with a reason.
 */
import { realpath as realpathCb, realpathSync, stat as statCb } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import picomatch from 'picomatch';
import { glob } from 'tinyglobby';
import { globMatcher, walkExcludes } from './glob';
import { DEFAULT_SETTINGS } from '../settings';
import { SpanproofError } from '../errors';
import type { CorpusDocument } from '../types';
import type { Corpus, CorpusOptions, SkippedFile } from './index';
import { decodeDocument } from './decode';
import { isInside } from './confine';
import { FileRefusedError, readRegularFile } from '../files/read';

/** Files read concurrently. */
const PARALLEL_READS = 16;

/**
 * Load every file under `root` matched by `include` and not by `exclude` (globs relative to the root,
 * dot files included). Sources are POSIX paths relative to the root; documents and skipped files are
 * sorted by source in UTF-8 byte order.
 *
 * Symbolic links: a link whose real path stays inside the corpus root (compared after resolving the
 * root's own real path) is followed — a linked file is loaded under the link's path, a linked folder is
 * walked under the link's path (so its files may appear under two sources, as they would in the
 * workspace). A link whose real path leaves the root is never read nor walked: it is reported as
 * skipped `outside-root` (e.g. `passwd.txt -> /etc/passwd`, `up -> ..`). A link to a folder that is
 * already an ancestor on the walked path (e.g. `sub/back -> ..` or `self -> .`) is skipped as
 * `symlink-loop` and not walked. A dangling link is skipped as `unreadable`. Linked folders are
 * reported only when the exclude globs do not exclude them; linked files only when the globs match them.
 *
 * Never throws for an individual file: oversize, non-UTF-8, NUL-containing, unreadable and out-of-root
 * files land in `skipped` with a reason. Throws `SpanproofError('not-found')` only when `root` is not a
 * directory.
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

  const realRoot = await realpath(absRoot);
  const linkSkips = new Map<string, SkippedFile>();
  const included = globMatcher(include);
  const excluded = globMatcher(exclude);
  const guard = symlinkGuard(absRoot, included, excluded, realRoot, (s) => linkSkips.set(s.source, s));
  // tinyglobby compiles its patterns with picomatch into one regex each, exponential for some globs
  // (#16 N2): it walks the include globs' literal folders and prunes with the excludes that are
  // cheap for a regex; the globs themselves are applied by globMatcher (./glob.ts).
  const sources = (await glob(walkRoots(include), {
    cwd: absRoot, ignore: walkExcludes(exclude), onlyFiles: true, dot: true, expandDirectories: false,
    // tinyglobby (fdir) calls `realpath` for every symlink before following it; the guard refuses the
    // ones that leave the root or loop, so they are neither read nor walked.
    fs: { realpath: guard as unknown as typeof realpathCb },
  })).map((s) => s.split(path.sep).join('/'));
  const unique = [...new Set(sources)].filter((s) => included(s) && !excluded(s)).sort(compareSources);

  const documents: CorpusDocument[] = [];
  const skipped: SkippedFile[] = [...linkSkips.values()].filter((s) => !unique.includes(s.source));
  const results = new Array<CorpusDocument | SkippedFile>(unique.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < unique.length) {
      const i = next++;
      results[i] = await loadOne(absRoot, realRoot, unique[i], maxFileBytes);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, unique.length) }, worker));
  for (const r of results) {
    if ('text' in r) documents.push(r);
    else skipped.push(r);
  }
  skipped.sort((a, b) => compareSources(a.source, b.source));
  return { root: absRoot, documents, skipped };
}

async function loadOne(root: string, realRoot: string, source: string, maxFileBytes: number): Promise<CorpusDocument | SkippedFile> {
  const file = path.join(root, ...source.split('/'));
  try {
    // Second line of defence (a link may have changed since the walk): never read outside the root.
    const real = await realpath(file);
    if (!isInside(realRoot, real)) return { source, reason: 'outside-root', detail: `links to ${real}, outside the corpus root` };
    const bytes = await readRegularFile(file, maxFileBytes);
    return decodeDocument(source, bytes);
  } catch (e) {
    return readSkip(source, e);
  }
}

/**
 * The skip of a document the reader (src/core/files/read.ts) refused or could not open: `too-large`
 * over `maxFileBytes`, `unreadable` for a named pipe, a device (a link to /dev/zero), a socket or an
 * fs error — never read, so a FIFO cannot hang the load nor a device fill the memory (#16 N1).
 */
export function readSkip(source: string, e: unknown): SkippedFile {
  if (e instanceof FileRefusedError) {
    const r = e.refusal;
    if ('kind' in r) return { source, reason: 'unreadable', detail: `${r.kind}, not a regular file; not read` };
    return { source, reason: 'too-large', detail: `${r.atLeast ? 'more than ' : ''}${r.size} bytes > limit ${r.maxBytes} bytes (setting maxFileBytes)` };
  }
  const code = (e as NodeJS.ErrnoException).code;
  return { source, reason: 'unreadable', detail: code ? `${code}: ${(e as Error).message}` : String(e) };
}

/** Order of sources: UTF-8 byte order (= code-point order), independent of locale. */
export function compareSources(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

// The patterns tinyglobby walks for `include`: each glob's literal folder + `/**` (`docs/**` for
// `docs/**/*.md`, `**` for `**/*.md` or `{a,b}/*.md`), a glob without wildcards as it is.
function walkRoots(include: readonly string[]): string[] {
  const roots = new Set<string>();
  for (const pattern of include) {
    const { base, isGlob } = picomatch.scan(pattern);
    roots.add(!isGlob ? pattern : base && !base.includes('\\') ? `${base}/**` : '**');
  }
  return roots.has('**') ? ['**'] : [...roots];
}

type RealpathCallback = (err: NodeJS.ErrnoException | null, resolved: string) => void;

/**
 * A `realpath` for tinyglobby's `fs` option that refuses (with an error, which fdir treats as "drop this
 * entry") every symlink whose real path is outside `realRoot` or is a folder already on the walked path,
 * and reports each refused or dangling link through `report` when the globs would have cared about it.
 */
function symlinkGuard(absRoot: string, included: (s: string) => boolean, excluded: (s: string) => boolean, realRoot: string, report: (s: SkippedFile) => void) {
  const refuse = (cb: RealpathCallback, message: string): void => {
    cb(Object.assign(new Error(message), { code: 'ESPANPROOF' }), '');
  };
  return (p: string, cb: RealpathCallback): void => {
    const source = path.relative(absRoot, p).split(path.sep).join('/');
    const wanted = (isDir: boolean): boolean => (isDir ? !excluded(source + '/') : included(source) && !excluded(source));
    realpathCb(p, (err, real) => {
      if (err) {
        if (wanted(false)) report({ source, reason: 'unreadable', detail: `broken symbolic link (${err.code ?? err.message})` });
        cb(err, '');
        return;
      }
      statCb(real, (serr, st) => {
        const isDir = !serr && st.isDirectory();
        if (!isInside(realRoot, real)) {
          if (wanted(isDir)) report({ source, reason: 'outside-root', detail: `symbolic link to ${real}, outside the corpus root` });
          refuse(cb, 'outside the corpus root');
          return;
        }
        if (isDir && onWalkedPath(absRoot, realRoot, p, real)) {
          if (wanted(true)) report({ source, reason: 'symlink-loop', detail: `symbolic link to ${path.relative(realRoot, real).split(path.sep).join('/') || '.'}, a folder that contains it` });
          refuse(cb, 'symbolic link loop');
          return;
        }
        cb(null, real);
      });
    });
  };
}

/** True when `real` is the real path of the corpus root or of a folder on the logical path to link `p`. */
function onWalkedPath(absRoot: string, realRoot: string, p: string, real: string): boolean {
  if (real === realRoot) return true;
  for (let dir = path.dirname(p); dir.length > absRoot.length && isInside(absRoot, dir); dir = path.dirname(dir)) {
    let r: string;
    try {
      r = realpathSync(dir);
    } catch {
      return true; // cannot tell: refuse rather than risk walking forever
    }
    if (r === real) return true;
  }
  return false;
}
