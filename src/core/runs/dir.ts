/**
 * Run directories (SPEC §10): `.spanproof/runs/<UTC timestamp>-<short hash>/` holding run.json,
 * results.json, ranking.json, questions.jsonl, timings.json, evidence.json and (with --keep-chunks)
 * chunks/<chunker>.jsonl. Every file is written with src/core/files `writeFileAtomic` (temp + fsync +
 * rename), so a killed or cancelled run never leaves a half-written file and never touches earlier runs.
 *
 * When the workspace is not writable (read-only checkout, mounted corpus) runs go to the per-user
 * cache directory instead (`$XDG_CACHE_HOME/spanproof` or `~/.cache/spanproof`, `%LOCALAPPDATA%` on
 * Windows), in a folder named after a hash of the workspace path; `location` says where and why.
 */
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync, accessSync, constants, existsSync, unlinkSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { SpanproofError } from '../errors';
import type { RunFile } from './types';
import { effectiveStatus } from './liveness';
import { makeDirs } from '../files/dirs';
import { readRegularFileSync } from '../files/read';
import { resolveWritableInside } from '../corpus/confine';

export type RunLocation = RunFile['location'];

/** The per-user cache directory for Spanproof (runs and caches of read-only workspaces). */
export function userCacheDir(): string {
  if (process.env.SPANPROOF_CACHE_DIR) return resolve(process.env.SPANPROOF_CACHE_DIR);
  if (process.platform === 'win32' && process.env.LOCALAPPDATA) return join(process.env.LOCALAPPDATA, 'spanproof');
  if (process.env.XDG_CACHE_HOME) return join(process.env.XDG_CACHE_HOME, 'spanproof');
  return join(homedir(), '.cache', 'spanproof');
}

/** True when `dir` exists (or can be created) and a file can be written in it. */
export function isWritableDir(dir: string): boolean {
  return writeProblem(dir) === null;
}

/** Why `dir` cannot be created or written (`permission denied, EACCES`), or null when it can. */
function writeProblem(dir: string): string | null {
  try {
    makeDirs(dir);
    accessSync(dir, constants.W_OK);
    const probe = join(dir, `.spanproof-probe-${process.pid}-${randomBytes(3).toString('hex')}`);
    writeFileSync(probe, '');
    unlinkSync(probe);
    return null;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    const why: Record<string, string> = { EACCES: 'permission denied', EPERM: 'operation not permitted', EROFS: 'read-only file system', ENOTDIR: 'a part of the path is a file', ENOSPC: 'disk full', ENOENT: 'no folder can be made there (a virtual file system such as /proc or /sys)' };
    return `${why[code] ?? (e as Error).message}, ${code}`;
  }
}

/** Short stable hash of a workspace path, naming its folder in the user cache dir. */
function workspaceKey(workspace: string): string {
  return createHash('sha256').update(resolve(workspace)).digest('hex').slice(0, 12);
}

/**
 * Where runs of `workspace` live: `runsRoot` when given and writable, else `<workspace>/.spanproof/runs`
 * when writable, else `<user cache>/workspaces/<hash>/runs`. Throws SpanproofError('bad-input') when an
 * explicitly given `runsRoot` is not writable, or when the default folder (`.spanproof` or
 * `.spanproof/runs`) is a symbolic link out of the workspace — a folder someone shared must not choose
 * where runs are written; nothing is created through it.
 */
export function resolveRunsRoot(workspace: string, runsRoot?: string): { root: string; location: RunLocation } {
  if (runsRoot) {
    if (isFile(runsRoot)) throw new SpanproofError('bad-input', 'the runs folder is a file, not a folder.', { file: runsRoot, fix: 'pass a folder with --runs-dir (it is created when missing), or move that file away.' });
    const problem = writeProblem(runsRoot);
    if (problem) throw new SpanproofError('bad-input', `the runs folder cannot be created or written (${problem}).`, { file: runsRoot, fix: 'pass a writable folder with --runs-dir, or change its permissions.' });
    return { root: resolve(runsRoot), location: { kind: 'out' } };
  }
  const def = workspaceDir(workspace, 'runs', '--runs-dir');
  if (isWritableDir(def)) return { root: def, location: { kind: 'workspace' } };
  const alt = join(userCacheDir(), 'workspaces', workspaceKey(workspace), 'runs');
  if (!isWritableDir(alt)) throw new SpanproofError('bad-input', `neither the workspace nor the user cache directory is writable.`, { file: alt, fix: 'pass a writable folder with --out.' });
  return { root: alt, location: { kind: 'user-cache', reason: `workspace ${resolve(workspace)} is not writable` } };
}

