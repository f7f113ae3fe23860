/**
 * `spanproof import <weknora|pathway-cuad|ragas|chroma|squad> <path> [--workspace DIR] [--documents DIR]`
 * (SPEC §11, §13): convert another evaluator's dataset into Spanproof ground truth. Writes the
 * documents the dataset carries under the workspace, the workspace's ground-truth file
 * (`spanproof.groundTruthPath`, default `.spanproof/groundtruth.json`; atomic; a previous file is kept
 * as `.bak`), `.spanproof/import-report.json` — never through a link out of the workspace — and prints the conversion report followed by
 * the acceptance of the new ground truth against the workspace (`spanproof validate`).
 */
import * as path from 'node:path';
import type { Command } from 'commander';
import { loadCorpus } from '../../core/corpus';
import { SpanproofError, isSpanproofError } from '../../core/errors';
import { readGroundTruth, resolveGroundTruth } from '../../core/groundtruth';
import { IMPORT_FORMATS, nothingConvertedError, runImport, writeImport, type ConversionReport, type ImportFormat } from '../../core/import';
import { DEFAULT_SETTINGS, mergeSettingsLayers, readSettingsLayers } from '../../core/settings';
import type { SetExit } from './index';
import { groundTruthFileOf } from './run';

interface ImportCliOptions { workspace: string; documents?: string; minSimilarity?: string; json?: boolean; replace?: boolean; merge?: boolean }

/**
 * Rejection reasons grouped by their words (issue #16 item 20): reasons that differ only in their
 * numbers are one group, each number position shown as the range of its values (`similarity
 * 0.412–0.587 below 0.6`) — never a placeholder like "0.N". Most frequent first, then first seen.
 */
export function groupReasons(reasons: readonly string[]): Array<{ text: string; count: number }> {
  const groups = new Map<string, { parts: string[]; values: number[][]; raw: string[][]; count: number }>();
  for (const reason of reasons) {
    // split at the numbers: even pieces are the reason's own text (an excerpt may hold '#' or any
    // other character; it is never a placeholder), odd pieces the numbers
    const pieces = reason.split(/(\d+(?:\.\d+)?)/);
    const parts = pieces.filter((_, i) => i % 2 === 0);
    const nums = pieces.filter((_, i) => i % 2 === 1);
    const key = JSON.stringify(parts);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { parts, values: nums.map(() => []), raw: nums.map(() => []), count: 0 }));
    nums.forEach((n, i) => { g.values[i].push(Number(n)); g.raw[i].push(n); });
    g.count++;
  }
  const range = (vals: number[], raw: string[]): string => {
    let lo = 0;
    let hi = 0;
    vals.forEach((v, i) => { if (v < vals[lo]) lo = i; if (v > vals[hi]) hi = i; });
    return vals[lo] === vals[hi] ? raw[lo] : `${raw[lo]}–${raw[hi]}`;
  };
  return [...groups.values()]
    .map((g) => ({ text: g.parts.map((p, i) => (i < g.values.length ? p + range(g.values[i], g.raw[i]) : p)).join(''), count: g.count }))
    .sort((a, b) => b.count - a.count);
}

function humanReport(r: ConversionReport, reportWritten = true): string {
  const more = reportWritten ? 'in import-report.json' : 'not shown (nothing was written; --json lists them all)';
  const out: string[] = [];
  // without a write, the documents were found in the input but none was written (it said "1 document(s)")
  out.push(`Import ${r.format} from ${r.input}: ${r.rowsRead} rows read, ${r.converted} converted, ${r.rejected.length} rejected; ${reportWritten ? `${r.documents} document(s)` : `${r.documents} document(s) found, nothing written`}.`);
  for (const n of r.notes) out.push(`  note: ${n}`);
  const counts = Object.entries(r.counts);
  if (counts.length) out.push(`  counts: ${counts.map(([k, v]) => `${k} ${v}`).join(', ')}`);
  if (r.fuzzy.length) {
    const sims = r.fuzzy.map((f) => f.similarity);
    out.push(`  fuzzy alignments: ${r.fuzzy.length} (similarity min ${Math.min(...sims).toFixed(3)}, mean ${(sims.reduce((a, b) => a + b, 0) / sims.length).toFixed(3)}); listed in import-report.json`);
  }
  if (r.rejected.length) {
    out.push('  rejected by reason:');
    for (const g of groupReasons(r.rejected.map((x) => x.reason))) out.push(`    ${String(g.count).padStart(5)} × ${g.text.slice(0, 120)}`);
    for (const x of r.rejected.slice(0, 10)) out.push(`  REJECTED ${typeof x.row === 'number' ? `row ${x.row}` : x.row}${x.id !== undefined && x.id !== '' ? ` (${typeof x.id === 'string' ? x.id : JSON.stringify(x.id)})` : ''}: ${x.reason}`);
    if (r.rejected.length > 10) out.push(`  … ${r.rejected.length - 10} more ${more}`);
  }
  return out.join('\n');
}

