/**
 * Issue #16 item 5: the Markdown report writes run strings (question ids and texts, quotes, sources,
 * config ids, error messages) so that they stay text. The report is rendered with commonmark.js with raw
 * HTML allowed (what an HTML-allowing renderer does) and must hold no element or link the run did not
 * write; every table row keeps its column count (GFM splits a row at each unescaped `|`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HtmlRenderer, Parser } from 'commonmark';
import { renderMarkdown, githubText } from '../../../../src/core/report';
import { markdownCode, markdownQuote, markdownText } from '../../../../src/core/report/escape';
import { DEFAULT_SETTINGS } from '../../../../src/core/settings';
import type { RunData } from '../../../../src/shared/protocol';

const HOSTILE = 'a | b `c` <script>alert(1)</script> [x](javascript:alert(2)) <img src=x onerror=alert(3)>\n# heading\n- item';
const ID = 'q`1` [y](javascript:alert(4)) |';
const SOURCE = 'docs/`x`|<b>.md';

function hostileRun(): RunData {
  const metrics = Object.fromEntries(['hit@5', 'mrr', 'ndcg@5', 'coverage@5'].map((k) => [k, { mean: 0.5, lo: 0.25, hi: 0.75 }]));
  const causes = { 'chunker-destroyed': 0, 'chunker-degraded': 1, 'passage-split': 0, 'retriever-missed': 0, 'reranker-demoted': 0, 'ranked-too-low': 0 };
  const id = 'fixed/bm25/none';
  const evidence = { source: SOURCE, start: 0, end: HOSTILE.length };
  return {
    run: { id: 'r1', status: 'succeeded', progress: { finished: 1, total: 1 }, error: null, startedAt: '2026-01-01T00:00:00.000Z', endedAt: null, toolVersion: '0', settings: DEFAULT_SETTINGS, workspace: '/w/`x`', groundTruthFile: '/w/gt.json', runDir: '/w/r1', location: { kind: 'workspace' }, corpusHash: '', groundTruthHash: '', acceptance: null, seed: 1 },
    results: {
      spanproof: 1, k: 5, tau: 0.9, n: 20, primaryMetric: 'hit@5', seed: 1, resamples: 10, questions: 1,
      acceptance: { total: 3, resolved: 1, moved: 0, stale: [{ id: ID, source: SOURCE, exact: HOSTILE, reason: 'no occurrence', evidence: 0 }], ambiguous: [{ id: ID, source: SOURCE, candidates: [] }], rejected: [{ id: ID, reason: HOSTILE }], relocated: [] },
      configs: [{ id, chunker: 'fixed', retriever: 'bm25', rerank: false, scored: 1, failed: [], metrics: metrics as never, causes, contextChars: 100, tauSweep: {}, vsTop: null, rank: 1, explanation: 'x' }],
      skipped: [{ source: SOURCE, reason: 'unreadable', detail: HOSTILE }], errors: [{ stage: 'retrieve', config: id, question: ID, message: HOSTILE }],
    },
    ranking: [{ id, rank: 1, score: 0.5, pareto: true, explanation: 'best', latencyMs: 1, contextChars: 100, recommended: true }],
    timings: null,
    questions: [{ question: ID, config: id, status: 'ok', results: [], pool: [], cause: 'chunker-degraded', miss: { evidence, spanIndex: 0, bestChunk: { chunk: 0, id: 'c0', source: SOURCE, start: 0, end: 10, coverage: 0.1 }, charsBefore: 0, charsAfter: HOSTILE.length - 10, neighbour: null, bestChunkRank: null, bestChunkPoolRank: null, coverageAtK: 0 } }],
    evidence: { questions: [{ id: ID, question: HOSTILE, spans: [{ ...evidence, text: HOSTILE }] }] },
  } as unknown as RunData;
}

/** Cells of a GFM table row: split at `|` not preceded by a backslash. */
const cells = (row: string) => row.trim().replace(/^\||\|$/g, '').split(/(?<!\\)\|/).length;

test('the Markdown report keeps hostile run strings inert: no element, no link, no heading, no broken table', () => {
  const md = renderMarkdown(hostileRun());
  const html = new HtmlRenderer({ safe: false }).render(new Parser().parse(md));
  for (const bad of ['<script', '<img', 'href="javascript', '<b>', '<h1>heading']) assert.ok(!html.toLowerCase().includes(bad), `${bad} in\n${html}`);
  assert.ok(!/<a /.test(html), 'no link at all');
  assert.equal((html.match(/<h1>/g) ?? []).length, 1, 'only the report title is a level-1 heading');
  // Every table keeps its header's column count.
  const lines = md.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^\|(---|-{3}:?)/.test(lines[i])) continue;
    const want = cells(lines[i - 1]);
    for (let j = i + 1; j < lines.length && lines[j].startsWith('|'); j++) assert.equal(cells(lines[j]), want, lines[j]);
  }
  // The text still reads as written (entities and escapes render back to the run's characters).
  assert.ok(html.includes('alert(1)'), 'the question text is shown');
  assert.ok(html.includes('&lt;script&gt;'), 'as text');
});

test('markdownCode keeps backticks inside the span; markdownText and markdownQuote render back to the text', () => {
  const render = (md: string) => new HtmlRenderer({ safe: false }).render(new Parser().parse(md));
  assert.equal(render(markdownCode('a`b``c')), '<p><code>a`b``c</code></p>\n');
  assert.equal(render(markdownCode('`x`')), '<p><code>`x`</code></p>\n');
  assert.equal(render(markdownText('*a* [x](javascript:y) <i>')), '<p>*a* [x](javascript:y) &lt;i&gt;</p>\n');
  assert.equal(render(markdownQuote('one <b>\n# two')), '<blockquote>\n<p>one &lt;b&gt;\n# two</p>\n</blockquote>\n');
  assert.equal(githubText, markdownText, 'one set of rules for both reports');
});

test('an escape sequence in an id or question is removed whole from the Markdown report, as on a terminal (only the ESC byte went: [31mRED]0;TITLE\\u0007[2J)', () => {
  const esc = '\u001b[31mRED\u001b]0;TITLE\u0007\u001b[2J';
  const run = JSON.parse(JSON.stringify(hostileRun()).split(JSON.stringify(ID).slice(1, -1)).join(`${JSON.stringify(esc).slice(1, -1)}q1`)) as RunData;
  run.evidence!.questions[0].question = `${esc}question`;
  run.results!.errors[0].message = `${esc}message`;
  const md = renderMarkdown(run);
  assert.ok(md.includes('REDq1') && md.includes('REDquestion') && md.includes('REDmessage'), md);
  for (const left of ['\u001b', '\u0007', '[31m', '31m', ']0;TITLE', 'TITLE', '[2J', '2J']) assert.ok(!md.includes(left), `${JSON.stringify(left)} left in the report`);
  assert.equal(markdownText(esc), 'RED');
  assert.equal(markdownCode(esc), '`RED`');
  assert.equal(markdownText('a\u0001b'), 'a\\\\u0001b', 'an invisible control is shown as text, as on a terminal');
});
