/**
 * `spanproof query [--workspace DIR] --chunker ID --retriever ID [--rerank on|off] [--k 5] [--pool 20]
 * [--embedders LIST] [--reranker ENTRY] [--endpoint URL] [--config FILE] [--json] TEXT` (SPEC §11):
 * retrieve for one question with one configuration — or, with several embedders and `--retriever
 * dense` (or `hybrid`), with each of the grid's `dense:<name>` configs; `--retriever dense:<name>`
 * names one. `--json` prints one line per config, `{"config", "results":
 * [{"rank","source","start","end","score","text"}], "pool": [...]}` (plus `models` and `corpus`).
 * Works offline unless an endpoint model is configured (its key from SPANPROOF_API_KEY); embeddings
 * and reranker scores are cached under `<workspace>/.spanproof/cache` (or the user cache dir when the
 * workspace is read-only).
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { isChunkerId } from '../../core/chunking';
import { SpanproofError } from '../../core/errors';
import { BASELINE_RERANKER_LABEL } from '../../core/models/embedderSpec';
import { runQueries, type QueryAnswer, type QueryResultRow } from '../../core/grid';
import { resolveCacheDir } from '../../core/runs';
import { CHUNKER_IDS, DEFAULT_SETTINGS, RETRIEVER_IDS } from '../../core/settings';
import { settingsFromOptions } from './run';
import { choiceFlag, countFlag } from '../flags';
import { MAX_RESULT_LIST } from '../../core/settings';
import { assertHttpUrl } from '../../core/net/url';
import type { SetExit } from './index';

interface QueryOptions { workspace: string; chunker: string; retriever: string; rerank: string; k?: string; pool?: string; config?: string; json?: boolean; embedders?: string; reranker?: string; endpoint?: string }


function printHuman(a: QueryAnswer, gap: boolean): void {
  const line = (r: QueryResultRow) => {
    const preview = r.text.replace(/\s+/g, ' ').slice(0, 160);
    return `${String(r.rank).padStart(2)}. ${r.source} [${r.start}, ${r.end})  score ${r.score.toFixed(4)}\n    ${preview}${r.text.length > 160 ? '…' : ''}\n`;
  };
  const baseline = a.models.rerankerBaseline ? ` (MaxSim reranker: ${BASELINE_RERANKER_LABEL})` : '';
  process.stdout.write(`${gap ? '\n' : ''}${a.config}${baseline} — ${a.corpus.chunks} chunks from ${a.corpus.documents} documents\n`);
  for (const r of a.results) process.stdout.write(line(r));
}

export function register(program: Command, setExit: SetExit): void {
  program
    .command('query')
    .description('Retrieve for one question with one chunker/retriever/reranker configuration.')
    .argument('<text>', 'the question')
    .option('--workspace <dir>', 'corpus root', '.')
    .requiredOption('--chunker <id>', `one of ${CHUNKER_IDS.join(', ')}`)
    .requiredOption('--retriever <id>', `one of ${RETRIEVER_IDS.join(', ')} (with several embedders: every dense:<name> / hybrid:<name>), or dense:<name> / hybrid:<name> for one embedder`)
    .option('--rerank <on|off>', 'rerank the candidate pool', 'off')
    .option('--k <n>', `result list size (default ${DEFAULT_SETTINGS.k})`)
    .option('--pool <n>', `candidate pool size N (default ${DEFAULT_SETTINGS.poolSize})`)
    .option('--embedders <list>', 'comma-separated embedders, as for spanproof run (with more than one, --retriever dense answers for each: dense:<name>)')
    .option('--reranker <entry>', 'the reranker with --rerank on: baseline (default) | a catalogue cross-encoder | endpoint:<model> | a cross-encoder folder')
    .option('--endpoint <url>', 'the endpoint of endpoint:<model> entries (modelEndpoint.url); key from SPANPROOF_API_KEY', (v: string) => assertHttpUrl(v, '--endpoint'))
    .option('--config <file>', 'settings JSON (same keys as the VS Code settings): models, chunker params, threads')
    .option('--json', 'print JSON only')
    .addHelpText('after', `
--json prints one line per config, {"config","results":[{"rank","source","start","end","score","text"}],"pool":[...]}:
results are the final top k, pool the retriever's N candidates before reranking. Offsets are UTF-16
code units, half-open. With several embedders (embedders setting or --embedders a,b) --retriever dense
answers for every dense:<name> config of the grid, --retriever dense:a for one. The default reranker is the MaxSim reranker over static word vectors, a ${BASELINE_RERANKER_LABEL}.
`)
    .action(async (text: string, opts: QueryOptions) => {
      if (!isChunkerId(opts.chunker)) throw new SpanproofError('bad-input', `unknown chunker "${opts.chunker}".`, { field: '--chunker', fix: `use one of ${CHUNKER_IDS.join(', ')}.` });
      const rerank = choiceFlag('--rerank', opts.rerank, ['on', 'off'] as const);
      const settings = settingsFromOptions({ workspace: opts.workspace, config: opts.config, embedders: opts.embedders, reranker: opts.reranker, endpoint: opts.endpoint }); // same layers as run (#16 item 19)
      const answers = await runQueries({
        workspace: opts.workspace,
        chunker: opts.chunker,
        retriever: opts.retriever.trim(),
        rerank: rerank === 'on',
        text,
        k: opts.k === undefined ? undefined : countFlag('--k', opts.k, MAX_RESULT_LIST, 5),
        pool: opts.pool === undefined ? undefined : countFlag('--pool', opts.pool, MAX_RESULT_LIST, 20),
        settings,
        // only for an existing workspace: a mistyped path must give loadCorpus's not-found error, not a new folder
        cacheDir: existsSync(opts.workspace) ? resolveCacheDir(opts.workspace) : undefined,
        apiKey: process.env.SPANPROOF_API_KEY,
        onNotice: (line) => process.stderr.write(`warning: ${line}\n`),
      });
      // `spanproof query … | head` closes the pipe early: that is not an error
      process.stdout.on('error', (e: NodeJS.ErrnoException) => { if (e.code !== 'EPIPE') throw e; });
      for (const [i, answer] of answers.entries()) {
        if (opts.json) process.stdout.write(`${JSON.stringify(answer)}\n`);
        else printHuman(answer, i > 0);
      }
      setExit(0);
    });
}
