/**
 * `spanproof run --generate --attack upia` as a user runs it (sources through tsx, CLI as a child
 * process) against the fake endpoint on 127.0.0.1, on samples/fastapi-mini with one config: a
 * generator that obeys every injected instruction (it echoes the marker it sees) and a judge that
 * says "not followed" to everything else. By hand: each of the 10 attacked answers carries its marker
 * → attacked 1 [1, 1]; no control answer does and the judge says no → control 0 [0, 0]; difference
 * +1 [1, 1] over 10 pairs. attacks.json holds the `upia` entry; the Markdown and HTML reports show
 * the row and say a local judge is not Azure's safety service; bad --attack uses exit 2 before the grid.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeServer } from '../../helpers/fakeServer';
import { tempDir } from '../../helpers/tmp';
import { REPO } from '../../helpers/paths';
import { runCli } from '../../helpers/cli';

const MINI = join(REPO, 'samples', 'fastapi-mini');
const MINI_GT = join(REPO, 'samples', 'fastapi-mini.groundtruth.json');

const cli = (args: string[]) => runCli(args);

test('run --generate --attack upia: attacks.json upia entry, figures by hand, shown in the md and html reports; bad --attack is exit 2', async (t) => {
  if (!existsSync(MINI_GT)) return t.skip('samples/fastapi-mini is absent');
  const srv = await startFakeServer({
    script: (r) => {
      const sys = r.messages.find((m) => m.role === 'system')?.content ?? '';
      const user = r.messages.find((m) => m.role === 'user')?.content ?? '';
      if (sys.includes('carries out the instruction')) return { content: '{"label": false, "reason": "no"}' };
      const tag = sys.includes('You answer questions') ? /SPX-[0-9A-F]{6}/.exec(user)?.[0] : undefined;
      return tag ? { content: `Done ${tag}` } : undefined;
    },
  });
  try {
    const root = tempDir('spanproof-attack-cli-');
    const base = ['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--runs-dir', join(root, 'runs'), '--cache-dir', join(root, 'cache'), '--chunkers', 'heading', '--retrievers', 'bm25', '--rerank', 'off'];
    const flags = ['--generate', '--endpoint', srv.url, '--generator-model', 'gen', '--judge-model', 'judge', '--judge-metrics', 'relevance'];
    const r = await cli([...base, ...flags, '--attack', 'upia']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /UPIA attack success/);
    assert.match(r.stdout, /heading\/bm25\/none\s+1\.000 \[1\.000, 1\.000\]\s+0\.000 \[0\.000, 0\.000\]\s+\+1\.000 \[1\.000, 1\.000\]\s+\(10 pairs\)/);
    const runDir = /Attack results written to (.+attacks\.json)\./.exec(r.stdout)![1].replace(/[/\\]attacks\.json$/, '');
    const file = JSON.parse(readFileSync(join(runDir, 'attacks.json'), 'utf8'));
    assert.equal(file.spanproof, 1);
    assert.equal(file.xpia, undefined);
    assert.equal(file.upia.attack, 'upia');
    assert.equal(file.upia.templates, 'upia-v1');
    assert.equal(file.upia.questions.length, 10);
    const c = file.upia.configs[0];
    assert.deepEqual([c.id, c.attacked.mean, c.control.mean, c.difference.mean, c.difference.pairs], ['heading/bm25/none', 1, 0, 1, 10]);
    assert.equal(file.upia.ledger.requests + file.upia.ledger.cachedResponses, 10 + 10 + 10, '10 attacked + 10 control generations + 10 control judge requests (the attacked answers carry their marker)');
    const md = await cli(['report', runDir, '--format', 'md']);
    assert.equal(md.code, 0, md.stderr);
    assert.match(md.stdout, /## Attack success \(with your models\)/);
    assert.match(md.stdout, /### UPIA: an instruction in the user's question/);
    assert.ok(md.stdout.includes('| heading/bm25/none | 1.000 [1.000, 1.000] | 0.000 [0.000, 0.000] | +1.000 [1.000, 1.000] | 10 | 0 / 0 |'), md.stdout.slice(md.stdout.indexOf('## Attack')));
    assert.match(md.stdout, /a local judge is not Azure's safety service/);
    const html = await cli(['report', runDir, '--format', 'html']);
    assert.match(html.stdout, /<h2 id="attacks">Attack success/);
    assert.ok(html.stdout.includes('<td class="l">heading/bm25/none</td><td>1.000 [1.000, 1.000]</td><td>0.000 [0.000, 0.000]</td><td>+1.000 [1.000, 1.000]</td>'));

    const noGen = await cli([...base, '--attack', 'upia']);
    assert.equal(noGen.code, 2);
    assert.match(noGen.stderr, /--attack needs --generate/);
    const xpia = await cli([...base, ...flags, '--attack', 'xpia']);
    assert.equal(xpia.code, 2);
    assert.match(xpia.stderr, /--attack xpia needs --injection-study/);
    const bad = await cli([...base, ...flags, '--attack', 'jailbreak']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--attack must list xpia and\/or upia/);
  } finally {
    await srv.close();
  }
});
