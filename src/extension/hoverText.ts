/**
 * The Markdown of the evidence hover (src/extension/editor.ts), kept free of `vscode` so it is tested
 * as text. The hover is a trusted MarkdownString (its two command links must run), so every string
 * from the ground truth or a run (question id, question text, config id, cause) goes through the
 * report's escaping (src/core/report/escape.ts): a question id like ``a` [x](command:…)`` stays text.
 */
import { markdownCode, markdownText } from '../core/report/escape';
import type { QuestionStatus } from './runsModel';

/** The hover's MarkdownString renders `$(icon)` (supportThemeIcons): a run string's `$(` stays text. */
const text = (s: string) => markdownText(s).replace(/\$\(/g, '\\$(');

/** One evidence span under the cursor: its question's id and text. */
export interface HoverSpan {
  questionId: string;
  question: string;
}

/** Hover Markdown for `spans`; `statusOf` gives the latest run's per-config outcome at cutoff `k`. */
export function evidenceHoverMarkdown(spans: readonly HoverSpan[], k: number | undefined, statusOf: (id: string) => QuestionStatus | undefined): string {
  const o: string[] = [];
  for (const s of spans) {
    o.push(`**Spanproof evidence** · ${markdownCode(s.questionId)}\n\n`, text(s.question), '\n\n');
    const st = statusOf(s.questionId);
    if (!st) o.push('_No run has scored this question yet._\n\n');
    else {
      o.push(`Latest run: hit@${k} in **${st.hits}/${st.scored}** configs\n\n| config | result |\n|---|---|\n`);
      for (const c of st.perConfig) o.push(`| ${markdownCode(c.config)} | ${c.failed ? '⚠ failed' : c.hit ? '✓ hit' : `✗ ${text(c.cause ?? 'miss')}`} |\n`);
      o.push('\n');
    }
    const args = encodeURIComponent(JSON.stringify([s.questionId]));
    o.push(`[Run this question](command:spanproof.runEvaluationForQuestion?${args}) · [Show results](command:spanproof.showResults)\n\n`);
  }
  return o.join('');
}
