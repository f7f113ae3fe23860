/**
 * The per-user model folder and `spanproof models list | pull | remove` (SPEC §5.3 "Download
 * catalogue"). Layout under {@link modelStoreDir}:
 *
 *     <name>/                      a pulled model: the entry's files at their repository paths, plus
 *       spanproof-model.json       {name, kind, repo, revision, files: [{path, sha256, size}], pulledAt}
 *     .partial/<name>@<revision>/  an unfinished pull: verified files and `<file>.part` bytes to resume
 *
 * A pull downloads into `.partial/…`, verifies every file's size and SHA-256, writes the manifest,
 * and only then renames the folder to `<name>/` — so a model folder is either complete and verified
 * or absent; a failed pull never leaves half a model where the loaders look. A network failure,
 * timeout or cancel keeps the `.part` bytes for the next pull (HTTP Range); a hash or size mismatch,
 * a 404 or a full disk deletes the partial download.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync, statfsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SpanproofError } from '../../errors';
import { userCacheDir } from '../../runs/dir';
import { writeFileAtomic } from '../../files';
import { type CatalogueEntry, entryBytes, findCatalogueEntry, missingPins, CATALOGUE } from './entries';
import { DownloadFailure, downloadDispatcher, downloadFile, redactUrl, type ProxyEnv } from './download';
import { makeDirs } from '../../files/dirs';

/** The hub base URL: `HF_ENDPOINT` (as the Hugging Face tools read it, e.g. a mirror) or https://huggingface.co. */
export function hubUrl(env: NodeJS.ProcessEnv = process.env): string {
  return (env.HF_ENDPOINT || 'https://huggingface.co').replace(/\/+$/, '');
}

/** The per-user model folder: `SPANPROOF_MODELS_DIR`, else `<user cache dir>/models` (XDG_CACHE_HOME, LOCALAPPDATA, ~/.cache). */
export function modelStoreDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.SPANPROOF_MODELS_DIR ? resolve(env.SPANPROOF_MODELS_DIR) : join(userCacheDir(), 'models');
}

const MANIFEST = 'spanproof-model.json';

export interface PulledManifest {
  name: string;
  kind: CatalogueEntry['kind'];
  repo: string;
  revision: string;
  files: Array<{ path: string; sha256: string; size: number }>;
  pulledAt: string;
}

export type ModelState =
  | { state: 'pulled'; dir: string; manifest: PulledManifest; current: boolean }
  | { state: 'partial'; bytes: number }
  | { state: 'absent' };

/** The folder a pulled catalogue model lives in (whether or not it is there). */
export function pulledModelDir(name: string, store = modelStoreDir()): string {
  return join(store, name);
}

function partialDir(e: CatalogueEntry, store: string): string {
  return join(store, '.partial', `${e.name}@${e.revision}`);
}

function readManifest(dir: string): PulledManifest | null {
  try {
    const m = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as PulledManifest;
    return typeof m.revision === 'string' && Array.isArray(m.files) ? m : null;
  } catch {
    return null;
  }
}

function bytesUnder(dir: string): number {
  let n = 0;
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const p = join(dir, name);
    const st = statSync(p);
    n += st.isDirectory() ? bytesUnder(p) : st.size;
  }
  return n;
}

/** Whether `e` is pulled (and at the pinned revision: `current`), partly downloaded, or absent. */
export function modelState(e: CatalogueEntry, store = modelStoreDir()): ModelState {
  const dir = pulledModelDir(e.name, store);
  const manifest = readManifest(dir);
  if (manifest) return { state: 'pulled', dir, manifest, current: manifest.revision === e.revision };
  if (e.revision && existsSync(partialDir(e, store))) return { state: 'partial', bytes: bytesUnder(partialDir(e, store)) };
  return { state: 'absent' };
}

/**
 * The folder of the pulled catalogue model `name`, for the model loaders.
 * @throws SpanproofError('not-found') naming the pull command when it is not pulled.
 */
export function resolvePulledModel(name: string, store = modelStoreDir(), catalogue: readonly CatalogueEntry[] = CATALOGUE): string {
  const e = findCatalogueEntry(name, catalogue);
  const dir = pulledModelDir(e?.name ?? name, store);
  if (!e || !readManifest(dir)) {
    throw new SpanproofError('not-found', `the catalogue model "${name}" is not downloaded.`, { file: dir, fix: `run: spanproof models pull ${e?.name ?? name}   (spanproof models list shows the catalogue and the download size).` });
  }
  return dir;
}

