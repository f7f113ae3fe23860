/**
 * Disk cache of endpoint model outputs (SPEC §5.3: cached by endpoint, model and text hash), so that an
 * identical re-run sends no request. One append-only file per (endpoint, model, kind):
 * `<cacheDir>/endpoint-models/<kind>-<first 20 hex of SHA-256([endpoint, model, kind])>.f32`:
 *
 *     {"kind":"spanproof-endpoint-cache","version":2,"endpoint":…,"model":…,"output":…,"dim":D}\n
 *     record*   record = 32-byte SHA-256 key ‖ D little-endian float32 ‖ 8-byte check
 *
 * Embeddings: key = SHA-256 of the UTF-8 text, value = the L2-normalised vector (D = its length).
 * Rerank: key = SHA-256 of (SHA-256(query) ‖ SHA-256(passage)), value = the score (D = 1).
 * Values are stored as the float32 the model interfaces return, so a cached run gives exactly the
 * numbers of the run that asked. `check` = the first 8 bytes of SHA-256(key ‖ value bytes): a record
 * edited or damaged after it was written (a fresh user's finding: an edited value was used) is not
 * used — it is asked again, the file is rewritten without it, and {@link EndpointCache.takeNotice}
 * says so in one line. A record cut short by a crash is dropped (the file is cut back to whole
 * records before the next append); a damaged or foreign header starts the cache afresh, with a notice.
 * A version-1 file (no checks) is read and rewritten as version 2; a newer version is not used and
 * never overwritten. Appends are one write call per batch (O_APPEND).
 */
import { createHash } from 'node:crypto';
import { appendFileSync, truncateSync } from 'node:fs';
import { MAX_DATA_FILE_BYTES, readRegularFileSync } from '../../files/read';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { newerFormat, writeFileAtomic } from '../../files';
import { makeDirs } from '../../files/dirs';

const KIND = 'spanproof-endpoint-cache';
const VERSION = 2;
const KEY_BYTES = 32;
const CHECK_BYTES = 8;
/** Float32Array bytes can be copied as they are (every platform Node ships for is little-endian). */
const LE = endianness() === 'LE';

/** The check of a record: the first {@link CHECK_BYTES} bytes of SHA-256(key ‖ value bytes). */
function checkOf(keyAndValue: Uint8Array): Buffer {
  return createHash('sha256').update(keyAndValue).digest().subarray(0, CHECK_BYTES);
}

/** SHA-256 of a UTF-8 string, as 32 raw bytes. */
export function sha256Bytes(s: string | Buffer): Buffer {
  return createHash('sha256').update(s).digest();
}

interface Header {
  kind: string;
  version: number;
  endpoint: string;
  model: string;
  output: string;
  dim: number;
}

/** The cache of one (endpoint, model, output kind). */
export class EndpointCache {
  private readonly map = new Map<string, Float32Array>();
  /** The file holds this version's header and every record of {@link map}: appends may follow. */
  private headerWritten = false;
  /** A newer-format file: not used, never overwritten (the values stay in memory only). */
  private keep = false;
  private dimValue: number | null = null;
  /** One line when the file could not be used whole (damaged or edited records: asked again), else null. */
  private notice: string | null = null;
  readonly file: string;

  /**
   * Opens (reads) the cache file for `endpoint` (credentials removed) × `model` × `output`
   * (`embeddings` | `rerank`). `dim` is fixed for `rerank` (1); for embeddings it is read from the
   * file, or set by the first {@link append}.
   */
  constructor(cacheDir: string, readonly endpoint: string, readonly model: string, readonly output: 'embeddings' | 'rerank') {
    const id = createHash('sha256').update(JSON.stringify([endpoint, model, output])).digest('hex').slice(0, 20);
    this.file = join(cacheDir, 'endpoint-models', `${output}-${id}.f32`);
    if (output === 'rerank') this.dimValue = 1;
    this.load();
  }

  /** Vector length, or null while nothing is known (a new embeddings cache). */
  get dim(): number | null {
    return this.dimValue;
  }

  get size(): number {
    return this.map.size;
  }

  /** The notice (damaged or edited records, a damaged header, a newer format) once, then null. */
  takeNotice(): string | null {
    const n = this.notice;
    this.notice = null;
    return n;
  }

  get(key: Buffer): Float32Array | undefined {
    return this.map.get(key.toString('hex'));
  }

  /**
   * The distinct `inputs` (blank ones skipped when `skipBlank`) that are not cached, grouped in
   * batches of at most `batchSize`, with their keys; `onHit` is called once per distinct cached input.
   */
  missing(inputs: readonly string[], keyOf: (input: string) => Buffer, batchSize: number, onHit: () => void, skipBlank = false): { batches: string[][]; keys: Map<string, Buffer> } {
    const keys = new Map<string, Buffer>();
    const seen = new Set<string>();
    for (const t of inputs) {
      if ((skipBlank && t.trim() === '') || seen.has(t)) continue;
      seen.add(t);
      const key = keyOf(t);
      if (this.get(key)) onHit();
      else keys.set(t, key);
    }
    const todo = [...keys.keys()];
    const batches: string[][] = [];
    for (let i = 0; i < todo.length; i += batchSize) batches.push(todo.slice(i, i + batchSize));
    return { batches, keys };
  }

