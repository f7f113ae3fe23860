// A full disk for real: a 16 kB tmpfs mounted in a user + mount namespace (`unshare -rm`, Linux), the
// pull running in a child process inside it against a fake hub on 127.0.0.1 (test/helpers/fakeHub.ts).
// (1) Not enough room: refused before any byte is fetched (statfs). (2) Enough room by the numbers but
// not in 4 kB pages: the kernel answers ENOSPC mid-download; the partial download is deleted and
// nothing is left on the file system. Skipped where unshare or tmpfs mounts are not allowed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogueEntry } from '../../../../src/core/models/catalogue';
import { startFakeHub } from '../../../helpers/fakeHub';
import { REPO } from '../../../helpers/paths';
import { tempDir } from '../../../helpers/tmp';

const REV = 'd15cf011'.padEnd(40, '0');
const canMount = spawnSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=16k tmpfs /mnt'], { encoding: 'utf8' }).status === 0;

function entryOf(sizes: number[]): { entry: CatalogueEntry; files: Record<string, Uint8Array> } {
  const files: Record<string, Uint8Array> = {};
  const list = sizes.map((n, i) => {
    const b = randomBytes(n);
    files[`test-org/blobs@${REV}/part${i}.bin`] = b;
    return { path: `part${i}.bin`, sha256: createHash('sha256').update(b).digest('hex'), size: n, source: 'test' };
  });
  return { entry: { name: 'blobs', kind: 'embedder', repo: 'test-org/blobs', revision: REV, revisionSource: 'test', licence: 'test', description: 'test', files: list }, files };
}

/** Runs pullModel in a child with its store on a fresh 16 kB tmpfs; returns what the child saw. */
async function pullOnTmpfs(t: { after(fn: () => unknown): void }, entry: CatalogueEntry, hubUrl: string): Promise<{ error: { code: string; message: string } | null; left: string[] }> {
  const dir = tempDir('sp-tmpfs-', t);
  const script = join(dir, 'pull.ts');
  const mnt = join(dir, 'mnt');
  writeFileSync(script, `
import { mkdirSync, readdirSync } from 'node:fs';
import { pullModel } from ${JSON.stringify(join(REPO, 'src/core/models/catalogue'))};
const store = process.argv[2];
const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(d + '/' + e.name).map((p) => e.name + '/' + p) : [e.name]));
pullModel(${JSON.stringify(entry)}, { store, hub: ${JSON.stringify(hubUrl)}, proxyEnv: { HTTP_PROXY: '', HTTPS_PROXY: '' } })
  .then(() => ({ error: null }), (e) => ({ error: { code: e.code, message: e.message } }))
  .then((r) => { console.log(JSON.stringify({ ...r, left: walk(store) })); });
`);
  const cmd = `mkdir -p ${mnt} && mount -t tmpfs -o size=16k tmpfs ${mnt} && exec ${JSON.stringify(process.execPath)} --import tsx ${script} ${mnt}/models`;
  // Asynchronously: the fake hub answers from this process while the child runs.
  const child = spawn('unshare', ['-rm', 'sh', '-c', cmd], { cwd: REPO });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (err += d));
  const status = await new Promise<number | null>((r) => child.on('close', r));
  assert.equal(status, 0, err);
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

test('a 16 kB tmpfs: a 40 kB model is refused before downloading; 3 × 4097 bytes runs out of pages → ENOSPC, nothing left', { skip: !canMount && 'unshare -rm with a tmpfs mount is not allowed here' }, async (t) => {
  const big = entryOf([40000]);
  const small = entryOf([4097, 4097, 4097]);
  const hub = await startFakeHub({ files: { ...big.files, ...small.files } });
  t.after(() => hub.close());

  const a = await pullOnTmpfs(t, big.entry, hub.url);
  assert.equal(a.error?.code, 'model');
  assert.match(a.error!.message, /pull of blobs needs 40\.0 kB but only 1\d\.\d kB is free under .*Fix: free space there or set SPANPROOF_MODELS_DIR/);
  assert.equal(hub.requests.length, 0, 'refused before any request');
  assert.deepEqual(a.left, [], 'nothing left in the store');

  const b = await pullOnTmpfs(t, small.entry, hub.url);
  assert.equal(b.error?.code, 'model');
  assert.match(b.error!.message, /the disk is full \(ENOSPC\).*The partial download was deleted\./);
  assert.ok(hub.requests.length >= 2, 'it started downloading');
  assert.deepEqual(b.left, [], 'no model folder, no partial download');
});