export interface PullProgress {
  file: string;
  /** Bytes of all files on disk so far. */
  doneBytes: number;
  totalBytes: number;
}

export interface PullOptions {
  store?: string;
  /** Hub base URL (default {@link hubUrl}). */
  hub?: string;
  /** Proxy variables (default process.env). */
  proxyEnv?: ProxyEnv;
  /** Longest wait for headers or between two body chunks, ms (default 60 000). */
  idleTimeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (p: PullProgress) => void;
}

function pullError(e: CatalogueEntry, f: DownloadFailure, store: string): SpanproofError {
  const again = `spanproof models pull ${e.name}`;
  const fixes: Record<DownloadFailure['kind'], string> = {
    'not-found': `the pinned revision ${e.revision} may have been removed from ${e.repo}; update Spanproof (a newer catalogue pins a current revision) or use a model folder.`,
    refused: 'the repository asks for a login or an accepted licence; download it yourself and set the model folder instead.',
    http: `try again later: ${again}.`,
    network: `check the network or the proxy (HTTPS_PROXY, HTTP_PROXY, NO_PROXY), then run ${again} again — it resumes where it stopped.`,
    timeout: `run ${again} again — it resumes where it stopped.`,
    hash: `the download was corrupted or the hub's file is not the pinned one; run ${again} again (the bad file was deleted). If it fails again, report it.`,
    size: `the download was cut short or is not the pinned file; run ${again} again (the bad file was deleted).`,
    disk: `free at least ${mb(entryBytes(e))} under ${store} (or set SPANPROOF_MODELS_DIR to a disk with room), then run ${again} again. The partial download was deleted.`,
    cancelled: `run ${again} again to resume.`,
  };
  if (f.kind === 'cancelled') return new SpanproofError('cancelled', `pull of ${e.name} cancelled; what was downloaded is kept for the next pull.`, { fix: fixes.cancelled });
  return new SpanproofError('model', `pull of ${e.name} failed: ${f.message}.`, { file: store, fix: fixes[f.kind] });
}

/** `n` bytes for people, in the hub's decimal units: `52 bytes`, `711.4 kB`, `133.1 MB`, `1.1 GB`. */
export function mb(n: number): string {
  if (n < 1e3) return `${n} bytes`;
  if (n < 1e6) return `${(n / 1e3).toFixed(1)} kB`;
  if (n < 1e9) return `${(n / 1e6).toFixed(1)} MB`;
  return `${(n / 1e9).toFixed(2)} GB`;
}

/**
 * Downloads catalogue entry `e` into the model store (see the module comment) and returns its folder.
 * A model already pulled at the pinned revision is not downloaded again.
 * @throws SpanproofError('model') when the entry lacks a pin (naming which), another pull of it is
 *   running, the disk lacks room, or the download fails (naming the file, the cause and what to do);
 *   SpanproofError('cancelled') when `signal` aborts (the downloaded bytes are kept).
 */
