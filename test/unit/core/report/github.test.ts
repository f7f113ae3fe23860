/**
 * `report --format github` (issue #18): the verdict, the top configs with CIs, the changes since a
 * baseline run and the questions the recommended config newly fails — computed here independently
 * from the two runs' questions.jsonl — with every run string escaped (no mention, no link, no HTML,
 * no broken table).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runGrid } from '../../../../src/core/grid/run';
import { readRun } from '../../../../src/core/runs';
import { baselineDifferences, githubText, renderGithubReport } from '../../../../src/core/report';
import { runCli } from '../../../helpers/cli';
import { MINI, MINI_GT, smallSettings, tmp } from '../../../helpers/grid';

test('githubText makes run strings inert GitHub Markdown', () => {
  const s = githubText('@octocat <img src=x onerror=alert(1)> | #12 [x](http://e.com) *b* `c`\nnext');
  assert.ok(!/@[a-z]/.test(s), 'no mention');
  assert.ok(!s.includes('<'), 'no HTML');
  assert.ok(!/[^\\]\|/.test(s), 'no table break');
  assert.ok(!s.includes('\n'), 'one line');
  assert.ok(!s.includes('http://'), 'no autolink');
  assert.ok(s.includes('\\[x\\](') && s.includes('\\#12') && s.includes('\\*b\\*') && s.includes('\\`c\\`'));
});

test('the github report lists the verdict, the top configs and the questions newly failing since the baseline', async () => {
  const root = tmp('gh-report');
  const settings = smallSettings({ chunkers: ['heading'], retrievers: ['bm25'], rerank: [false] });
  const base = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: { ...settings, k: 10 }, outDir: join(root, 'base'), cacheDir: join(root, 'cache') });
  const now = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: { ...settings, k: 1 }, outDir: join(root, 'now'), cacheDir: join(root, 'cache') });
  const run = readRun(now.runDir!);
  const baseline = readRun(base.runDir!);
  const rec = run.verdict!.recommended!;
  // independently: hit@5 per question in each run's records of the recommended config
  const hit = (d: typeof run) => new Map(d.questions.filter((q) => q.config === rec).map((q) => [q.question, q[`hit@${d.results!.k}`] === 1]));
  const was = hit(baseline);
  const newly = [...hit(run)].filter(([id, ok]) => !ok && was.get(id)).map(([id]) => id);
  assert.ok(newly.length > 0, 'k = 1 loses some questions k = 10 hit (the fixture is meaningful)');
  // a hostile question text is shown escaped
  run.evidence!.questions.find((q) => q.id === newly[0])!.question = '@octocat <b>x</b> | y';
  const md = renderGithubReport(run, baseline);
  assert.match(md, new RegExp(`^## Spanproof: use \`${rec.replace(/[/]/g, '\\/')}\` \\(${run.verdict!.status}\\)`));
  assert.match(md, /\| rank \| config \| hit@1 \[95% CI\] \|/);
  assert.match(md, /### Changes since the baseline/);
  assert.match(md, new RegExp(`${newly.length} questions? newly failing`));
  for (const id of newly) assert.ok(md.includes(`- ${githubText(id)}:`), id);
  assert.ok(md.includes('@&#8203;octocat &lt;b&gt;x&lt;/b&gt; \\| y'), 'the question text is escaped');
  assert.ok(!md.includes('<b>'));
  // the CLI writes the same report
  const cli = await runCli(['report', now.runDir!, '--format', 'github', '--baseline', base.runDir!]);
  assert.equal(cli.code, 0, cli.stderr);
  assert.equal(cli.stdout, renderGithubReport(readRun(now.runDir!), baseline));
  const bad = await runCli(['report', now.runDir!, '--baseline', base.runDir!]);
  assert.equal(bad.code, 2);
});

test('report --baseline says when the baseline ran on other documents, another ground truth or another k (a fresh user compared runs over two corpora without a word)', async () => {
  const root = tmp('gh-baseline-corpus');
  const settings = smallSettings({ chunkers: ['heading'], retrievers: ['bm25'], rerank: [false] });
  const other = join(root, 'other');
  cpSync(MINI, other, { recursive: true });
  const first = readdirSync(join(other, 'tutorial')).filter((n) => n.endsWith('.md')).sort()[0];
  appendFileSync(join(other, 'tutorial', first), '\n\nOne more paragraph that was not in the baseline.\n');
  const base = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings, outDir: join(root, 'base'), cacheDir: join(root, 'cache') });
  const same = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings, outDir: join(root, 'same'), cacheDir: join(root, 'cache') });
  const edited = await runGrid({ workspace: other, groundTruthFile: MINI_GT, settings: { ...settings, k: 3 }, outDir: join(root, 'edited'), cacheDir: join(root, 'cache') });
  assert.deepEqual(baselineDifferences(readRun(same.runDir!), readRun(base.runDir!)), [], 'same documents, questions, k: nothing to say');
  const diffs = baselineDifferences(readRun(edited.runDir!), readRun(base.runDir!));
  const docs = readRun(base.runDir!).run.counts!.documents;
  assert.deepEqual(diffs, [
    `the baseline ran on other documents (${docs} → ${docs} documents): a change below may come from the edited documents, not from the configuration`,
    `the baseline used k = ${readRun(base.runDir!).results!.k}, this run k = 3: the metrics have other cutoffs`,
  ]);
  const cli = await runCli(['report', edited.runDir!, '--format', 'github', '--baseline', base.runDir!]);
  assert.equal(cli.code, 0, cli.stderr);
  for (const d of diffs) {
    assert.ok(cli.stderr.includes(`note: ${d}.`), cli.stderr);
    assert.ok(cli.stdout.includes(`> **Note:** ${githubText(d)}.`), cli.stdout);
  }
  const quiet = await runCli(['report', same.runDir!, '--format', 'github', '--baseline', base.runDir!]);
  assert.equal(quiet.stderr.includes('note:'), false, quiet.stderr);
});
