// Catalogue download (SPEC §5.3) against a fake hub on 127.0.0.1 that the test starts
// (test/helpers/fakeHub.ts), serving tiny BERT-shaped models the test builds: verified pull through a
// cross-origin CDN redirect, progress, resume with HTTP Range, a server that ignores Range, hash
// mismatch, truncated file, 404, a full disk (/dev/full: the kernel's own ENOSPC), an idle connection,
// cancel, the proxy variables, unpinned entries, a pull already running, and remove. After a failure
// there is never a model folder, and the partial download is kept only where a resume can use it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadEmbedderFromFolder } from '../../../../src/core/models';
import { isSpanproofError } from '../../../../src/core/errors';
import { type CatalogueEntry, modelState, pullModel, removeModel, resolvePulledModel } from '../../../../src/core/models/catalogue';
import { tinyCrossEncoderOnnx, tinyEmbedderOnnx, tinyTokenizerJson, tinyWeights, writeFolder } from '../../../fixtures/models/tinyModels';
import { runGrid } from '../../../../src/core/grid/run';
import { MINI, MINI_GT, smallSettings } from '../../../helpers/grid';
import { startFakeHub, startFakeProxy, type HubScript, type HubRequest } from '../../../helpers/fakeHub';
import { tempDir } from '../../../helpers/tmp';

const REV = 'c0ffee'.padEnd(40, '0');
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

function tinyModel() {
  const files: Record<string, Uint8Array> = {
    'onnx/model.onnx': tinyEmbedderOnnx(tinyWeights()),
    'tokenizer.json': Buffer.from(tinyTokenizerJson()),
    '1_Pooling/config.json': Buffer.from(JSON.stringify({ word_embedding_dimension: 4, pooling_mode_cls_token: true })),
  };
  const entry: CatalogueEntry = {
    name: 'tiny-embedder',
    kind: 'embedder',
    repo: 'test-org/tiny-embedder',
    revision: REV,
    revisionSource: 'built by the test',
    licence: 'test',
    description: 'a 4-d BERT-shaped test model',
    files: Object.entries(files).map(([path, b]) => ({ path, sha256: sha(b), size: b.length, source: 'built by the test' })),
  };
  const served = Object.fromEntries(Object.entries(files).map(([p, b]) => [`${entry.repo}@${REV}/${p}`, b]));
  return { files, entry, served, onnx: files['onnx/model.onnx'] };
}

const onnxGets = (reqs: HubRequest[]) => reqs.filter((r) => r.path.endsWith('model.onnx') || r.origin === 'cdn');
const noProxy = { HTTP_PROXY: '', HTTPS_PROXY: '' };

async function setup(t: { after(fn: () => unknown): void }, script?: (r: HubRequest) => HubScript, extra: { cdn?: boolean; ignoreRange?: boolean } = {}) {
  const m = tinyModel();
  const hub = await startFakeHub({ files: m.served, script, ...extra });
  t.after(() => hub.close());
  const store = tempDir('sp-store-', t);
  return { ...m, hub, store, opts: { store, hub: hub.url, proxyEnv: noProxy } };
}

/** Nothing of the model where the loaders look; `partial` says whether resumable bytes remain. */
function assertNoModel(store: string, name: string, partial: boolean): void {
  assert.equal(existsSync(join(store, name)), false, 'no model folder after a failed pull');
  const p = join(store, '.partial');
  assert.equal(existsSync(p) && readdirSync(p).length > 0, partial, partial ? 'the partial download is kept for a resume' : 'the partial download is deleted');
}

