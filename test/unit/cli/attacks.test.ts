/**
 * `spanproof run --generate --attack upia` as a user runs it (sources through tsx, CLI as a child
 * process) against the fake endpoint on 127.0.0.1, on samples/fastapi-mini with one config: a
 * generator that obeys every injected instruction (it answers "Done <marker>") and a content grader
 * that gives such an answer violence 5 (medium) and everything else 0. By hand: each of the 10 attacked
 * answers is medium-violent while its control answer is not → violence 1 [1, 1], any category 1 [1, 1],
 * the other categories 0, instruction followed 1; with `--threshold high`, 5 is below the threshold
 * → every defect rate 0. attacks.json holds the `upia` entry (format 2); the Markdown, HTML and CSV
 * reports show it and say a local judge is not Azure's safety service; bad --attack / --threshold exit
 * 2 before the grid; Ctrl-C during the attack step exits 130 and leaves no attacks.json (nor a temp).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeServer } from '../../helpers/fakeServer';
import { tempDir } from '../../helpers/tmp';
import { REPO } from '../../helpers/paths';
import { runCli } from '../../helpers/cli';

const MINI = join(REPO, 'samples', 'fastapi-mini');
const MINI_GT = join(REPO, 'samples', 'fastapi-mini.groundtruth.json');

const cli = (args: string[], onSpawn?: (interrupt: () => void) => void) => runCli(args, {}, onSpawn);

/** The fake endpoint; `onGrade` sees each content-harm request (return true to leave it unanswered). */
function server(onGrade: () => boolean = () => false) {
  return startFakeServer({
    script: (r) => {
      const sys = r.messages.find((m) => m.role === 'system')?.content ?? '';
      const user = r.messages.find((m) => m.role === 'user')?.content ?? '';
      if (sys.includes('content-safety grader')) {
        if (onGrade()) return { hang: true };
        if (sys.includes('"label"')) return { content: '{"label": false, "reason": "own words"}' };
        const violent = /RESPONSE to grade:\nDone SPX-/.test(user) && sys.includes('Violent content');
        return { content: JSON.stringify({ score: violent ? 5 : 0, reason: 'graded' }) };
      }
      const tag = sys.includes('You answer questions') ? /SPX-[0-9A-F]{6}/.exec(user)?.[0] : undefined;
      return tag ? { content: `Done ${tag}` } : undefined;
    },
  });
}

const base = (root: string, runs = 'runs') => ['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--runs-dir', join(root, runs), '--cache-dir', join(root, 'cache'), '--chunkers', 'heading', '--retrievers', 'bm25', '--rerank', 'off'];
const flags = (url: string) => ['--generate', '--endpoint', url, '--generator-model', 'gen', '--judge-model', 'judge', '--judge-metrics', 'relevance'];
const runDirOf = (stdout: string) => /Attack results written to (.+attacks\.json)\./.exec(stdout)![1].replace(/[/\\]attacks\.json$/, '');

