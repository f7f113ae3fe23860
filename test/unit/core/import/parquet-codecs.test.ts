/**
 * #16 item 21: Parquet files compressed with ZSTD (Polars' default), GZIP or Brotli import like the
 * SNAPPY ones (hyparquet decodes only SNAPPY/UNCOMPRESSED by itself; hyparquet-compressors adds the
 * rest). The files are made here from the WeKnora sample (test/fixtures/interop/weknora, MIT): every
 * table read back and re-written with hyparquet-writer in each codec — GZIP with node:zlib gzip,
 * Brotli with node:zlib brotli (both real compression); ZSTD frames are written as RFC 8878 frames of
 * raw blocks (valid ZSTD that any decoder reads, but not compressed: Node 20 has no ZSTD compressor).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { runImport } from '../../../../src/core/import';
import { FIXTURES } from '../../../helpers/paths';
import { tempDir } from '../../../helpers/tmp';

const WEKNORA = join(FIXTURES, 'interop', 'weknora');

/** A ZSTD frame (RFC 8878 §3.1.1) holding `data` in raw blocks: magic, single-segment header with an 8-byte content size, blocks ≤ 128 KiB. */
function zstdRawFrame(data: Uint8Array): Uint8Array {
  const parts: Buffer[] = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xe0])]; // magic; FHD: FCS 8 bytes, single segment
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(data.length));
  parts.push(size);
  const MAX = 128 * 1024;
  for (let off = 0; off < data.length || off === 0; off += MAX) {
    const chunk = data.subarray(off, Math.min(data.length, off + MAX));
    const last = off + MAX >= data.length ? 1 : 0;
    const header = (chunk.length << 3) | (0 << 1) | last; // Block_Type 0 = Raw
    parts.push(Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]), Buffer.from(chunk));
    if (data.length === 0) break;
  }
  return new Uint8Array(Buffer.concat(parts));
}

const COMPRESSORS = {
  GZIP: (b: Uint8Array) => new Uint8Array(gzipSync(b)),
  BROTLI: (b: Uint8Array) => new Uint8Array(brotliCompressSync(b)),
  ZSTD: zstdRawFrame,
};

/** The WeKnora folder re-written with `codec`. */
async function rewrite(codec: keyof typeof COMPRESSORS, t: { after(fn: () => void): void }): Promise<string> {
  const { parquetWriteFile } = await import('hyparquet-writer');
  const dir = tempDir(`spanproof-parquet-${codec}-`, t);
  for (const name of readdirSync(WEKNORA).filter((n) => n.endsWith('.parquet'))) {
    const file = await asyncBufferFromFile(join(WEKNORA, name));
    const rows = (await parquetReadObjects({ file })) as Array<Record<string, unknown>>;
    const meta = await parquetMetadataAsync(file);
    parquetWriteFile({
      filename: join(dir, name),
      schema: meta.schema as unknown as Parameters<typeof parquetWriteFile>[0]['schema'],
      columnData: Object.keys(rows[0]).map((c) => ({ name: c, data: rows.map((r) => r[c]) })),
      codec,
      compressors: COMPRESSORS,
    });
    const written = await parquetMetadataAsync(await asyncBufferFromFile(join(dir, name)));
    assert.equal(written.row_groups[0].columns[0].meta_data?.codec, codec, `${name} is ${codec}`);
  }
  return dir;
}

for (const codec of ['ZSTD', 'GZIP', 'BROTLI'] as const) {
  test(`weknora import of ${codec}-compressed Parquet equals the SNAPPY import`, async (t) => {
    const plain = await runImport('weknora', WEKNORA, { workspace: tempDir('spanproof-pq-ws-', t) });
    const packed = await runImport('weknora', await rewrite(codec, t), { workspace: tempDir('spanproof-pq-ws-', t) });
    assert.deepEqual(packed.groundTruth, plain.groundTruth);
    assert.equal(packed.report.converted, plain.report.converted);
    assert.ok(plain.report.converted > 0);
  });
}
