/**
 * The external-retriever flags of `spanproof run` (issue #18, docs/external.md):
 * `--retriever-cmd "CMD"` and `--retriever-url URL` (each repeatable) add a retriever scored beside the
 * grid as `external/<name>/none`; `--retriever-name NAME` names the retriever given just before it
 * (default `retriever-1`, `retriever-2`, … in the order given). They add to the `externalRetrievers`
 * of `--config`.
 */
import type { Command } from 'commander';
import { SpanproofError } from '../../core/errors';
import { assertHttpUrl } from '../../core/net/url';
import type { RunSettings } from '../../core/settings';

type Entry = { command: string } | { url: string } | { name: string };

/** One list shared by the three options, so their order on the command line is kept. */
export interface ExternalFlagOptions {
  retrieverCmd?: Entry[];
  retrieverUrl?: Entry[];
  retrieverName?: Entry[];
}

/** Adds the three options to `cmd`. */
export function addExternalRetrieverOptions(cmd: Command): Command {
  const order: Entry[] = [];
  const push = (e: Entry) => { order.push(e); return order; };
  return cmd
    .option('--retriever-cmd <command>', 'score your own retriever: a command reading {"id","question","k"} lines on stdin, writing {"id","results"} lines (repeatable; docs/external.md)', (v: string) => push({ command: v }))
    .option('--retriever-url <url>', 'score your own retriever behind a URL: POST {"id","question","k"} → {"results"} (repeatable)', (v: string) => push({ url: assertHttpUrl(v, '--retriever-url', 'http://localhost:8080/search') }))
    .option('--retriever-name <name>', 'name of the --retriever-cmd/--retriever-url given just before (config id external/<name>/none)', (v: string) => push({ name: v }));
}

/** The retrievers of the flags, in order, appended to `settings.externalRetrievers`. Throws SpanproofError('bad-input') for a name with no retriever before it. */
export function externalRetrieversFromOptions(o: ExternalFlagOptions, settings: RunSettings): RunSettings['externalRetrievers'] {
  const order = o.retrieverCmd ?? o.retrieverUrl ?? o.retrieverName ?? [];
  const out: Array<{ name?: string; command?: string; url?: string }> = [];
  for (const e of order) {
    if ('name' in e) {
      const last = out[out.length - 1];
      if (!last || last.name !== undefined) throw new SpanproofError('bad-input', `--retriever-name ${e.name} does not follow a --retriever-cmd or --retriever-url without a name.`, { field: '--retriever-name', fix: 'put --retriever-name NAME right after the --retriever-cmd "CMD" or --retriever-url URL it names.' });
      last.name = e.name;
    } else out.push({ ...e });
  }
  const base = settings.externalRetrievers.length;
  return [...settings.externalRetrievers, ...out.map((r, i) => ({ ...r, name: r.name ?? `retriever-${base + i + 1}` }) as RunSettings['externalRetrievers'][number])];
}
