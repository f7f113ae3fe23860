// Issue #16 item 5: the evidence hover is a trusted MarkdownString (its command links run), so a question
// id or text from groundtruth.json must stay text. Rendered with commonmark.js (raw HTML allowed): the
// only links are the hover's own two commands, with the id JSON-encoded in the first one's arguments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HtmlRenderer, Parser } from 'commonmark';
import { evidenceHoverMarkdown } from '../../../src/extension/hoverText';
import type { QuestionStatus } from '../../../src/extension/runsModel';

const render = (md: string) => new HtmlRenderer({ safe: false }).render(new Parser().parse(md));

test('a hostile question id and text in the hover cannot add a command link, HTML or an icon', () => {
  const id = 'q1` [run me](command:workbench.action.terminal.sendSequence?%7B%7D) `';
  const question = 'Why? <img src=x onerror=alert(1)> [y](command:spanproof.showResults) $(alert)';
  const status: QuestionStatus = { hits: 0, scored: 1, perConfig: [{ config: 'a`|`b', hit: false, cause: '[c](command:x)', failed: false }], recommended: null };
  const md = evidenceHoverMarkdown([{ questionId: id, question }], 5, () => status);
  const html = render(md);
  const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
  assert.deepEqual(hrefs, [`command:spanproof.runEvaluationForQuestion?${encodeURIComponent(JSON.stringify([id]))}`.replace(/&/g, '&amp;'), 'command:spanproof.showResults']);
  assert.ok(!html.includes('<img'), html);
  assert.ok(html.includes(`<code>${id.replace(/&/g, '&amp;')}</code>`), `the id shown whole in one code span:\n${html}`);
  assert.ok(md.includes('\\$(alert)'), 'theme icon syntax escaped');
});