test('pull: every file verified, through the CDN redirect, progress to the total, manifest; the folder loads like its source', async (t) => {
  const { entry, files, hub, store, opts } = await setup(t, undefined, { cdn: true });
  const seen: number[] = [];
  const dir = await pullModel(entry, { ...opts, onProgress: (p) => seen.push(p.doneBytes) });
  assert.equal(dir, join(store, 'tiny-embedder'));
  const total = entry.files.reduce((s, f) => s + f.size!, 0);
  assert.equal(seen.at(-1), total);
  assert.ok(seen.every((v, i) => i === 0 || v >= seen[i - 1]), 'progress never goes back');
  assert.equal(hub.requests.filter((r) => r.origin === 'cdn').length, 3, 'each file fetched from the CDN origin after the redirect');
  for (const [p, b] of Object.entries(files)) assert.deepEqual(readFileSync(join(dir, p)), Buffer.from(b));
  const manifest = JSON.parse(readFileSync(join(dir, 'spanproof-model.json'), 'utf8'));
  assert.equal(manifest.revision, REV);
  assert.deepEqual(readdirSync(store).sort(), ['.partial', 'tiny-embedder'].filter((n) => existsSync(join(store, n))).sort());
  assert.equal(existsSync(join(store, '.partial', `tiny-embedder@${REV}`)), false);

  // It loads through the model-folder code path and embeds exactly as the folder it came from.
  const src = writeFolder(tempDir('sp-src-', t), 'tiny-embedder', files);
  const [a, b] = [await loadEmbedderFromFolder(dir, { threads: 1 }), await loadEmbedderFromFolder(src, { threads: 1 })];
  assert.deepEqual([...(await a.embed(['the cat sat', 'a dog ran']))], [...(await b.embed(['the cat sat', 'a dog ran']))]);
  assert.equal(a.id.split('@')[1], b.id.split('@')[1], 'same content hash');
  await a.dispose();
  await b.dispose();

  assert.equal(resolvePulledModel('tiny-embedder', store, [entry]), dir);
  assert.equal(modelState(entry, store).state, 'pulled');
  const n = hub.requests.length;
  await pullModel(entry, opts);
  assert.equal(hub.requests.length, n, 'already pulled at the pinned revision: no request');
});

test('resume: a dropped connection keeps the bytes; the next pull asks Range: bytes=N- and completes', async (t) => {
  let first = true;
  const { entry, hub, store, opts, onnx } = await setup(t, (r) => (r.path.endsWith('model.onnx') && first ? ((first = false), { cutAfter: 700 }) : undefined));
  await assert.rejects(pullModel(entry, opts), (e: unknown) => {
    assert.ok(isSpanproofError(e) && e.code === 'model');
    assert.match((e as Error).message, /pull of tiny-embedder failed: .*model\.onnx/);
    assert.match((e as Error).message, /Fix: check the network or the proxy \(HTTPS_PROXY, HTTP_PROXY, NO_PROXY\), then run spanproof models pull tiny-embedder again — it resumes/);
    return true;
  });
  assertNoModel(store, 'tiny-embedder', true);
  const st = modelState(entry, store);
  assert.equal(st.state, 'partial');
  await pullModel(entry, opts);
  const gets = onnxGets(hub.requests);
  assert.equal(gets.length, 2);
  assert.equal(gets[0].range, undefined);
  assert.equal(gets[1].range, 'bytes=700-');
  assert.deepEqual(readFileSync(join(store, 'tiny-embedder', 'onnx', 'model.onnx')), Buffer.from(onnx));
  assertNoModel(join(store, 'nothing'), 'x', false);
});

test('a server that ignores Range sends 200: the file restarts from byte 0 and is still verified', async (t) => {
  let first = true;
  const { entry, hub, store, opts, onnx } = await setup(t, (r) => (r.path.endsWith('model.onnx') && first ? ((first = false), { cutAfter: 500 }) : undefined), { ignoreRange: true });
  await assert.rejects(pullModel(entry, opts));
  // The resume asks for the bytes after those kept (under load the reset can arrive before any of
  // the 500 sent bytes is read: then nothing is kept and no Range is asked); the server ignores it
  // and sends the whole file, which must still be verified.
  const part = join(store, '.partial', `${entry.name}@${entry.revision}`, 'onnx', 'model.onnx.part');
  const kept = existsSync(part) ? statSync(part).size : 0;
  await pullModel(entry, opts);
  assert.equal(onnxGets(hub.requests)[1].range, kept > 0 ? `bytes=${kept}-` : undefined);
  assert.deepEqual(readFileSync(join(store, 'tiny-embedder', 'onnx', 'model.onnx')), Buffer.from(onnx));
});

