/**
 * The report of a drafting session: `draftJson` is the `spanproof draft --json` object (issue #14 §7),
 * `draftText` the lines the CLI prints and VS Code writes to its output channel.
 */
import { ledgerLine } from '../judge/report';
import { redactEndpoint } from './provenance';
import type { DraftSessionResult } from './session';

/** The `--json` report (issue #14 §7): `kept` and `duplicates` are counts; details in `drafts` and `duplicateList`. */
export function draftJson(r: DraftSessionResult): Record<string, unknown> {
  return {
    requested: r.requested, kept: r.drafts.length, rejected: r.rejected, duplicates: r.duplicates.length, leakage: r.leakage, coverage: r.coverage, ledger: r.ledger,
    status: r.status, passages: r.passages, reanchored: r.reanchored, answers: r.answers, drafts: r.perDraft, duplicateList: r.duplicates,
    groundTruthFile: r.groundTruthFile, written: r.written, ...(r.backup ? { backup: r.backup } : {}), ...(r.failedPassages ? { failedPassages: r.failedPassages } : {}),
  };
}

const excerpt = (s: string, max = 70): string => {
  const flat = s.replace(/\r\n|\r|\n/g, '⏎');
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
};
const list = (xs: string[], max = 8): string => `${xs.slice(0, max).join(', ')}${xs.length > max ? ` (+${xs.length - max} more)` : ''}`;

/** The human-readable report. */
export function draftText(r: DraftSessionResult, endpoint: string, model: string): string[] {
  const out = [`Drafted ${r.drafts.length} of ${r.requested} requested question(s) from ${r.passages} passage(s) with ${model} at ${redactEndpoint(endpoint)}${r.status === 'cancelled' ? ' (cancelled)' : ''}; ${r.reanchored} quote(s) re-anchored to the document's exact text after whitespace/quote normalisation (marked "reanchored").`];
  if (r.rejected.length) {
    out.push(`Rejected ${r.rejected.length}:`);
    for (const x of r.rejected.slice(0, 20)) out.push(`  ${x.source}: ${x.quote ? `${excerpt(x.quote)} — ` : ''}${x.reason}`);
    if (r.rejected.length > 20) out.push(`  … and ${r.rejected.length - 20} more (--json lists all)`);
  }
  if (r.failedPassages) out.push(`warning: ${r.failedPassages.count} of ${r.passages} passage request(s) got no usable reply (most often: ${r.failedPassages.mostOften}).`);
  if (r.duplicates.length) out.push(`Near-duplicates dropped: ${r.duplicates.length} (${r.duplicates.slice(0, 3).map((d) => `${excerpt(d.question, 50)} ≈ ${d.duplicateOf}`).join('; ')}${r.duplicates.length > 3 ? '; …' : ''}).`);
  const l = r.leakage;
  if (l.n) out.push(`Lexical leakage (share of question words found in the evidence): median ${l.median}, mean ${l.mean}, 90th percentile ${l.p90}; ${l.histogram.map((h) => `${h.from}–${h.to}: ${h.count}`).join(', ')}.`);
  if (l.warning) out.push(`warning: ${l.warning}`);
  const c = r.coverage;
  out.push(`Coverage: ${c.documents.covered}/${c.documents.total} document(s) and ${c.sections.covered}/${c.sections.total} section(s) have a question.${c.documents.uncovered.length ? ` No question in: ${list(c.documents.uncovered)}.` : ''}`);
  const uncoveredHeadings = c.sections.uncovered.filter((s) => s.heading).map((s) => `${s.source} "${s.heading}"`);
  if (uncoveredHeadings.length) out.push(`  Headings without a question: ${list(uncoveredHeadings, 6)}.`);
  if (r.answers.words.n) out.push(`Answers: ${r.answers.withAnswer} with an answer (median ${r.answers.words.median} words, ${r.answers.words.min}–${r.answers.words.max}), ${r.answers.without} without.`);
  out.push(ledgerLine(r.ledger));
  if (r.written) out.push(`Wrote ${r.drafts.length} draft(s) to ${r.groundTruthFile}${r.backup ? ` (previous version in ${r.backup})` : ''}. They are not scored until accepted: spanproof review --list, then --accept ID… or --accept-all.`);
  else if (r.status === 'cancelled' && r.drafts.length) out.push('Nothing written (cancelled; pass --keep-partial to keep what verified).');
  else out.push('Nothing written.');
  return out;
}
