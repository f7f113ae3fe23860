/**
 * `spanproof review [--workspace DIR] [--groundtruth FILE] (--list | --accept ID... | --reject ID... |
 * --accept-all) [--json]` (issue #14 §6): review drafted questions. Accepting removes a draft's
 * `"status"` (it becomes an ordinary question, scored by the next run; `provenance` is kept);
 * rejecting removes it from the file. Other questions are never changed (text-level edit, atomic,
 * previous version in `<file>.bak` or the next free `.bak.N`). `--list` (the default) shows each draft with its evidence and
 * whether it resolves in the corpus now.
 * Exit codes: 0 done; 2 bad input (unknown id, not a draft, invalid file, several actions at once).
 */
import type { Command } from 'commander';
import { loadCorpus } from '../../core/corpus';
import { acceptWithout, draftsToAccept, notAcceptedError, reviewFile, unresolvedDrafts, type ReviewAction, type UnresolvedDraft } from '../../core/draft';
import { SpanproofError } from '../../core/errors';
import { isDraft, readGroundTruthWithText, resolveGroundTruth, type Question, type Resolution } from '../../core/groundtruth';
import type { RunSettings } from '../../core/settings';
import type { SetExit } from './index';
import { groundTruthFileOf, resolveCliSettings } from './run';

interface ReviewOptions { workspace: string; groundtruth?: string; config?: string; accept?: string[]; reject?: string[]; acceptAll?: boolean; list?: boolean; json?: boolean }

function actionOf(o: ReviewOptions): ReviewAction | 'list' {
  const chosen = [o.accept?.length ? '--accept' : '', o.reject?.length ? '--reject' : '', o.acceptAll ? '--accept-all' : '', o.list ? '--list' : ''].filter(Boolean);
  if (chosen.length > 1) throw new SpanproofError('bad-input', `choose one of ${chosen.join(', ')}.`, { field: chosen.join(' '), fix: 'run review once per action, e.g. spanproof review --accept ID… then spanproof review --reject ID….' });
  if (o.accept?.length) return { accept: o.accept };
  if (o.reject?.length) return { reject: o.reject };
  if (o.acceptAll) return { accept: 'all' };
  return 'list';
}

export function register(program: Command, setExit: SetExit): void {
  program
    .command('review')
    .description('Review drafted questions (spanproof draft): list them, accept them (they become ordinary questions) or reject them (removed).')
    .option('--workspace <dir>', 'corpus root', '.')
    .option('--groundtruth <file>', 'ground-truth file (default <workspace>/.spanproof/groundtruth.json)')
    .option('--config <file>', 'run settings JSON (include, exclude, maxFileBytes, minQuoteLength, maxQuoteLength, groundTruthPath apply)')
    .option('--list', 'list the drafts and whether their evidence resolves (the default)')
    .option('--accept <ids...>', 'accept these drafts')
    .option('--reject <ids...>', 'reject (remove) these drafts')
    .option('--accept-all', 'accept every draft')
    .option('--json', 'print JSON on stdout')
    .action(async (o: ReviewOptions) => {
      const action = actionOf(o);
      const cli = resolveCliSettings({ workspace: o.workspace, config: o.config, failUnder: [] });
      const settings = cli.settings;
      const file = groundTruthFileOf(o.workspace, o.groundtruth, cli);
      const { gt, text } = await readGroundTruthWithText(file);
      if (action === 'list') {
        const drafts = await listDrafts(gt.questions.filter(isDraft), o.workspace, settings);
        if (o.json) process.stdout.write(`${JSON.stringify({ groundTruthFile: file, total: drafts.length, drafts }, null, 2)}\n`);
        else process.stdout.write(listText(file, drafts));
        setExit(0);
        return;
      }
      // Accepting re-checks each draft against the documents as they are now (SPEC §3.2): one whose quote
      // no longer resolves stays a draft and is reported (#16 N8), never accepted silently.
      const refused = 'accept' in action ? await draftProblems(draftsToAccept(gt.questions, action.accept), o.workspace, settings) : [];
      const applied = 'accept' in action ? acceptWithout(gt.questions, action.accept, refused) : action;
      const r = 'accept' in applied && applied.accept.length === 0 ? { ids: [], written: false } : await reviewFile(file, text, applied);
      const verb = 'accept' in action ? 'accepted' : 'rejected';
      if (o.json) process.stdout.write(`${JSON.stringify({ [verb]: r.ids, written: r.written, ...(r.backup ? { backup: r.backup } : {}), ...(refused.length ? { notAccepted: refused } : {}) }, null, 2)}\n`);
      else {
        const what = 'accept' in action ? 'they are ordinary questions now and the next run scores them' : 'removed from the file';
        process.stdout.write(r.ids.length ? `${verb[0].toUpperCase()}${verb.slice(1)} ${r.ids.length} draft(s): ${r.ids.join(', ')} — ${what}.${r.backup ? ` Previous version in ${r.backup}.` : ''}\n` : refused.length ? 'No draft accepted.\n' : 'No drafts to review.\n');
      }
      if (refused.length) throw notAcceptedError(file, refused);
      setExit(0);
    });
}

