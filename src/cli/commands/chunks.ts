/**
 * `spanproof chunks [--workspace DIR] [--chunkers a,b] --out FILE.jsonl` (SPEC §11): chunk every
 * document of the corpus with every selected chunker and write JSON Lines
 * `{"chunker","id","source","start","end","text"}` — chunkers in the order given, then documents by
 * source, then chunks by offset. The file is written atomically (src/core/files `openAtomicFile`), so a
 * failed run never leaves a half-written file. `semantic` uses the embedded default embedder.
 */
import * as path from 'node:path';
import type { Command } from 'commander';
import { chunkCorpus, CHUNKER_IDS, isChunkerId } from '../../core/chunking';
import { loadCorpus } from '../../core/corpus';
import { SpanproofError } from '../../core/errors';
import { openAtomicFile, type AtomicFile } from '../../core/files';
import { checkOutputFile, outputPathError } from '../../core/fsErrors';
import { loadDefaultEmbedder, type TextEmbedder } from '../../core/models';
import type { ChunkerId } from '../../core/types';
import { DEFAULT_SETTINGS } from '../../core/settings';
import type { SetExit } from './index';

interface ChunksOptions { workspace: string; chunkers?: string; out: string; force?: boolean }

/** Parses `--chunkers a,b`; throws SpanproofError('bad-input') naming the unknown id. */
export function parseChunkerList(list: string | undefined): ChunkerId[] {
  if (list === undefined) return [...DEFAULT_SETTINGS.chunkers];
  const ids = list.split(',').map((s) => s.trim()).filter(Boolean);
  if (ids.length === 0) {
    throw new SpanproofError('bad-input', 'no chunker given.', { field: '--chunkers', fix: `use a comma-separated list of ${CHUNKER_IDS.join(', ')}.` });
  }
  for (const id of ids) {
    if (!isChunkerId(id)) {
      throw new SpanproofError('bad-input', `unknown chunker "${id}".`, { field: '--chunkers', fix: `use a comma-separated list of ${CHUNKER_IDS.join(', ')}.` });
    }
  }
  return [...new Set(ids)] as ChunkerId[];
}

export function register(program: Command, setExit: SetExit): void {
  program
    .command('chunks')
    .description('Write the chunks of every document for each chunker as JSON Lines.')
    .option('--workspace <dir>', 'corpus root', '.')
    .option('--chunkers <list>', `comma-separated chunker ids (default ${DEFAULT_SETTINGS.chunkers.join(',')})`)
    .requiredOption('--out <file>', 'output JSON Lines file (never over an existing file without --force)')
    .option('--force', 'replace an existing --out file')
    .addHelpText('after', `
Each line: {"chunker","id","source","start","end","text"}; offsets are UTF-16 code units, half-open,
and text === document.slice(start, end). Chunker parameters are the defaults (docs/chunkers.md).
"semantic" embeds sentence windows with the embedded default model.
`)
    .action(async (opts: ChunksOptions) => {
      const chunkers = parseChunkerList(opts.chunkers);
      const out = path.resolve(opts.out);
      // a bad --out fails before any chunking work (and never as an internal error)
      checkOutputFile(out, '--out', 'chunks.jsonl', opts.force === true);
      const corpus = await loadCorpus(opts.workspace);
      for (const s of corpus.skipped) process.stderr.write(`spanproof: skipped ${s.source}: ${s.reason} (${s.detail})\n`);
      const params = DEFAULT_SETTINGS.chunkerParams;
      let file: AtomicFile;
      try {
        file = await openAtomicFile(out);
      } catch (e) {
        throw outputPathError(e, out, '--out');
      }
      // only errors of writing the output are about --out
      const io = async (p: Promise<unknown>): Promise<void> => { try { await p; } catch (e) { throw outputPathError(e, out, '--out'); } };
      let embedder: TextEmbedder | undefined;
      try {
        for (const chunker of chunkers) {
          if (chunker === 'semantic' && !embedder) embedder = await loadDefaultEmbedder({ threads: DEFAULT_SETTINGS.threads });
          const embed = embedder ? { fn: (t: readonly string[]) => embedder!.embed(t), dim: embedder.dim } : undefined;
          const chunks = await chunkCorpus(corpus.documents, chunker, params, embed);
          const lines = chunks.map((c) => JSON.stringify({ chunker, id: c.id, source: c.source, start: c.start, end: c.end, text: c.text }));
          if (lines.length) await io(file.write(`${lines.join('\n')}\n`));
          process.stderr.write(`spanproof: ${chunker}: ${chunks.length} chunks from ${corpus.documents.length} documents\n`);
        }
        await io(file.commit());
      } catch (e) {
        await file.abort();
        throw e;
      } finally {
        await embedder?.dispose();
      }
      setExit(0);
    });
}
