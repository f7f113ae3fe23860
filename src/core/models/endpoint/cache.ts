/**
 * Disk cache of endpoint model outputs (SPEC §5.3: cached by endpoint, model and text hash), so that an
 * identical re-run sends no request. One append-only file per (endpoint, model, kind):
 * `<cacheDir>/endpoint-models/<kind>-<first 20 hex of SHA-256([endpoint, model, kind])>.f32`:
 *
 *     {"kind":"spanproof-endpoint-cache","version":1,"endpoint":…,"model":…,"output":…,"dim":D}\n
 *     record*   record = 32-byte SHA-256 key ‖ D little-endian float32
 *
 * Embeddings: key = SHA-256 of the UTF-8 text, value = the L2-normalised vector (D = its length).
 * Rerank: key = SHA-256 of (SHA-256(query) ‖ SHA-256(passage)), value = the score (D = 1).
 * Values are stored as the float32 the model interfaces return, so a cached run gives exactly the
 * numbers of the run that asked. A record cut short by a crash is dropped (the file is cut back to whole
 * records before the next append); a damaged or foreign header starts the cache afresh. Appends are
 * one write call per batch (O_APPEND).
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, truncateSync } from 'node:fs';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../../files';

const KIND = 'spanproof-endpoint-cache';
const KEY_BYTES = 32;
/** Float32Array bytes can be copied as they are (every platform Node ships for is little-endian). */
const LE = endianness() === 'LE';

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
  private headerWritten = false;
  private dimValue: number | null = null;
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
    const rec = KEY_BYTES + 4 * dim;
    const buf = Buffer.alloc(entries.length * rec);
    entries.forEach(([key, v], i) => {
      if (v.length !== dim) throw new Error(`endpoint cache: vector of ${v.length} floats for dim ${dim}`);
      key.copy(buf, i * rec);
      const copy = Float32Array.from(v);
      if (LE) Buffer.from(copy.buffer).copy(buf, i * rec + KEY_BYTES);
      else for (let j = 0; j < dim; j++) buf.writeFloatLE(v[j], i * rec + KEY_BYTES + 4 * j);
      this.map.set(key.toString('hex'), copy);
    });
    if (!this.headerWritten) {
      mkdirSync(join(this.file, '..'), { recursive: true });
      const header: Header = { kind: KIND, version: 1, endpoint: this.endpoint, model: this.model, output: this.output, dim };
      writeFileAtomic(this.file, JSON.stringify(header) + '\n');
      this.headerWritten = true;
    }
    appendFileSync(this.file, buf);
  }

  private load(): void {
    let raw: Buffer;
    try {
      raw = readFileSync(this.file);
    } catch {
      return; // absent: a new cache
    }
    const nl = raw.indexOf(0x0a);
    let h: Header | null = null;
    try {
      h = nl > 0 ? (JSON.parse(raw.subarray(0, nl).toString('utf8')) as Header) : null;
    } catch { /* damaged */ }
    const ok = h && h.kind === KIND && h.version === 1 && h.endpoint === this.endpoint && h.model === this.model && h.output === this.output && Number.isInteger(h.dim) && h.dim > 0;
    if (!ok || (this.output === 'rerank' && h!.dim !== 1)) return; // foreign or damaged: rewritten on the first append
    const dim = h!.dim;
    this.dimValue = dim;
    this.headerWritten = true;
    const rec = KEY_BYTES + 4 * dim;
    const body = raw.subarray(nl + 1);
    const whole = Math.floor(body.length / rec);
    for (let i = 0; i < whole; i++) {
      const at = i * rec;
      let v: Float32Array;
      if (LE) v = new Float32Array(new Uint8Array(body.subarray(at + KEY_BYTES, at + rec)).buffer); // copied: aligned
      else {
        v = new Float32Array(dim);
        for (let j = 0; j < dim; j++) v[j] = body.readFloatLE(at + KEY_BYTES + 4 * j);
      }
      this.map.set(body.subarray(at, at + KEY_BYTES).toString('hex'), v);
    }
    if (whole * rec !== body.length) truncateSync(this.file, nl + 1 + whole * rec); // a record cut short by a crash
  }
}