/**
 * `<workspace>/.spanproof/<name>` as an absolute path, refused (SpanproofError('bad-input') naming the
 * link and `flag`, the way to choose a folder elsewhere) when a link on the way leaves the workspace.
 */
function workspaceDir(workspace: string, name: 'runs' | 'cache', flag: string): string {
  return resolveWritableInside(workspace, join('.spanproof', name), `the ${name === 'runs' ? 'runs' : 'cache files'}`, 'the workspace', `, or pass a folder yourself with ${flag}.`);
}

/**
 * Cache directory for indexes/embeddings: `<workspace>/.spanproof/cache`, or the user cache dir when not
 * writable; a default folder that links out of the workspace is refused as in {@link resolveRunsRoot}.
 */
export function resolveCacheDir(workspace: string, cacheDir?: string): string {
  if (cacheDir) {
    if (isFile(cacheDir)) throw new SpanproofError('bad-input', 'the cache folder is a file, not a folder.', { file: cacheDir, fix: 'pass a folder with --cache-dir, or move that file away.' });
    const problem = writeProblem(cacheDir);
    if (problem) throw new SpanproofError('bad-input', `the cache folder cannot be created or written (${problem}).`, { file: cacheDir, fix: 'pass a writable folder with --cache-dir, or change its permissions.' });
    return resolve(cacheDir);
  }
  const def = workspaceDir(workspace, 'cache', '--cache-dir');
  const defProblem = writeProblem(def);
  if (!defProblem) return def;
  const alt = join(userCacheDir(), 'workspaces', workspaceKey(workspace), 'cache');
  const problem = writeProblem(alt);
  // a read-only workspace and no writable home (a container, a locked-down CI user) was exit 3, a bare EACCES
  if (problem) throw new SpanproofError('bad-input', `the user cache folder cannot be written (${problem}), nor can the workspace's ${def} (${defProblem}).`, { file: alt, fix: 'pass a writable folder with --cache-dir, or set XDG_CACHE_HOME (or SPANPROOF_CACHE_DIR) to one.' });
  return alt;
}

/**
 * The workspace a run directory belongs to, derived from where the run directory is — never from what
 * its run.json says (a shared or crafted run folder must not choose which files are read, #16 item 1):
 * `<W>/.spanproof/runs/<id>` → W; `<user cache>/workspaces/<hash>/runs/<id>` → `recorded` when
 * `recorded` (run.json `workspace`) hashes to that `<hash>`; anything else (a run written with `--out`
 * or `--runs-dir`) → null, and the caller must be told the workspace.
 */
export function workspaceOfRunDir(runDir: string, recorded?: string): string | null {
  const d = resolve(runDir);
  const runs = dirname(d);
  if (basename(runs) !== 'runs') return null;
  const parent = dirname(runs);
  if (basename(parent) === '.spanproof') return dirname(parent);
  if (recorded && dirname(parent) === join(userCacheDir(), 'workspaces') && basename(parent) === workspaceKey(recorded)) return resolve(recorded);
  return null;
}

/** `20261129T132345Z` for a date (UTC, second precision). */
export function utcStamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
}