test('hash mismatch: the corrupt file is deleted, no model folder, the message says what to do', async (t) => {
  const { entry, store, opts, onnx } = await setup(t, (r) => {
    if (!r.path.endsWith('model.onnx')) return undefined;
    const bad = Buffer.from(onnx);
    bad[100] ^= 0xff;
    return { body: bad };
  });
  await assert.rejects(pullModel(entry, opts), (e: unknown) => {
    assert.ok(isSpanproofError(e) && e.code === 'model');
    assert.match((e as Error).message, new RegExp(`model\\.onnx has SHA-256 [0-9a-f]{64}, the catalogue pins ${entry.files[0].sha256}`));
    assert.match((e as Error).message, /Fix: the download was corrupted or the hub's file is not the pinned one; run spanproof models pull tiny-embedder again \(the bad file was deleted\)/);
    return true;
  });
  assertNoModel(store, 'tiny-embedder', false);
});

test('truncated file (the server ends early without an error): size mismatch, deleted', async (t) => {
  const { entry, store, opts, onnx } = await setup(t, (r) => (r.path.endsWith('model.onnx') ? { body: Buffer.from(onnx).subarray(0, 300) } : undefined));
  await assert.rejects(pullModel(entry, opts), /sent 300 bytes, the catalogue pins \d+.*Fix: the download was cut short/);
  assertNoModel(store, 'tiny-embedder', false);
});

test('404: the pinned file is not on the hub; nothing left behind', async (t) => {
  const { entry, store, opts } = await setup(t, (r) => (r.path.endsWith('tokenizer.json') ? { status: 404 } : undefined));
  await assert.rejects(pullModel(entry, opts), (e: unknown) => {
    assert.match((e as Error).message, /tokenizer\.json is not on the hub \(HTTP 404\)/);
    assert.match((e as Error).message, new RegExp(`Fix: the pinned revision ${REV} may have been removed from test-org/tiny-embedder`));
    return true;
  });
  assertNoModel(store, 'tiny-embedder', false);
});

test('disk full (writes go to /dev/full, which fails every write with ENOSPC): deleted, says how much room is needed', { skip: !existsSync('/dev/full') && 'no /dev/full on this system' }, async (t) => {
  const { entry, store, opts } = await setup(t);
  const part = join(store, '.partial', `tiny-embedder@${REV}`, 'onnx');
  mkdirSync(part, { recursive: true });
  symlinkSync('/dev/full', join(part, 'model.onnx.part'));
  await assert.rejects(pullModel(entry, opts), (e: unknown) => {
    assert.ok(isSpanproofError(e) && e.code === 'model');
    assert.match((e as Error).message, /the disk is full \(ENOSPC\)/);
    assert.match((e as Error).message, /Fix: free at least \d+\.\d kB under .* \(or set SPANPROOF_MODELS_DIR to a disk with room\), then run spanproof models pull tiny-embedder again\. The partial download was deleted\./);
    return true;
  });
  assertNoModel(store, 'tiny-embedder', false);
});

test('an idle connection (headers, then silence) times out and keeps the bytes; cancel keeps them too', async (t) => {
  const { entry, store, opts } = await setup(t, (r) => (r.path.endsWith('model.onnx') ? { stall: true } : undefined));
  await assert.rejects(pullModel(entry, { ...opts, idleTimeoutMs: 300 }), /stopped sending data.*Fix: run spanproof models pull tiny-embedder again — it resumes/);
  assertNoModel(store, 'tiny-embedder', true);
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 150);
  await assert.rejects(pullModel(entry, { ...opts, signal: ac.signal }), (e: unknown) => isSpanproofError(e) && e.code === 'cancelled' && /kept for the next pull/.test((e as Error).message));
  assertNoModel(store, 'tiny-embedder', true);
});

