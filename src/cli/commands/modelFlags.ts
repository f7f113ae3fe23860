/**
 * `spanproof run`'s model flags: `--embedders` (comma-separated entries: built-in names, catalogue
 * names, `endpoint:<model>`, model folders; the `embedders` setting — with more than one, retrievers
 * become `dense:<name>` / `hybrid:<name>`), `--reranker` (`baseline`, a catalogue cross-encoder,
 * `endpoint:<model>` or a folder) and `--endpoint` (also the endpoint of endpoint models:
 * `modelEndpoint.url`). Entries are parsed here, so a wrong one fails before the grid starts.
 *
 * A relative model folder given as a flag is resolved against the current folder, as `--groundtruth`,
 * `--config` and `--out` are (fresh-user #13: it was resolved against `--workspace`, so
 * `--embedders ./models/x` from the project root looked for `<workspace>/models/x`). In a settings file
 * a relative folder stays relative to the workspace. A bare name that is neither built in, in the
 * catalogue nor an existing folder (a typo such as `bge-small`) is bad input listing the names.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { SpanproofError } from '../../core/errors';
import { BUILTIN_EMBEDDERS, parseEmbedderList, parseRerankerSpec } from '../../core/models';
import { CATALOGUE } from '../../core/models/catalogue';
import type { RunSettings } from '../../core/settings';

/** A folder entry of `flag` as an absolute path (relative to the current folder); a bare name that names nothing is refused. */
function folderEntry(flag: string, entry: string, kind: 'embedder' | 'cross-encoder'): string {
  const abs = path.resolve(entry);
  if (!/[\\/]/.test(entry) && !existsSync(abs)) {
    const names = [...(kind === 'embedder' ? Object.keys(BUILTIN_EMBEDDERS) : ['baseline']), ...CATALOGUE.filter((c) => c.kind === kind).map((c) => c.name)];
    throw new SpanproofError('bad-input', `"${entry}" is not a built-in or catalogue ${kind} name, and no folder of that name is here.`, {
      field: flag, fix: `use one of ${names.join(', ')} (spanproof models list), endpoint:<model>, or the path of a model folder (e.g. ./models/${entry}).`,
    });
  }
  return abs;
}

/**
 * The settings `--embedders`, `--reranker` and `--endpoint` set (only the flags given).
 * @throws SpanproofError('bad-input') naming the flag, for an entry that cannot be parsed or names nothing.
 */
export function modelFlags(o: { embedders?: string; reranker?: string; endpoint?: string }, s: RunSettings): Partial<RunSettings> {
  const over: Partial<RunSettings> = {};
  if (o.embedders !== undefined) {
    const entries = o.embedders.split(',').map((x) => x.trim()).filter(Boolean);
    let specs;
    try {
      specs = parseEmbedderList(entries);
    } catch (e) {
      if (e instanceof SpanproofError) throw new SpanproofError('bad-input', e.message.replace(`${e.field}: `, '').replace(` Fix: ${e.fix}`, ''), { field: '--embedders', fix: e.fix });
      throw e;
    }
    over.embedders = entries.map((e, i) => (specs[i].kind === 'folder' ? folderEntry('--embedders', e, 'embedder') : e));
  }
  if (o.reranker !== undefined) {
    const spec = parseRerankerSpec(o.reranker);
    over.rerankerModel = spec.kind === 'folder' ? folderEntry('--reranker', o.reranker.trim(), 'cross-encoder') : o.reranker.trim();
  }
  if (o.endpoint) over.modelEndpoint = { ...s.modelEndpoint, url: o.endpoint };
  return over;
}