  /**
   * Adds entries (key → vector of length dim) in memory and appends them to the file in one write.
   * Throws the file system's error (ENOSPC, EACCES) when the cache cannot be written.
   */
  append(entries: ReadonlyArray<readonly [Buffer, Float32Array]>): void {
    if (entries.length === 0) return;
    const dim = this.dimValue ?? entries[0][1].length;
    this.dimValue = dim;
    const fresh: Array<[string, Float32Array]> = entries.map(([key, v]) => {
      if (v.length !== dim) throw new Error(`endpoint cache: vector of ${v.length} floats for dim ${dim}`);
      return [key.toString('hex'), Float32Array.from(v)];
    });
    for (const [k, v] of fresh) this.map.set(k, v);
    if (this.keep) return;
    if (!this.headerWritten) {
      this.writeWhole(); // a new file, an upgrade from version 1, or one without its bad records
      return;
    }
    appendFileSync(this.file, this.records(fresh, dim));
  }

  /** `entries` as records of `dim` floats, each with its check. */
  private records(entries: ReadonlyArray<readonly [string, Float32Array]>, dim: number): Buffer {
    const rec = KEY_BYTES + 4 * dim + CHECK_BYTES;
    const buf = Buffer.alloc(entries.length * rec);
    entries.forEach(([hex, v], i) => {
      const at = i * rec;
      buf.write(hex, at, KEY_BYTES, 'hex');
      if (LE) Buffer.from(v.buffer, v.byteOffset, v.byteLength).copy(buf, at + KEY_BYTES);
      else for (let j = 0; j < dim; j++) buf.writeFloatLE(v[j], at + KEY_BYTES + 4 * j);
      checkOf(buf.subarray(at, at + KEY_BYTES + 4 * dim)).copy(buf, at + KEY_BYTES + 4 * dim);
    });
    return buf;
  }

  /** Writes the header and every record in memory atomically. Throws the file system's error. */
  private writeWhole(): void {
    const dim = this.dimValue!;
    makeDirs(join(this.file, '..'));
    const header: Header = { kind: KIND, version: VERSION, endpoint: this.endpoint, model: this.model, output: this.output, dim };
    writeFileAtomic(this.file, Buffer.concat([Buffer.from(JSON.stringify(header) + '\n'), this.records([...this.map], dim)]));
    this.headerWritten = true;
  }

  private load(): void {
    let raw: Buffer;
    try {
      raw = readRegularFileSync(this.file, MAX_DATA_FILE_BYTES);
    } catch {
      return; // absent: a new cache
    }
    const nl = raw.indexOf(0x0a);
    let h: Header | null = null;
    try {
      h = nl > 0 ? (JSON.parse(raw.subarray(0, nl).toString('utf8')) as Header) : null;
    } catch { /* damaged */ }
    const newer = h && h.kind === KIND ? newerFormat(h, VERSION, 'version') : null;
    if (newer !== null) {
      this.keep = true;
      this.notice = `the endpoint cache ${this.file} was written by a newer Spanproof (format ${newer}); not used and left as it is — update Spanproof to use it.`;
      return;
    }
    const ok = h && h.kind === KIND && (h.version === 1 || h.version === VERSION) && h.endpoint === this.endpoint && h.model === this.model && h.output === this.output && Number.isInteger(h.dim) && h.dim > 0;
    if (!ok || (this.output === 'rerank' && h!.dim !== 1)) {
      // foreign or damaged: rewritten on the first append
      if (raw.length > 0) this.notice = `the endpoint cache ${this.file} was damaged (its header is not this cache's); it is rebuilt, so its values are asked again.`;
      return;
    }
    const dim = h!.dim;
    this.dimValue = dim;
    const checked = h!.version === VERSION;
    const value = 4 * dim;
    const rec = KEY_BYTES + value + (checked ? CHECK_BYTES : 0);
    const body = raw.subarray(nl + 1);
    const whole = Math.floor(body.length / rec);
    let bad = 0;
    for (let i = 0; i < whole; i++) {
      const at = i * rec;
      if (checked && !checkOf(body.subarray(at, at + KEY_BYTES + value)).equals(body.subarray(at + KEY_BYTES + value, at + rec))) {
        bad++;
        continue;
      }
      let v: Float32Array;
      if (LE) v = new Float32Array(new Uint8Array(body.subarray(at + KEY_BYTES, at + KEY_BYTES + value)).buffer); // copied: aligned
      else {
        v = new Float32Array(dim);
        for (let j = 0; j < dim; j++) v[j] = body.readFloatLE(at + KEY_BYTES + 4 * j);
      }
      this.map.set(body.subarray(at, at + KEY_BYTES).toString('hex'), v);
    }
    if (bad) this.notice = `the endpoint cache ${this.file} was edited or damaged (${bad} of its ${whole} values do not match their checksum — changed after Spanproof wrote them); those are asked again.`;
    if (checked && !bad) {
      this.headerWritten = true;
      if (whole * rec !== body.length) truncateSync(this.file, nl + 1 + whole * rec); // a record cut short by a crash
      return;
    }
    // version 1 (no checks), or bad records: rewrite the file whole now (else on the first append)
    try {
      this.writeWhole();
    } catch { /* read-only: the first append tries again */ }
  }
}