/**
 * The ground-truth file an import writes and guards: the workspace's `spanproof.groundTruthPath`
 * (its `.vscode/settings.json`, else the default) — the file validate and run then read (fresh-user
 * item 10: the import went to `.spanproof/groundtruth.json`, past the guard, while validate read
 * `qa/gt.json`). A path there that leaves the workspace is refused as those commands refuse it.
 * @throws SpanproofError('bad-input') naming the settings file and `spanproof.groundTruthPath`.
 */
function importGroundTruthFile(workspace: string): string {
  const { layers } = readSettingsLayers(workspace);
  try {
    return groundTruthFileOf(workspace, undefined, { settings: mergeSettingsLayers(layers), layers });
  } catch (e) {
    // import has no --groundtruth flag: its fix is the setting or another workspace
    if (isSpanproofError(e) && e.field === 'spanproof.groundTruthPath') {
      throw new SpanproofError('bad-input', e.message.slice(e.file ? e.file.length + 2 : 0).split(' Fix: ')[0], {
        file: e.file, field: e.field, fix: `set it to a path inside the workspace (default ${DEFAULT_SETTINGS.groundTruthPath}), or import into another folder (--workspace DIR); nothing was written.`, cause: e,
      });
    }
    throw e;
  }
}

export function register(program: Command, setExit: SetExit): void {
  program
    .command('import')
    .description('Convert another evaluator\'s dataset into Spanproof ground truth (with a conversion report).')
    .argument('<format>', IMPORT_FORMATS.join('|'))
    .argument('<path>', 'the dataset: a file, or the Parquet folder for weknora')
    .option('--workspace <dir>', 'corpus root to write documents and the ground truth (spanproof.groundTruthPath, default .spanproof/groundtruth.json) into', '.')
    .option('--documents <dir>', 'pathway-cuad: folder with the contract texts; ragas: folder with the source documents')
    .option('--min-similarity <x>', 'minimum similarity of a fuzzy alignment (0–1, default 0.9)')
    .option('--replace', 'replace an existing ground truth (it is kept as <file>.bak, or .bak.N)')
    .option('--merge', 'add the imported questions to an existing ground truth by id (an id already there keeps your version and is listed as a conflict)')
    .option('--json', 'print the conversion report (and what was written) as JSON')
    .addHelpText('after', `
Formats (SPEC §13):
  weknora       folder of queries/corpus/answers/qrels/qas .parquet; passages → documents weknora/passage-<pid>.txt,
                qrels → whole-passage evidence, graded qrels → .spanproof/qrels.txt
  pathway-cuad  labeled.tsv + --documents DIR of contract texts (<file stem>.txt); excerpts aligned (fuzzy reported)
  ragas         RAGAS JSONL (user_input, reference, reference_contexts[, response, retrieved_contexts])
  chroma        questions_df.csv with corpora/<corpus_id>.md beside it (code-point offsets → UTF-16)
  squad         SQuAD v1.1/v2.0 JSON; paragraphs → documents, answers widened to their sentence
Nothing is dropped silently: every row is converted or listed as rejected with its reason.
The ground truth is the workspace's spanproof.groundTruthPath (.vscode/settings.json; default
.spanproof/groundtruth.json). A workspace that already has one with questions is not touched unless
--replace (the file is copied to <file>.bak, or .bak.1, … — never overwritten) or --merge (imported
questions added by id; conflicts listed, your version kept) is given; an identical import writes nothing. When no row converts nothing is written and the exit status is 2.
`)
    .action(async (format: string, input: string, opts: ImportCliOptions) => {
      if (!(IMPORT_FORMATS as readonly string[]).includes(format)) {
        throw new SpanproofError('bad-input', `unknown import format "${format}".`, { field: '<format>', fix: `use one of ${IMPORT_FORMATS.join(', ')}.` });
      }
      const minSimilarity = opts.minSimilarity === undefined ? undefined : Number(opts.minSimilarity);
      if (minSimilarity !== undefined && !(minSimilarity >= 0 && minSimilarity <= 1)) {
        throw new SpanproofError('bad-input', `--min-similarity must be a number in [0, 1], got "${opts.minSimilarity}".`, { field: '--min-similarity', fix: 'e.g. --min-similarity 0.85' });
      }
      if (opts.replace && opts.merge) throw new SpanproofError('bad-input', 'give either --replace or --merge, not both.', { field: '--replace/--merge', fix: '--replace replaces the existing ground truth; --merge adds the imported questions to it.' });
      const workspace = path.resolve(opts.workspace);
      const groundTruthFile = importGroundTruthFile(workspace); // before the dataset is read: a refused setting costs nothing
      const result = await runImport(format as ImportFormat, input, { workspace, documents: opts.documents, minSimilarity });
      if (result.report.converted === 0) {
        // nothing to import: write nothing (SPEC §11), show why, exit 2
        process.stdout.write(opts.json ? `${JSON.stringify({ report: result.report, written: null }, null, 2)}\n` : `${humanReport(result.report, false)}\n`);
        throw nothingConvertedError(result);
      }
      const written = await writeImport(result, workspace, { existing: opts.replace ? 'replace' : opts.merge ? 'merge' : 'refuse', groundTruthFile });
      const corpus = await loadCorpus(workspace);
      const texts = new Map(corpus.documents.map((d) => [d.source, d.text]));
      // after --merge the file holds the questions already there too: its acceptance is the whole merged file's (it said 1/1 for a file of 11)
      const merged = written.merge !== undefined;
      const acceptance = resolveGroundTruth(merged ? await readGroundTruth(written.groundTruthFile) : result.groundTruth, (s) => texts.get(s), { skipped: corpus.skipped }).acceptance;
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ report: result.report, written, acceptance: { of: merged ? 'merged ground truth' : 'imported questions', total: acceptance.total, resolved: acceptance.resolved, stale: acceptance.stale.length, ambiguous: acceptance.ambiguous.length, rejected: acceptance.rejected.length } }, null, 2)}\n`);
      } else {
        const lines = [humanReport(result.report)];
        lines.push(`${written.groundTruthUnchanged ? `${written.groundTruthFile} unchanged (identical ground truth; no backup made)` : `Wrote ${written.groundTruthFile}${written.backup ? ` (the previous file is kept as ${written.backup})` : ''}`}, ${written.documentsWritten} document(s)${written.documentsUnchanged ? ` (${written.documentsUnchanged} already present, unchanged)` : ''}, ${written.reportFile}${written.qrelsFile ? `, ${written.qrelsFile}` : ''}${written.extraFiles.length ? `, ${written.extraFiles.join(', ')}` : ''}.`);
        const m = written.merge;
        if (m) lines.push(`Merged by id: ${m.added.length} added, ${m.unchanged.length} already there unchanged, ${m.conflicts.length} conflict(s)${m.conflicts.length ? ` — your version kept: ${m.conflicts.slice(0, 20).join(', ')}${m.conflicts.length > 20 ? ', …' : ''}` : ''}.`);
        lines.push(`Acceptance ${merged ? `of the whole merged ${written.groundTruthFile}` : 'of the imported questions'} against ${workspace}: ${acceptance.resolved}/${acceptance.total} questions resolve (${acceptance.stale.length} stale, ${acceptance.ambiguous.length} ambiguous, ${acceptance.rejected.length} rejected evidence) — details: spanproof validate --workspace ${opts.workspace}`);
        process.stdout.write(`${lines.join('\n')}\n`);
      }
      setExit(0);
    });
}