test('HTTP_PROXY routes the download through the proxy; NO_PROXY exempts the host', async (t) => {
  const { entry, hub, store, opts } = await setup(t);
  const proxy = await startFakeProxy();
  t.after(() => proxy.close());
  await pullModel(entry, { ...opts, proxyEnv: { HTTP_PROXY: proxy.url, NO_PROXY: '' } });
  const host = new URL(hub.url).host;
  assert.ok(proxy.connects.length >= 1 && proxy.connects.every((c) => c === host), `tunnels to the hub only: ${proxy.connects.join(', ')}`);
  assert.equal(hub.requests.length, 3, 'the three files came through the tunnel');
  const tunnels = proxy.connects.length;
  removeModel('tiny-embedder', store, [entry]);
  await pullModel(entry, { ...opts, proxyEnv: { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } });
  assert.equal(proxy.connects.length, tunnels, 'NO_PROXY host: direct, no tunnel');
  assert.equal(hub.requests.length, 6);
});

test('an entry without pins is refused before any request, naming what is missing', async (t) => {
  const { entry, hub, opts } = await setup(t);
  const unpinned: CatalogueEntry = { ...entry, files: entry.files.map((f, i) => (i === 1 ? { ...f, sha256: null, size: null } : f)) };
  await assert.rejects(pullModel(unpinned, opts), /its tokenizer\.json sha256, tokenizer\.json size are not pinned.*Fix: export test-org\/tiny-embedder yourself/);
  await assert.rejects(pullModel({ ...entry, revision: null }, opts), /its revision is not pinned/);
  assert.equal(hub.requests.length, 0);
});

test('a second pull of the same model while one runs (live pid in the lock) is refused; remove deletes folder and partials', async (t) => {
  const { entry, store, opts } = await setup(t);
  const work = join(store, '.partial', `tiny-embedder@${REV}`);
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, '.lock'), String(process.ppid));
  await assert.rejects(pullModel(entry, opts), /another pull of tiny-embedder is running/);
  writeFileSync(join(work, '.lock'), '999999999'); // a dead pid: a stale lock is taken over
  const dir = await pullModel(entry, opts);
  const r = removeModel('TINY-embedder', store, [entry]);
  assert.equal(r.dir, dir);
  assert.ok(r.bytes > 0);
  assert.equal(existsSync(dir), false);
  assert.throws(() => removeModel('tiny-embedder', store, [entry]), /no downloaded model "tiny-embedder"/);
  assert.throws(() => resolvePulledModel('tiny-embedder', store, [entry]), /is not downloaded.*Fix: run: spanproof models pull tiny-embedder/);
});

test('a pulled embedder and a pulled cross-encoder run in a grid through the model-folder settings', async (t) => {
  const emb = tinyModel();
  const ce = { ...emb, entry: { ...emb.entry, name: 'tiny-cross-encoder', kind: 'cross-encoder' as const, repo: 'test-org/tiny-ce' } };
  const ceOnnx = tinyCrossEncoderOnnx(tinyWeights(1), 1);
  ce.entry.files = ce.entry.files.filter((f) => !f.path.startsWith('1_Pooling')).map((f) => (f.path === 'onnx/model.onnx' ? { ...f, sha256: sha(ceOnnx), size: ceOnnx.length } : f));
  const served = { ...emb.served, [`test-org/tiny-ce@${REV}/onnx/model.onnx`]: ceOnnx, [`test-org/tiny-ce@${REV}/tokenizer.json`]: emb.files['tokenizer.json'] };
  const hub = await startFakeHub({ files: served });
  t.after(() => hub.close());
  const store = tempDir('sp-store-', t);
  const opts = { store, hub: hub.url, proxyEnv: noProxy };
  const embDir = await pullModel(emb.entry, opts);
  const ceDir = await pullModel(ce.entry, opts);
  const root = tempDir('sp-grid-', t);
  const r = await runGrid({
    workspace: MINI,
    groundTruthFile: MINI_GT,
    settings: smallSettings({ chunkers: ['heading'], retrievers: ['dense'], rerank: [false, true], embeddingModel: embDir, rerankerModel: ceDir }),
    runsRoot: join(root, 'runs'),
    cacheDir: join(root, 'cache'),
  });
  assert.equal(r.status, 'succeeded');
  assert.deepEqual(r.results.configs.map((c) => c.id).sort(), ['heading/dense/none', 'heading/dense/rerank']);
  for (const c of r.results.configs) assert.deepEqual(c.failed, [], `${c.id}: no failed item`);
});