export async function pullModel(e: CatalogueEntry, o: PullOptions = {}): Promise<string> {
  const store = o.store ?? modelStoreDir();
  const missing = missingPins(e);
  if (missing.length > 0) {
    throw new SpanproofError('model', `the catalogue entry ${e.name} cannot be pulled: its ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not pinned (they could not be verified when this catalogue was made, and Spanproof never downloads unverified files).`, {
      fix: `export ${e.repo} yourself (optimum-cli export onnx) and set it as a model folder, or use an endpoint model; see docs/models.md "Model catalogue".`,
    });
  }
  const st = modelState(e, store);
  if (st.state === 'pulled' && st.current) return st.dir;
  const work = partialDir(e, store);
  makeDirs(work);
  const lock = takeLock(work, e);
  const dispatcher = downloadDispatcher(o.proxyEnv ?? process.env, o.idleTimeoutMs ?? 60000);
  try {
    checkRoom(e, store, work);
    const total = entryBytes(e);
    let before = 0;
    for (const f of e.files) {
      const dest = join(work, ...(f.saveAs ?? f.path).split('/'));
      makeDirs(dirname(dest));
      if (!existsSync(dest)) {
        const url = `${o.hub ?? hubUrl()}/${e.repo}/resolve/${e.revision}/${f.path.split('/').map(encodeURIComponent).join('/')}`;
        const at = before;
        try {
          await downloadFile({ url, dest, sha256: f.sha256!, size: f.size!, dispatcher, signal: o.signal, onBytes: (b) => o.onProgress?.({ file: f.path, doneBytes: at + b, totalBytes: total }) });
        } catch (err) {
          if (!(err instanceof DownloadFailure)) throw err;
          if (!err.resumable) rmSync(work, { recursive: true, force: true });
          throw pullError(e, err, store);
        }
      }
      before += f.size!;
      o.onProgress?.({ file: f.path, doneBytes: before, totalBytes: total });
    }
    const manifest: PulledManifest = { name: e.name, kind: e.kind, repo: e.repo, revision: e.revision!, files: e.files.map((f) => ({ path: f.saveAs ?? f.path, sha256: f.sha256!, size: f.size! })), pulledAt: new Date().toISOString() };
    writeFileAtomic(join(work, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
    return install(work, pulledModelDir(e.name, store));
  } finally {
    rmSync(lock, { force: true });
    await dispatcher.close().catch(() => {});
  }
}

/** Renames the verified folder into place, replacing an older pull of the same name. */
function install(work: string, dir: string): string {
  rmSync(join(work, '.lock'), { force: true });
  if (existsSync(dir)) {
    const old = `${dir}.old-${randomBytes(4).toString('hex')}`;
    renameSync(dir, old);
    renameSync(work, dir);
    rmSync(old, { recursive: true, force: true });
  } else renameSync(work, dir);
  return dir;
}

/** Refuses a second pull of the same entry while one is running (a lock file holding the pid). */
function takeLock(work: string, e: CatalogueEntry): string {
  const lock = join(work, '.lock');
  try {
    const pid = Number(readFileSync(lock, 'utf8'));
    if (pid && pid !== process.pid && alive(pid)) {
      throw new SpanproofError('model', `another pull of ${e.name} is running (process ${pid}).`, { fix: 'wait for it to finish, or stop it and run the pull again (it resumes).' });
    }
  } catch (err) {
    if ((err as SpanproofError).name === 'SpanproofError') throw err;
  }
  writeFileSync(lock, String(process.pid));
  return lock;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Refuses before downloading when the store's file system has less free space than still to fetch. */
function checkRoom(e: CatalogueEntry, store: string, work: string): void {
  const need = entryBytes(e) - bytesUnder(work);
  let free: number;
  try {
    const s = statfsSync(work);
    free = Number(s.bavail) * Number(s.bsize);
  } catch {
    return; // unknown: the write itself will say ENOSPC
  }
  if (free < need) {
    rmSync(work, { recursive: true, force: true });
    throw new SpanproofError('model', `pull of ${e.name} needs ${mb(need)} but only ${mb(free)} is free under ${store}.`, { file: store, fix: `free space there or set SPANPROOF_MODELS_DIR to a disk with room, then run spanproof models pull ${e.name}.` });
  }
}

/**
 * Deletes the pulled model `name` and any partial download of it. Returns what was removed (bytes);
 * throws SpanproofError('not-found') when there is nothing of that name.
 */
export function removeModel(name: string, store = modelStoreDir(), catalogue: readonly CatalogueEntry[] = CATALOGUE): { dir: string; bytes: number } {
  const e = findCatalogueEntry(name, catalogue);
  const realName = e?.name ?? name;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(realName)) throw new SpanproofError('bad-input', `"${name}" is not a model name.`, { fix: 'pass a name from spanproof models list.' });
  const dir = pulledModelDir(realName, store);
  const partials = existsSync(join(store, '.partial')) ? readdirSync(join(store, '.partial')).filter((p) => p.startsWith(`${realName}@`)).map((p) => join(store, '.partial', p)) : [];
  if (!existsSync(dir) && partials.length === 0) {
    throw new SpanproofError('not-found', `no downloaded model "${name}".`, { file: store, fix: 'spanproof models list shows what is downloaded.' });
  }
  const bytes = bytesUnder(dir) + partials.reduce((s, p) => s + bytesUnder(p), 0);
  for (const p of [dir, ...partials]) rmSync(p, { recursive: true, force: true });
  return { dir, bytes };
}

export { redactUrl };
