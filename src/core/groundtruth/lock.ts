/**
 * An exclusive lock around a ground-truth file's read-check-write (#16 item 7), across processes:
 * the CLI (`validate --fix`, `import`), the extension host and the worker all take it, so the
 * "unchanged since read" check and the rename happen as one step and no acknowledged edit is lost.
 *
 * The lock is a sibling file `.<name>.lock` created with `open(lock, 'wx')` (atomic create-if-absent
 * on local file systems), holding `{pid, host, at, nonce}`. While it exists nobody else writes.
 * Stale-lock recovery: a lock whose process is gone (same host, `process.kill(pid, 0)` fails with
 * ESRCH) or that is older than `staleMs` (another host, a hung process) is moved aside with an atomic
 * rename to a unique name and removed — and only if the moved file still holds the nonce that was
 * judged stale, so a fresh lock taken meanwhile by someone else is put back, not stolen.
 * A live holder is waited for (polling) up to `timeoutMs`, then the write is refused naming the holder.
 *
 * Also here: removing hidden temporary files (`.<name>.<pid>.<hex>.tmp`) that a killed write left
 * behind (#16 item 9) — done while the lock is held, so no live writer's file is touched.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, readdirSync, renameSync, statSync, unlinkSync, writeSync, openSync, closeSync } from 'node:fs';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { SpanproofError } from '../errors';
import { MAX_LOCK_FILE_BYTES, readRegularTextSync } from '../files/read';

export interface LockOptions {
  /** Longest wait for a live holder, ms (default 10 000). */
  timeoutMs?: number;
  /** A lock older than this is stale even when its holder cannot be checked (other host), ms (default 30 000). */
  staleMs?: number;
}

interface LockInfo {
  pid: number;
  host: string;
  at: string;
  nonce: string;
}

/** The lock file of `file`: `.<name>.lock` beside it. */
export function lockPathOf(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.lock`);
}

/** True when process `pid` exists on this machine (EPERM: it exists, owned by someone else). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readInfo(lock: string): LockInfo | null {
  try {
    const v = JSON.parse(readRegularTextSync(lock, MAX_LOCK_FILE_BYTES)) as Partial<LockInfo>;
    return typeof v.pid === 'number' ? { pid: v.pid, host: String(v.host ?? ''), at: String(v.at ?? ''), nonce: String(v.nonce ?? '') } : null;
  } catch {
    return null; // being written right now, damaged, or not a regular file: judged by its age
  }
}

/**
 * How far in the future a lock's time (file mtime or its `at`) may be and still be a live lock: clocks
 * of two machines sharing a folder differ by seconds, not minutes.
 */
export const LOCK_CLOCK_SKEW_MS = 60_000;

/**
 * Why the lock at `lock` is stale, or null when its holder may still be working. A lock dated in the
 * future by more than {@link LOCK_CLOCK_SKEW_MS} (year 9999: its age never grew past `staleMs`, so it
 * blocked every write forever) is stale: no live writer made it.
 */
function staleReason(lock: string, info: LockInfo | null, staleMs: number, now = Date.now()): string | null {
  let mtime: number;
  try {
    mtime = statSync(lock).mtimeMs;
  } catch {
    return null; // gone already: the next attempt takes it
  }
  if (info && info.host === hostname() && !processAlive(info.pid)) return `its process ${info.pid} is gone`;
  const at = info ? Date.parse(info.at) : NaN;
  const future = Math.max(mtime, Number.isFinite(at) ? at : -Infinity) - now;
  if (future > LOCK_CLOCK_SKEW_MS) return `it is dated ${Math.round(future / 1000)} s in the future (${new Date(Math.max(mtime, Number.isFinite(at) ? at : -Infinity)).toISOString()}), so no running writer made it`;
  const age = now - mtime;
  if (age > staleMs) return `it is ${Math.round(age / 1000)} s old`;
  return null;
}

/** Moves a stale lock aside and removes it — unless it was replaced by a fresh one meanwhile (then it is put back). */
function breakStale(lock: string, seen: LockInfo | null): void {
  const aside = `${lock}.stale.${randomBytes(4).toString('hex')}`;
  try {
    renameSync(lock, aside);
  } catch {
    return; // someone else broke it first
  }
  const now = readInfo(aside);
  if (seen && now && now.nonce !== seen.nonce) {
    try {
      linkSync(aside, lock); // a fresh lock: give it back (fails if yet another one exists)
    } catch {
      /* a newer lock is in place */
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    /* already gone */
  }
}

/** Tries once to create the lock; true when it is ours. */
function tryCreate(lock: string, info: LockInfo): boolean {
  let fd: number;
  try {
    fd = openSync(lock, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    writeSync(fd, JSON.stringify(info));
  } catch (e) {
    closeSync(fd);
    try {
      unlinkSync(lock); // an empty lock (disk full) must not block everyone until it is stale
    } catch {
      /* gone */
    }
    throw e;
  }
  closeSync(fd);
  return true;
}

const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs `fn` holding the lock of `file`; the lock is released when `fn` settles.
 * @throws SpanproofError('bad-input') naming the lock file and its holder when a live holder keeps it
 *   past `timeoutMs`; fs errors creating the lock (EACCES, EROFS, ENOSPC) as they are.
 */
export async function withFileLock<T>(file: string, fn: () => Promise<T>, o: LockOptions = {}): Promise<T> {
  const lock = lockPathOf(file);
  const timeoutMs = o.timeoutMs ?? 10_000;
  const staleMs = o.staleMs ?? 30_000;
  const info: LockInfo = { pid: process.pid, host: hostname(), at: new Date().toISOString(), nonce: randomBytes(8).toString('hex') };
  const t0 = Date.now();
  for (let wait = 5; !tryCreate(lock, info); wait = Math.min(100, wait * 2)) {
    const holder = readInfo(lock);
    if (staleReason(lock, holder, staleMs)) {
      breakStale(lock, holder);
      continue;
    }
    if (Date.now() - t0 > timeoutMs) {
      throw new SpanproofError('bad-input', `the ground-truth file is being written by another process${holder ? ` (pid ${holder.pid} on ${holder.host}, since ${holder.at})` : ''}; not written.`, {
        file, fix: `try again in a moment; if no Spanproof is running, delete ${lock}.`,
      });
    }
    await pause(wait + Math.random() * wait);
  }
  try {
    return await fn();
  } finally {
    const mine = readInfo(lock);
    if (mine?.nonce === info.nonce) {
      try {
        unlinkSync(lock);
      } catch {
        /* already gone */
      }
    }
  }
}

/**
 * Removes `.<name>.<pid>.<hex>.tmp` siblings of `file` whose process is gone (a write killed between
 * creating its temporary file and renaming it). Call with the lock held. Never throws.
 */
export function removeOrphanTemps(file: string): string[] {
  const dir = path.dirname(file);
  const prefix = `.${path.basename(file)}.`;
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const m = /^(\d+)\.[0-9a-f]+\.tmp$/.exec(name.slice(prefix.length));
    if (!m || Number(m[1]) === process.pid || processAlive(Number(m[1]))) continue;
    try {
      unlinkSync(path.join(dir, name));
      removed.push(name);
    } catch {
      /* gone, or not ours to remove */
    }
  }
  return removed;
}
