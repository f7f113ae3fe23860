/**
 * The binary frame of the embedding cache files (./embeddings.ts entries, ./embedding-pack.ts packs):
 * an 8-byte ASCII magic, a uint32 (little-endian) header length H, H bytes of UTF-8 JSON header
 * space-padded so that the data after it starts at a multiple of 4, then the float32 data.
 */
import { createHash } from 'node:crypto';
import { sha256Hex } from '../corpus/decode';

/** SHA-256 over the chunk texts, each followed by U+0000. */
export function textsSha(texts: readonly string[]): string {
  const h = createHash('sha256');
  for (const t of texts) h.update(t, 'utf8').update('\0');
  return h.digest('hex');
}

/** A filesystem-safe folder name for an id: readable prefix + 12 hex of its SHA-256. */
export function slugOf(id: string): string {
  return `${id.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 48)}-${sha256Hex(id).slice(0, 12)}`;
}

/** The file bytes: `magic` (8 ASCII characters), the header as JSON, then `data` in order. */
export function encodeFramed(magic: string, header: unknown, data: readonly Float32Array[]): Buffer {
  let json = Buffer.from(JSON.stringify(header), 'utf8');
  const pad = (4 - ((12 + json.length) % 4)) % 4;
  if (pad) json = Buffer.concat([json, Buffer.from(' '.repeat(pad))]);
  const head = Buffer.alloc(12);
  head.write(magic, 0, 'latin1');
  head.writeUInt32LE(json.length, 8);
  return Buffer.concat([head, json, ...data.map((d) => Buffer.from(d.buffer, d.byteOffset, d.byteLength))]);
}

/**
 * The parsed header and the offset where the data starts, or why `buf` is not a frame with this
 * `magic` ('not a …' is the caller's to word: `null` for another magic).
 */
export function decodeFramed(buf: Buffer, magic: string): { header: unknown; dataStart: number } | null | string {
  if (buf.length < 12 || buf.toString('latin1', 0, 8) !== magic) return null;
  const dataStart = 12 + buf.readUInt32LE(8);
  if (dataStart > buf.length || dataStart % 4 !== 0) return 'its header is cut short';
  try {
    return { header: JSON.parse(buf.toString('utf8', 12, dataStart)) as unknown, dataStart };
  } catch {
    return 'its header is not valid JSON';
  }
}
