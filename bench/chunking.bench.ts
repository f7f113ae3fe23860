/**
 * Chunking benchmark (printed, never asserted): chunks/s and MB/s (UTF-8 bytes of the corpus per
 * second) of each chunker on the FastAPI docs sample, best of 3 runs after one warm-up, invariant
 * checks included (they run in every real run too). `semantic` runs with the embedded default
 * embedder when its files are built, and is skipped with a message otherwise.
 *
 *   npx tsx bench/chunking.bench.ts [corpus dir]      (default ../shared/data/fastapi-docs)
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { chunkCorpus, type EmbedFn } from '../src/core/chunking/index';
import { loadCorpus } from '../src/core/corpus/index';
import { loadDefaultEmbedder } from '../src/core/models/index';
import type { ChunkerId } from '../src/core/types';
import { DEFAULT_SETTINGS } from '../src/core/settings';

async function main(): Promise<void> {
  const root = path.resolve(process.argv[2] ?? path.resolve(__dirname, '..', '..', 'shared', 'data', 'fastapi-docs'));
  if (!existsSync(root)) {
    console.log(`chunking bench: ${root} is not present; skipped.`);
    return;
  }
  const corpus = await loadCorpus(root);
  const bytes = corpus.documents.reduce((s, d) => s + Buffer.byteLength(d.text), 0);
  const units = corpus.documents.reduce((s, d) => s + d.text.length, 0);
  console.log(`corpus ${root}: ${corpus.documents.length} documents, ${(bytes / 1e6).toFixed(2)} MB UTF-8, ${units} UTF-16 code units`);
  console.log('chunker    chunks   best ms   chunks/s      MB/s   mean len');
  let embed: { fn: EmbedFn; dim: number } | undefined;
  let dispose: (() => Promise<void>) | undefined;
  try {
    const m = await loadDefaultEmbedder({ threads: DEFAULT_SETTINGS.threads });
    embed = { fn: (t) => m.embed(t), dim: m.dim };
    dispose = () => m.dispose();
  } catch (e) {
    console.log(`(semantic skipped: default embedder unavailable — ${e instanceof Error ? e.message : String(e)})`);
  }
  for (const chunker of DEFAULT_SETTINGS.chunkers as ChunkerId[]) {
    if (chunker === 'semantic' && !embed) continue;
    const run = (): Promise<unknown[]> => chunkCorpus(corpus.documents, chunker, DEFAULT_SETTINGS.chunkerParams, embed);
    const chunks = (await run()) as { start: number; end: number }[];
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const t0 = process.hrtime.bigint();
      await run();
      best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
    }
    const mean = chunks.reduce((s, c) => s + c.end - c.start, 0) / chunks.length;
    console.log(
      `${chunker.padEnd(9)} ${String(chunks.length).padStart(7)} ${best.toFixed(1).padStart(9)} ${Math.round(chunks.length / (best / 1000)).toString().padStart(10)} ${(bytes / 1e6 / (best / 1000)).toFixed(2).padStart(9)} ${mean.toFixed(0).padStart(10)}`,
    );
  }
  await dispose?.();
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
