/**
 * `spanproof validate [--workspace DIR] [--groundtruth FILE] [--config FILE] [--json] [--fix]` (SPEC §11): resolve the
 * ground truth against the corpus and print the acceptance report. Drafted questions (`"status":
 * "draft"`) are reported apart (`drafts` in --json) and never affect the exit code. Exit 0 when every question
 * resolved (moved counts as resolved), 1 when any evidence is stale/ambiguous/rejected, 2 when the
 * ground-truth file is unreadable or invalid. Never writes the file unless `--fix` is given.
 */
import type { Command } from 'commander';
import { loadCorpus, type Corpus } from '../../core/corpus';
import {
  applyEvidenceFixes, applyWhitespaceFixes, evidenceFixes, readGroundTruthWithText, replaceGroundTruthText, whitespaceFixes, resolveGroundTruth, withoutDrafts, type AcceptanceReport, type WhitespaceFix,
} from '../../core/groundtruth';
import { DEFAULT_SETTINGS } from '../../core/settings';
import type { SetExit } from './index';
import { groundTruthFileOf, resolveCliSettings } from './run';
import { nothingToScore } from '../../core/grid/load';
import { EXIT } from '../exit';

interface ValidateOptions { workspace: string; groundtruth?: string; config?: string; json?: boolean; fix?: boolean; whitespace?: boolean }

export function register(program: Command, setExit: SetExit): void {
  program
    .command('validate')
    .description('Resolve every evidence quote of the ground truth against the corpus and report the acceptance rate.')
    .option('--workspace <dir>', 'corpus root', '.')
    .option('--groundtruth <file>', `ground-truth file (default <workspace>/${DEFAULT_SETTINGS.groundTruthPath})`)
    .option('--config <file>', 'run settings JSON (as for `spanproof run`): include, exclude, maxFileBytes, minQuoteLength, maxQuoteLength, groundTruthPath apply')
    .option('--json', 'print only the acceptance report as JSON on stdout')
    .option('--fix', 'write re-anchored (moved) offsets back to the file, atomically, keeping a backup of the previous version (groundtruth.json.bak, or .bak.1, … — an older backup is never overwritten)')
    .option('--whitespace', 'with --fix: also rewrite stale quotes whose only difference from the document is whitespace (a wrapped line, a double space, NBSP, tab) to the document\'s text, showing each change; without --fix: show what it would rewrite')
    .addHelpText('after', `
Resolution (quote is the truth, offsets are a cache): exact at offsets → EOL-insensitive re-anchor by
prefix/suffix then nearness (moved) → stale (nearest near-match shown) / ambiguous (candidate lines) /
rejected (quote shorter than ${DEFAULT_SETTINGS.minQuoteLength} or longer than ${DEFAULT_SETTINGS.maxQuoteLength} code units). Moved offsets are never written by
validate itself; the editor writes them on save, or pass --fix.

Exit codes: 0 every question resolved (moved counts as resolved); 1 some evidence is stale,
ambiguous or rejected; 2 the ground-truth file is missing, unreadable or invalid, or has no
question to score (questions: [] or drafts only — as run says).
`)
    .action(async (opts: ValidateOptions) => {
      const workspace = opts.workspace;
      const cli = resolveCliSettings({ workspace, config: opts.config, failUnder: [] });
      const settings = cli.settings;
      const gtFile = groundTruthFileOf(workspace, opts.groundtruth, cli);
      const { gt, text } = await readGroundTruthWithText(gtFile);
      const corpus = await loadCorpus(workspace, { include: settings.include, exclude: settings.exclude, maxFileBytes: settings.maxFileBytes });
      const texts = new Map(corpus.documents.map((d) => [d.source, d.text]));
      const resolveOpts = { minQuoteLength: settings.minQuoteLength, maxQuoteLength: settings.maxQuoteLength, skipped: corpus.skipped };
      const textOf = (s: string) => texts.get(s);
      // Stale quotes that differ from the document only in whitespace (#16 item 20): rewritten with --fix --whitespace, else hinted at.
      const ws = whitespaceFixes(resolveGroundTruth(gt, textOf, resolveOpts).acceptance, textOf);
      const rewrite = opts.whitespace === true && opts.fix === true && ws.length > 0;
      const base = rewrite ? applyWhitespaceFixes(gt, ws).updated : gt; // the questions as --fix leaves them
      const full = resolveGroundTruth(base, textOf, resolveOpts); // every question, drafts too: --fix writes all their offsets
      // Drafts (status "draft", spanproof draft) are counted apart: never scored, never fail validation.
      const { scored, drafts } = withoutDrafts(base);
      const res = drafts.length ? resolveGroundTruth(scored, textOf, resolveOpts) : full;
      const draftReport = drafts.length ? resolveGroundTruth({ ...base, questions: drafts }, textOf, resolveOpts).acceptance : undefined;
      let written = false;
      let backup: string | undefined;
      if (opts.fix && (full.changed || rewrite)) {
        // Text edits of the fixed values only: formatting, key order, __proto__ keys and big integers stay as written (#16 item 8);
        // the replaced version is backed up first, never over an older backup.
        const fixes = evidenceFixes(gt, full.updated);
        ({ written, backup } = await replaceGroundTruthText(gtFile, (current) => applyEvidenceFixes(current ?? text, fixes, gtFile), { expectedContent: text }));
      }
      const wsReport = { fixes: ws, mode: rewrite ? 'rewritten' as const : opts.whitespace ? 'preview' as const : 'hint' as const };
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ ...res.acceptance, ...(draftReport ? { drafts: draftReport } : {}), skipped: corpus.skipped, ...(opts.fix ? { written, ...(backup ? { backup } : {}) } : {}), ...(opts.whitespace ? { whitespace: ws } : {}) }, null, 2)}\n`);
      } else if (res.acceptance.total > 0) {
        process.stdout.write(humanReport(gtFile, corpus, res.acceptance, opts.fix ? written : undefined, backup, wsReport));
        if (draftReport) process.stdout.write(`${draftsLine(draftReport)}\n`);
      }
      // No question (questions: [], or drafts only): bad input, exit 2, with run's message (#16 item 20) —
      // and only that message: a report "Accepted 0/0 (100.0%)" above it read as a pass.
      if (res.acceptance.total === 0) {
        const e = nothingToScore({ ...res.acceptance, draftsExcluded: drafts.length }, gtFile);
        process.stderr.write(`spanproof: ${e.message}\n`);
        setExit(EXIT.badInput);
        return;
      }
      setExit(res.acceptance.resolved === res.acceptance.total ? 0 : 1);
    });
}

/** The drafts' line: they are counted apart and never scored until accepted. */
function draftsLine(d: AcceptanceReport): string {
  const bad = d.total - d.resolved;
  return `Drafts: ${d.total} drafted question(s), not scored until accepted (${d.resolved} resolve${bad ? `, ${bad} do not: ${d.stale.length} stale, ${d.ambiguous.length} ambiguous, ${d.rejected.length} rejected evidence item(s)` : ''}); review them with \`spanproof review --list\`.`;
}

