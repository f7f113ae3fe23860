/**
 * `spanproof draft`, `validate`, `run` and `review` as a user runs them (sources through tsx), against
 * the fake OpenAI-compatible server on 127.0.0.1 started here: only verified quotes are written, the
 * hand-written questions stay byte-identical, drafts are counted apart by validate, excluded from a
 * run until `review --accept-all`, then scored; an unreachable endpoint exits 2 naming the URL and
 * writes nothing; Ctrl-C writes nothing unless --keep-partial.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { defaultDraftReply, startFakeServer, type DraftAsk, type FakeServer } from '../../helpers/fakeServer';
import { tempDir } from '../../helpers/tmp';
import { REPO } from '../../helpers/paths';

const MINI = join(REPO, 'samples', 'fastapi-mini');
const MINI_GT = join(REPO, 'samples', 'fastapi-mini.groundtruth.json');

function cli(args: string[], opts: { env?: Record<string, string>; onSpawn?: (kill: () => void) => void } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((res) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'src', 'cli', 'main.ts'), ...args], { cwd: REPO, env: { ...process.env, SPANPROOF_WORKER: join(REPO, 'src', 'worker', 'main.ts'), ...opts.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => res({ code, stdout, stderr }));
    opts.onSpawn?.(() => child.kill('SIGINT'));
  });
}

function workspace(): { ws: string; gt: string } {
  const ws = tempDir('spanproof-draft-cli-');
  cpSync(MINI, ws, { recursive: true });
  mkdirSync(join(ws, '.spanproof'), { recursive: true });
  const gt = join(ws, '.spanproof', 'groundtruth.json');
  cpSync(MINI_GT, gt);
  return { ws, gt };
}

/** The exact text of each question object, by id. */
function questionTexts(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const n of findNodeAtLocation(parseTree(text)!, ['questions'])?.children ?? []) out.set(findNodeAtLocation(n, ['id'])!.value, text.slice(n.offset, n.offset + n.length));
  return out;
}

/** Per passage, in turn: verbatim, whitespace-shifted, altered, invented, malformed (also on repair). */
function mixed(): (a: DraftAsk) => string {
  return (a) => {
    const sentences = a.passage.split(/(?<=[.!?])\s+/).filter((s) => s.length >= 30 && !s.startsWith('#') && !s.includes('`'));
    const s = sentences[0];
    if (!s) return '{"questions": []}';
    const kind = (a.source.length + a.passage.length) % 5;
    const quote = kind === 0 ? s : kind === 1 ? s.replace(/ /g, '  ') : kind === 2 ? s.replace(/\b(the|a)\b/, 'ZZZ') : kind === 3 ? 'An invented sentence that the documents never contain at all.' : null;
    if (quote === null) return 'not json';
    return JSON.stringify({ questions: [{ question: `Drafted question ${kind} on ${a.source} at ${a.passage.length}?`, answer: 'An answer.', evidence: [{ quote }] }] });
  };
}