interface ListedDraft {
  id: string;
  question: string;
  answer?: string;
  evidence: Question['evidence'];
  provenance?: Question['provenance'];
  /** Whether every evidence item resolves in the corpus now (SPEC §3.2), else the first problem. */
  resolves: boolean;
  problem?: string;
}

/** `drafts` resolved against the corpus as it is now (SPEC §3.2). */
async function resolveDrafts(drafts: Question[], workspace: string, settings: RunSettings): Promise<Resolution> {
  const corpus = await loadCorpus(workspace, { include: settings.include, exclude: settings.exclude, maxFileBytes: settings.maxFileBytes });
  const texts = new Map(corpus.documents.map((d) => [d.source, d.text]));
  return resolveGroundTruth({ spanproof: 1, questions: drafts }, (s) => texts.get(s), { minQuoteLength: settings.minQuoteLength, maxQuoteLength: settings.maxQuoteLength, skipped: corpus.skipped });
}

/** Those of `drafts` that do not resolve now, with the problem. */
async function draftProblems(drafts: Question[], workspace: string, settings: RunSettings): Promise<UnresolvedDraft[]> {
  return drafts.length ? unresolvedDrafts(drafts.map((q) => q.id), await resolveDrafts(drafts, workspace, settings)) : [];
}

async function listDrafts(drafts: Question[], workspace: string, settings: RunSettings): Promise<ListedDraft[]> {
  if (drafts.length === 0) return [];
  const problems = new Map(unresolvedDrafts(drafts.map((q) => q.id), await resolveDrafts(drafts, workspace, settings)).map((d) => [d.id, d.problem]));
  return drafts.map((q) => ({
    id: q.id, question: q.question, ...(q.answer !== undefined ? { answer: q.answer } : {}), evidence: q.evidence, ...(q.provenance ? { provenance: q.provenance } : {}),
    resolves: !problems.has(q.id), ...(problems.has(q.id) ? { problem: problems.get(q.id) } : {}),
  }));
}

function listText(file: string, drafts: ListedDraft[]): string {
  if (drafts.length === 0) return `No drafts in ${file}.\n`;
  const out = [`${drafts.length} draft(s) in ${file} (not scored until accepted):`];
  for (const d of drafts) {
    out.push(`  ${d.id}  ${d.question}${d.resolves ? '' : `  [does not resolve: ${d.problem ?? 'see spanproof validate'}]`}`);
    if (d.answer) out.push(`      answer: ${d.answer}`);
    for (const e of d.evidence) out.push(`      ${e.source}${e.start !== undefined ? `:${e.start}-${e.end}` : ''}${e.reanchored ? ' (re-anchored)' : ''}: ${JSON.stringify(e.exact.length > 90 ? `${e.exact.slice(0, 89)}…` : e.exact)}`);
    if (d.provenance) out.push(`      drafted by ${d.provenance.model} (${d.provenance.promptVersion}) at ${d.provenance.createdAt}`);
  }
  out.push('Accept: spanproof review --accept ID… | --accept-all; reject: spanproof review --reject ID….');
  return `${out.join('\n')}\n`;
}