/** A one-line excerpt of a quote: line breaks shown as ⏎, at most `max` characters. */
function excerpt(s: string, max = 70): string {
  const flat = s.replace(/\r\n|\r|\n/g, '⏎');
  const cut = [...flat];
  return JSON.stringify(cut.length > max ? `${cut.slice(0, max - 1).join('')}…` : flat);
}

/** A quote with its whitespace made visible: line break ⏎, tab ⇥, no-break space ⍽, other Unicode spaces ␣. */
function visible(s: string, max = 70): string {
  return excerpt(s.replace(/\t/g, '⇥').replace(/\u00a0/g, '⍽').replace(/[\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\v\f]/g, '␣'), max);
}

/** The WHITESPACE lines: each quote's change (written, or what --fix would write), or a one-line hint. */
function whitespaceLines(w: { fixes: readonly WhitespaceFix[]; mode: 'rewritten' | 'preview' | 'hint' }): string[] {
  if (!w.fixes.length) return [];
  if (w.mode === 'hint') return [`${w.fixes.length} stale quote(s) differ from the document only in whitespace; \`spanproof validate --fix --whitespace\` rewrites them to the document's text.`];
  return w.fixes.map((f) => `  WHITESPACE ${f.id} ${f.source}: line ${f.line}: ${visible(f.from)} → ${visible(f.to)}${w.mode === 'rewritten' ? ' (quote rewritten to the document\'s text)' : ' (not written: add --fix)'}`);
}

function humanReport(gtFile: string, corpus: Corpus, a: AcceptanceReport, written: boolean | undefined, backup: string | undefined, ws: Parameters<typeof whitespaceLines>[0]): string {
  const out: string[] = [];
  const pct = a.total === 0 ? 100 : (100 * a.resolved) / a.total;
  out.push(`Ground truth ${gtFile}: ${a.total} questions against ${corpus.root} (${corpus.documents.length} document${corpus.documents.length === 1 ? '' : 's'}${corpus.skipped.length ? `, ${corpus.skipped.length} skipped` : ''}).`);
  const located = a.relocated.filter((r) => r.from.start === undefined || r.from.end === undefined).length;
  out.push(`Accepted ${a.resolved}/${a.total} (${pct.toFixed(1)}%): ${a.moved} moved${located ? ` (${located} evidence item(s) located: they had no offsets)` : ''}; ${a.stale.length} stale, ${a.ambiguous.length} ambiguous, ${a.rejected.length} rejected evidence item(s).`);
  for (const s of corpus.skipped) out.push(`  skipped ${s.source}: ${s.reason} (${s.detail})`);
  for (const r of a.relocated) {
    // A quote that never had offsets was located, not moved (#16 item 20).
    if (r.from.start === undefined || r.from.end === undefined) out.push(`  LOCATED   ${r.id} ${r.source}: offsets ${r.to.start}–${r.to.end} (line ${r.to.line}); the quote had none`);
    else out.push(`  MOVED     ${r.id} ${r.source}: offsets ${r.from.start}–${r.from.end} → ${r.to.start}–${r.to.end} (line ${r.to.line})`);
  }
  for (const s of a.stale) {
    out.push(`  STALE     ${s.id} ${s.source}: ${excerpt(s.exact)} — ${s.reason}`);
    if (s.nearest) out.push(`            nearest match at line ${s.nearest.line} (similarity ${s.nearest.similarity}): ${excerpt(s.nearest.text)}`);
  }
  for (const m of a.ambiguous) {
    out.push(`  AMBIGUOUS ${m.id} ${m.source}: ${excerpt(m.exact)} — ${m.candidatesTotal ?? m.candidates.length} equally good occurrences at lines ${m.candidates.map((c) => c.line).join(', ')}${m.candidatesTotal !== undefined ? ` (the first ${m.candidates.length})` : ''}; add or lengthen "prefix"/"suffix"`);
  }
  for (const r of a.rejected) out.push(`  REJECTED  ${r.id} ${r.source}: ${r.reason}`);
  out.push(...whitespaceLines(ws));
  if (a.relocated.length && written === undefined) out.push('Moved offsets are not written by validate; save in the editor or run `spanproof validate --fix`.');
  if (written) out.push(`Wrote updated offsets to ${gtFile} (previous version in ${backup ?? `${gtFile}.bak`}).`);
  return `${out.join('\n')}\n`;
}
