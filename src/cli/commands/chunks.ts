/**
 * `spanproof chunks [--workspace DIR] [--config FILE] [--chunkers a,b] --out FILE.jsonl` (SPEC §11):
 * chunk every document of the corpus with every selected chunker and write JSON Lines
 * `{"chunker","id","source","start","end","text"}` — chunkers in the order given, then documents by
 * source, then chunks by offset. The file is written atomically (src/core/files `openAtomicFile`), so a
 * failed run never leaves a half-written file; `--out -` writes to stdout. The settings are `run`'s, from the same layers
 * (defaults ← `.vscode/settings.json` ← `--config` ← `--chunkers`): the corpus globs, the chunker
 * parameters, and for `semantic` the run's first embedder — so the chunks are those a run scores.
 */
import * as path from 'node:path';
import type { Command } from 'commander';
import { existsSync, realpathSync } from 'node:fs';
import { chunkCorpus, CHUNKER_IDS } from '../../core/chunking';
import { loadCorpus } from '../../core/corpus';
import { openAtomicFile, type AtomicFile } from '../../core/files';
import { checkOutputFile, outputPathError } from '../../core/fsErrors';
import { SpanproofError } from '../../core/errors';
import { loadRunModels, type RunModels } from '../../core/grid/models';
import { resolveCacheDir } from '../../core/runs';
import type { SetExit } from './index';
import { settingsFromOptions } from './run';

interface ChunksOptions { workspace: string; config?: string; chunkers?: string; out: string; force?: boolean }

/** stdout as the output of `--out -`: each write resolves once the text is handed to the OS (backpressure). */
function stdoutSink(): AtomicFile {
  return {
    write: (data) => new Promise<void>((res, rej) => { process.stdout.write(data, (e) => (e ? rej(e) : res())); }),
    commit: async () => undefined,
    abort: async () => undefined,
  };
}

export function register(program: Command, setExit: SetExit): void {
  program
    .command('chunks')
    .description('Write the chunks of every document for each chunker as JSON Lines.')
    .option('--workspace <dir>', 'corpus root', '.')
    .option('--config <file>', 'JSON file with run settings (as for `spanproof run`); wins over <workspace>/.vscode/settings.json')
    .option('--chunkers <list>', `comma-separated chunker ids (${CHUNKER_IDS.join(',')}; default: the chunkers setting)`)
    .requiredOption('--out <file>', 'output JSON Lines file (never over an existing file without --force); - for stdout')
    .option('--force', 'replace an existing --out file')
    .addHelpText('after', `
Each line: {"chunker","id","source","start","end","text"}; offsets are UTF-16 code units, half-open,
and text === document.slice(start, end). The settings are those of spanproof run, from the same
layers: defaults <- <workspace>/.vscode/settings.json (spanproof.*) <- --config <- --chunkers; so the
chunker parameters (chunkerParams), the corpus globs and, for "semantic", the embedder are the run's.
`)
    .action(async (opts: ChunksOptions) => {
      const settings = settingsFromOptions({ workspace: opts.workspace, config: opts.config, chunkers: opts.chunkers }); // the layers of run (#16 item 19)
      const chunkers = [...new Set(settings.chunkers)];
      const toStdout = opts.out === '-'; // `--out -` is stdout, as for most Unix tools (it wrote a file named "-")
      const out = path.resolve(opts.out);
      // a bad --out fails before any chunking work (and never as an internal error)
      if (!toStdout) checkOutputFile(out, '--out', 'chunks.jsonl', opts.force === true);
      const corpus = await loadCorpus(opts.workspace, { include: settings.include, exclude: settings.exclude, maxFileBytes: settings.maxFileBytes });
      for (const s of corpus.skipped) process.stderr.write(`spanproof: skipped ${s.source}: ${s.reason} (${s.detail})\n`);
      if (!toStdout) refuseCorpusDocument(out, opts.workspace, corpus.documents.map((d) => d.source));
      const params = settings.chunkerParams;
      let file: AtomicFile;
      try {
        file = toStdout ? stdoutSink() : await openAtomicFile(out);
      } catch (e) {
        throw outputPathError(e, out, '--out');
      }
      // only errors of writing the output are about --out
      const io = async (p: Promise<unknown>): Promise<void> => { try { await p; } catch (e) { throw outputPathError(e, out, '--out'); } };
      let models: RunModels | undefined;
      try {
        for (const chunker of chunkers) {
          // semantic chunking embeds with the run's first embedder (loaded as the run loads it)
          if (chunker === 'semantic' && !models) models = await loadRunModels({ settings, workspace: opts.workspace, needsEmbedder: true, needsReranker: false, cacheDir: existsSync(opts.workspace) ? resolveCacheDir(opts.workspace) : undefined, apiKey: process.env.SPANPROOF_API_KEY });
          const embedder = chunker === 'semantic' ? models?.embedder ?? undefined : undefined;
          const embed = embedder ? { fn: (t: readonly string[]) => embedder.embed(t), dim: embedder.dim } : undefined;
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
        await models?.release();
      }
      setExit(0);
    });
}

/**
 * `--out` must not be a document of the corpus being chunked, even with --force (the chunks would
 * replace the text they were cut from). Compared by real path under the workspace.
 * @throws SpanproofError('bad-input') naming the file and the document.
 */
function refuseCorpusDocument(out: string, workspace: string, sources: readonly string[]): void {
  let rel: string;
  try {
    rel = path.relative(realpathSync(workspace), realpathSync(out)).split(path.sep).join('/');
  } catch {
    return; // --out does not exist yet: nothing to protect
  }
  if (sources.includes(rel)) throw new SpanproofError('bad-input', `--out is a document of the corpus being chunked (${rel}); --force never replaces one.`, { file: out, fix: 'write the chunks to another file, e.g. chunks.jsonl.' });
}