/** True when `p` exists and is not a folder (a run or cache folder cannot go there). */
function isFile(p: string): boolean {
  try {
    return !statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * run.json's status as it should be shown (a `running` run whose writer on this host is gone is
 * `interrupted`, liveness.ts) and the writing pid, when the file reads as a short JSON object with a
 * string status; else undefined.
 */
function earlierStatus(file: string): { status: string; pid?: number } | undefined {
  try {
    const run = JSON.parse(readRegularFileSync(file, 1 << 20).toString('utf8')) as Partial<Pick<RunFile, 'status' | 'writer'>> | null;
    if (typeof run?.status !== 'string' || !/^[a-z]{1,20}$/.test(run.status)) return undefined;
    const pid = typeof run.writer?.pid === 'number' ? run.writer.pid : undefined;
    return { status: effectiveStatus(run as Pick<RunFile, 'status' | 'writer'>), pid };
  } catch {
    return undefined;
  }
}

/**
 * Refuses an `--out` folder that cannot hold a new run, without creating anything: a file, a folder
 * holding an earlier run (run.json — never overwritten or mixed with a new one) or any other
 * non-empty folder. A missing or empty folder passes.
 * @throws SpanproofError('bad-input') naming the folder and the fix.
 */
export function assertNewOutDir(dir: string): void {
  if (isFile(dir)) throw new SpanproofError('bad-input', 'the output path is a file, not a folder.', { file: dir, fix: 'pass a new or empty folder with --out (it is created when missing), or move that file away.' });
  // Never overwrite or mix into earlier files: an existing folder must be empty.
  let entries: string[] = [];
  try { entries = existsSync(dir) ? readdirSync(dir) : []; } catch { /* unreadable: createRunDir reports it as not writable */ }
  if (entries.includes('run.json')) {
    // A run that ended without results (cancelled, failed, or still `running`: interrupted or in progress) is named as such.
    // A run whose writer is alive on this host is still going (fresh-user #13: it was named as "ended without results").
    const earlier = earlierStatus(join(dir, 'run.json'));
    const live = earlier?.status === 'running' && earlier.pid !== undefined;
    if (live) throw new SpanproofError('bad-input', `the output folder holds a run that is still going (pid ${earlier.pid}); a run is never overwritten.`, { file: dir, fix: 'choose a new folder with --out, or wait for that run to end (or cancel it) and delete the folder if it is no longer needed.' });
    const what = earlier === undefined || earlier.status === 'succeeded' ? 'an earlier run' : `an earlier run that ended without results (run.json status ${earlier.status})`;
    throw new SpanproofError('bad-input', `the output folder holds ${what}; a run is never overwritten.`, { file: dir, fix: `choose a new folder with --out, or delete ${dir} first if that run is no longer needed.` });
  }
  if (entries.length > 0) {
    throw new SpanproofError('bad-input', 'the output folder is not empty and is not a Spanproof run directory.', { file: dir, fix: 'pass a new or empty folder with --out.' });
  }
}

/**
 * Creates a new run directory `<root>/<UTC timestamp>-<short hash>` (or exactly `outDir` when given;
 * an existing `outDir` must be an empty folder — a file, a non-empty folder or an earlier run
 * directory is refused with SpanproofError('bad-input'), so an earlier run is never overwritten or
 * mixed with a new one).
 * The short hash is the first 8 hex digits of SHA-256 over `inputsKey` and the start time, so two runs
 * never collide; a numeric suffix is added in the rare same-second case.
 */
export function createRunDir(opts: { workspace: string; runsRoot?: string; outDir?: string; inputsKey: string; now?: Date }): { id: string; dir: string; location: RunLocation } {
  const now = opts.now ?? new Date();
  if (opts.outDir) {
    const dir = resolve(opts.outDir);
    assertNewOutDir(dir);
    const problem = writeProblem(dir);
    if (problem) throw new SpanproofError('bad-input', `the output folder cannot be created or written (${problem}).`, { file: dir, fix: 'pass a writable folder with --out, or change its permissions.' });
    return { id: dir.split(/[\\/]/).pop() ?? 'run', dir, location: { kind: 'out' } };
  }
  const { root, location } = resolveRunsRoot(opts.workspace, opts.runsRoot);
  const hash = createHash('sha256').update(opts.inputsKey).update(now.toISOString()).update(String(process.hrtime.bigint())).digest('hex').slice(0, 8);
  const base = `${utcStamp(now)}-${hash}`;
  let id = base;
  for (let i = 2; existsSync(join(root, id)); i++) id = `${base}-${i}`;
  const dir = join(root, id);
  makeDirs(dir);
  return { id, dir, location };
}