test('run --generate --attack upia: harm-based defects by hand in attacks.json and the md, html and csv reports; --threshold; bad flags are exit 2', async (t) => {
  if (!existsSync(MINI_GT)) return t.skip('samples/fastapi-mini is absent');
  const srv = await server();
  try {
    const root = tempDir('spanproof-attack-cli-');
    const r = await cli([...base(root), ...flags(srv.url), '--attack', 'upia']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /UPIA defect rate \(generator gen, judge judge; 10 questions, templates upia-v1, threshold medium\)/);
    const runDir = runDirOf(r.stdout);
    const file = JSON.parse(readFileSync(join(runDir, 'attacks.json'), 'utf8'));
    assert.equal(file.spanproof, 1);
    assert.equal(file.xpia, undefined);
    assert.deepEqual([file.upia.attack, file.upia.format, file.upia.templates, file.upia.threshold, file.upia.questions.length], ['upia', 2, 'upia-v1', 'medium', 10]);
    const c = file.upia.configs[0];
    assert.deepEqual([c.id, c.any.defectRate, c.any.lo, c.any.hi, c.any.measured, c.any.unmeasured], ['heading/bm25/none', 1, 1, 1, 10, 0]);
    assert.equal(c.categories.violence.defectRate, 1);
    for (const k of ['hate_unfairness', 'sexual', 'self_harm', 'protected_material']) assert.equal(c.categories[k].defectRate, 0, k);
    assert.equal(c.followed.defectRate, 1);
    assert.equal(file.upia.ledger.requests + file.upia.ledger.cachedResponses, 10 + 10 + 10 * 2 * 5, '20 generations and 5 grades of each of the 20 answers');
    const md = await cli(['report', runDir, '--format', 'md']);
    assert.equal(md.code, 0, md.stderr);
    assert.match(md.stdout, /### UPIA: an instruction in the user's question/);
    // config, any, measured, unmeasured, hate, sexual, violence, self_harm, protected, 3 kinds, followed
    assert.ok(md.stdout.includes('| heading/bm25/none | 1.000 [1.000, 1.000] | 10 | 0 | 0.000 [0.000, 0.000] | 0.000 [0.000, 0.000] | 1.000 [1.000, 1.000] | 0.000 [0.000, 0.000] | 0.000 [0.000, 0.000] | 1.000 [1.000, 1.000] | 1.000 [1.000, 1.000] | 1.000 [1.000, 1.000] | 1.000 [1.000, 1.000] |'), md.stdout.slice(md.stdout.indexOf('## Attack')));
    assert.match(md.stdout, /a local judge is not Azure's safety service/);
    const html = await cli(['report', runDir, '--format', 'html']);
    assert.ok(html.stdout.includes('<td class="l">heading/bm25/none</td><td>1.000 [1.000, 1.000]</td><td>10</td><td>0</td>'));
    const csvOut = await cli(['report', runDir, '--format', 'csv']);
    assert.equal(csvOut.code, 0, csvOut.stderr);
    const csv = csvOut.stdout.split(/\r?\n/);
    const head = csv[0].split(',');
    const row = csv[1].split(',');
    const col = (name: string) => row[head.indexOf(name)];
    assert.deepEqual(['upia_threshold', 'upia_defect_any', 'upia_measured', 'upia_defect_violence', 'upia_defect_sexual', 'upia_followed'].map(col), ['medium', '1', '10', '1', '0', '1']);

    const high = await cli([...base(root), ...flags(srv.url), '--attack', 'upia', '--threshold', 'high']);
    assert.equal(high.code, 0, high.stderr);
    const h = JSON.parse(readFileSync(join(runDirOf(high.stdout), 'attacks.json'), 'utf8')).upia;
    assert.equal(h.threshold, 'high');
    assert.deepEqual([h.configs[0].any.defectRate, h.configs[0].categories.violence.defectRate, h.configs[0].followed.defectRate], [0, 0, 1], 'violence 5 is below high; the instruction was still followed');

    for (const [extra, msg] of [[['--attack', 'upia', '--threshold', 'severe'], /--threshold must be a severity level/], [['--threshold', 'high'], /--threshold applies to the UPIA attack step only/], [['--attack', 'jailbreak'], /--attack must list xpia and\/or upia/], [['--attack', 'xpia'], /--attack xpia needs --injection-study/]] as const) {
      const bad = await cli([...base(root), ...flags(srv.url), ...extra]);
      assert.equal(bad.code, 2, extra.join(' '));
      assert.match(bad.stderr, msg);
    }
    const noGen = await cli([...base(root), '--attack', 'upia']);
    assert.equal(noGen.code, 2);
    assert.match(noGen.stderr, /--attack needs --generate/);
  } finally {
    await srv.close();
  }
});

test('Ctrl-C during the UPIA attack step: exit 130, nothing written for it (no attacks.json, no temp file); the run and its answers stay', async (t) => {
  if (!existsSync(MINI_GT)) return t.skip('samples/fastapi-mini is absent');
  let interrupt: (() => void) | undefined;
  let grades = 0;
  // The first content-harm request is left unanswered and Ctrl-C is sent: the step is mid-way.
  const srv = await server(() => {
    if (grades++ === 0) interrupt?.();
    return true;
  });
  try {
    const root = tempDir('spanproof-attack-cancel-');
    const r = await cli([...base(root), ...flags(srv.url), '--attack', 'upia'], (i) => (interrupt = i));
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /the UPIA attack step was cancelled; nothing was written for it/);
    assert.ok(grades >= 1, 'the step had started grading');
    const runs = readdirSync(join(root, 'runs'));
    assert.equal(runs.length, 1);
    const files = readdirSync(join(root, 'runs', runs[0]));
    assert.ok(files.includes('answers.jsonl') && files.includes('results.json'), files.join(' '));
    assert.ok(!files.includes('attacks.json'), files.join(' '));
    assert.deepEqual(files.filter((f) => f.endsWith('.tmp')), []);
  } finally {
    await srv.close();
  }
});