const scoredRun = async (ws: string, gt: string, root: string) => {
  const r = await cli(['run', '--workspace', ws, '--groundtruth', gt, '--runs-dir', join(root, 'runs'), '--cache-dir', join(root, 'cache'), '--chunkers', 'heading', '--retrievers', 'bm25', '--rerank', 'off', '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
};

test('draft → validate → run (drafts excluded) → review --accept-all → run (drafts scored); hand questions byte-identical', async (t) => {
  if (!existsSync(MINI_GT)) return t.skip('samples/fastapi-mini is absent');
  const srv: FakeServer = await startFakeServer({ draft: mixed() });
  try {
    const { ws, gt } = workspace();
    const root = tempDir('spanproof-draft-cli-out-');
    const before = readFileSync(gt, 'utf8');
    const hand = questionTexts(before);
    const d = await cli(['draft', '--workspace', ws, '--endpoint', srv.url, '--model', 'drafter', '--count', '12', '--json', '--cache-dir', join(root, 'cache')]);
    assert.equal(d.code, 0, d.stderr);
    const out = JSON.parse(d.stdout);
    for (const k of ['requested', 'kept', 'rejected', 'duplicates', 'leakage', 'coverage', 'ledger']) assert.ok(k in out, k);
    assert.equal(out.requested, 12);
    assert.ok(out.kept >= 1, 'some drafts kept');
    assert.ok(out.rejected.some((x: { reason: string }) => /^not in the document/.test(x.reason)), 'altered/invented rejected');
    assert.ok(out.rejected.every((x: { reason: string; quote: string; source: string }) => typeof x.reason === 'string' && typeof x.quote === 'string' && typeof x.source === 'string'));
    assert.equal(out.ledger.requests, srv.requests.length);
    const after = readFileSync(gt, 'utf8');
    assert.equal(readFileSync(`${gt}.bak`, 'utf8'), before);
    for (const [id, text] of hand) assert.equal(questionTexts(after).get(id), text, `hand question ${id} untouched`);
    const file = JSON.parse(after);
    const drafts = file.questions.filter((q: { status?: string }) => q.status === 'draft');
    assert.equal(drafts.length, out.kept);
    for (const q of drafts) {
      for (const e of q.evidence) {
        const text = readFileSync(join(ws, e.source), 'utf8');
        assert.equal(text.slice(e.start, e.end), e.exact, 'exact at its offsets');
        if (e.reanchored) assert.notEqual(e.reanchored.quote, e.exact);
      }
      assert.equal(q.provenance.model, 'drafter');
    }
    assert.ok(drafts.some((q: { evidence: Array<{ reanchored?: unknown }> }) => q.evidence.some((e) => e.reanchored)), 'a whitespace-shifted quote was re-anchored and marked');

    const v = await cli(['validate', '--workspace', ws, '--json']);
    assert.equal(v.code, 0, v.stderr);
    const vj = JSON.parse(v.stdout);
    assert.equal(vj.total, hand.size);
    assert.equal(vj.drafts.total, out.kept);
    assert.equal(vj.drafts.resolved, out.kept);

    const run1 = await scoredRun(ws, gt, root);
    assert.equal(run1.acceptance.total, hand.size);
    assert.equal(run1.acceptance.draftsExcluded, out.kept);

    const rv = await cli(['review', '--workspace', ws, '--accept-all', '--json']);
    assert.equal(rv.code, 0, rv.stderr);
    assert.equal(JSON.parse(rv.stdout).accepted.length, out.kept);
    const accepted = readFileSync(gt, 'utf8');
    for (const [id, text] of hand) assert.equal(questionTexts(accepted).get(id), text, `hand question ${id} untouched by review`);
    assert.ok(JSON.parse(accepted).questions.every((q: { status?: string; provenance?: unknown; id: string }) => q.status === undefined && (hand.has(q.id) || q.provenance)));

    const run2 = await scoredRun(ws, gt, root);
    assert.equal(run2.acceptance.total, hand.size + out.kept);
    assert.equal(run2.acceptance.resolved, hand.size + out.kept);
    assert.equal(run2.acceptance.draftsExcluded, undefined);
  } finally {
    await srv.close();
  }
});

test('review --list / --accept / --reject; bad ids exit 2', async (t) => {
  if (!existsSync(MINI_GT)) return t.skip('samples/fastapi-mini is absent');
  const srv = await startFakeServer({ draft: defaultDraftReply });
  try {
    const { ws, gt } = workspace();
    assert.equal((await cli(['draft', '--workspace', ws, '--endpoint', srv.url, '--model', 'm', '--count', '3', '--no-cache'])).code, 0);
    const list = JSON.parse((await cli(['review', '--workspace', ws, '--list', '--json'])).stdout);
    const written = JSON.parse(readFileSync(gt, 'utf8')).questions.filter((q: { status?: string }) => q.status === 'draft').length;
    assert.ok(written >= 2);
    assert.equal(list.total, written);
    assert.ok(list.drafts.every((d: { resolves: boolean }) => d.resolves));
    const [a, b] = list.drafts.map((d: { id: string }) => d.id);
    const human = await cli(['review', '--workspace', ws]);
    assert.match(human.stdout, new RegExp(`${written} draft\\(s\\) in .* \\(not scored until accepted\\)`));
    assert.equal((await cli(['review', '--workspace', ws, '--accept', a])).code, 0);
    assert.equal((await cli(['review', '--workspace', ws, '--reject', b])).code, 0);
    const qs = JSON.parse(readFileSync(gt, 'utf8')).questions;
    assert.equal(qs.find((q: { id: string }) => q.id === a).status, undefined);
    assert.equal(qs.find((q: { id: string }) => q.id === b), undefined);
    const bad = await cli(['review', '--workspace', ws, '--accept', 'no-such-id']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /no question "no-such-id"/);
    const both = await cli(['review', '--workspace', ws, '--accept-all', '--list']);
    assert.equal(both.code, 2);
  } finally {
    await srv.close();
  }
});

test('an unreachable endpoint exits 2 naming the URL and writes nothing', async (t) => {
  if (!existsSync(MINI_GT)) return t.skip('samples/fastapi-mini is absent');
  const srv = await startFakeServer();
  const url = srv.url;
  await srv.close();
  const { ws, gt } = workspace();
  const before = readFileSync(gt, 'utf8');
  const r = await cli(['draft', '--workspace', ws, '--endpoint', url, '--model', 'm', '--count', '3', '--no-cache', '--config', writeConfig({ judge: { retries: 0 } })]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, new RegExp(`cannot reach the endpoint ${url.replace(/[.:/]/g, '\\$&')}`));
  assert.equal(readFileSync(gt, 'utf8'), before);
  assert.ok(!existsSync(`${gt}.bak`));
});

function writeConfig(obj: unknown): string {
  const f = join(tempDir('spanproof-draft-cfg-'), 'config.json');
  writeFileSync(f, JSON.stringify(obj));
  return f;
}

for (const keep of [false, true]) {
  test(`Ctrl-C ${keep ? 'with --keep-partial writes what verified' : 'writes nothing'}`, async (t) => {
    if (!existsSync(MINI_GT)) return t.skip('samples/fastapi-mini is absent');
    let kill = () => {};
    const srv = await startFakeServer({ draft: defaultDraftReply, script: (r) => (r.n === 1 ? undefined : { hang: true }) });
    srv.onRequest = (r) => { if (r.n === 2) setTimeout(() => kill(), 300); };
    try {
      const { ws, gt } = workspace();
      const before = readFileSync(gt, 'utf8');
      const r = await cli(['draft', '--workspace', ws, '--endpoint', srv.url, '--model', 'm', '--count', '4', '--no-cache', '--concurrency', '1', ...(keep ? ['--keep-partial'] : [])], { onSpawn: (k) => (kill = k) });
      assert.equal(r.code, 130, r.stderr);
      const now = readFileSync(gt, 'utf8');
      if (!keep) assert.equal(now, before);
      else {
        const drafts = JSON.parse(now).questions.filter((q: { status?: string }) => q.status === 'draft');
        assert.equal(drafts.length, 1);
      }
    } finally {
      await srv.close();
    }
  });
}

test('#16 items 11, 16: every drafting request failing (HTTP 500) or every reply unreadable exits 2 with the endpoint, the reason and a Fix — not "Drafted 0", exit 0; a partial failure stays exit 0 with a warning', async (t) => {
  if (!existsSync(MINI_GT)) return t.skip('samples/fastapi-mini is absent');
  let mode: 'boom' | 'garbage' | 'half' = 'boom';
  const srv = await startFakeServer({
    draft: defaultDraftReply,
    script: (r) => (mode === 'boom' ? { status: 500, headers: { 'retry-after-ms': '0' }, body: JSON.stringify({ error: { message: 'boom' } }) } : mode === 'garbage' || r.n % 2 === 0 ? { content: '{'.repeat(300 * 1024) } : undefined),
  });
  try {
    const { ws, gt } = workspace();
    const before = readFileSync(gt, 'utf8');
    const args = ['draft', '--workspace', ws, '--endpoint', srv.url, '--model', 'm', '--count', '3', '--no-cache', '--config', writeConfig({ judge: { retries: 0 } })];
    const r = await cli(args);
    assert.equal(r.code, 2, `${r.stdout}\n${r.stderr}`);
    assert.ok(r.stderr.includes(`every request to ${srv.url} failed`), r.stderr);
    assert.match(r.stderr, /most often: no reply: .*500.*boom/);
    assert.match(r.stderr, /Fix: /);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    mode = 'garbage';
    const g = await cli(args);
    assert.equal(g.code, 2, `${g.stdout}\n${g.stderr}`);
    assert.ok(g.stderr.includes(`no reply from ${srv.url} could be used`), g.stderr);
    assert.match(g.stderr, /Fix: .*JSON/);
    assert.equal(readFileSync(gt, 'utf8'), before, 'nothing written');
    mode = 'half';
    const h = await cli([...args.slice(0, 8), '6', ...args.slice(9)]);
    assert.equal(h.code, 0, h.stderr);
    assert.match(h.stdout, /warning: \d+ of \d+ passage request\(s\) got no usable reply/);
  } finally {
    await srv.close();
  }
});

test('#16 N2: a --sources glob over the limits (here 1001 characters) exits 2 naming --sources, before any request', async (t) => {
  if (!existsSync(MINI_GT)) return t.skip('samples/fastapi-mini is absent');
  const { ws, gt } = workspace();
  const before = readFileSync(gt, 'utf8');
  const r = await cli(['draft', '--workspace', ws, '--endpoint', 'http://127.0.0.1:9', '--model', 'm', '--count', '3', '--no-cache', '--sources', `**/${'x'.repeat(998)}`]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--sources: the glob "\*\*\/x{54}…" is 1001 characters long; at most 1000\. Fix: use a simpler glob/);
  assert.equal(readFileSync(gt, 'utf8'), before);
});
