// GroundTruthSync (src/extension/gtSync.ts): the interleavings of disk edits, watcher reloads and editor
// edits that used to lose data (SPEC §16: merged or refused, never overwritten silently), reproduced
// deterministically on a real temp dir by hooks that run a disk edit at an exact point of an operation.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { GroundTruthSync, realDisk, type GroundTruthDisk } from '../../../src/extension/gtSync';
import type { GroundTruthFile, Question } from '../../../src/core/groundtruth';
import { tempDir } from '../../helpers/tmp';
import { runBounded } from '../../helpers/bounded';
import { execFileSync } from 'node:child_process';

const q = (id: string): Question => ({ id, question: `Q ${id}`, evidence: [{ source: 'a.md', exact: `quote of ${id} long enough` }] });
const initial: GroundTruthFile = { spanproof: 1, questions: [q('a'), q('b'), q('c')] };

interface Hooks {
  /** Runs after a read got its text and before the read returns it (once, then cleared). */
  afterRead?: () => Promise<void> | void;
  /** Runs just before the real write (once). */
  beforeWrite?: () => void;
  /** Runs right after the real write (once). */
  afterWrite?: () => void;
}

function setup(): { file: string; sync: GroundTruthSync; hooks: Hooks; disk: () => GroundTruthFile; editOnDisk: (fn: (gt: GroundTruthFile) => void) => void; done: () => void } {
  const dir = tempDir('spanproof-gtsync-');
  const file = path.join(dir, 'groundtruth.json');
  writeFileSync(file, JSON.stringify(initial, null, 2) + '\n');
  const hooks: Hooks = {};
  const once = <K extends keyof Hooks>(k: K): Hooks[K] => {
    const h = hooks[k];
    delete hooks[k];
    return h;
  };
  const disk: GroundTruthDisk = {
    async read(f) {
      const text = await realDisk.read(f);
      await once('afterRead')?.();
      return text;
    },
    async write(f, gt, expected) {
      once('beforeWrite')?.();
      const r = await realDisk.write(f, gt, expected);
      once('afterWrite')?.();
      return r;
    },
  };
  const read = () => JSON.parse(readFileSync(file, 'utf8')) as GroundTruthFile;
  return {
    file,
    sync: new GroundTruthSync(file, disk),
    hooks,
    disk: read,
    // Like the e2e test and a user's other editor: a plain, non-atomic write behind the store's back.
    editOnDisk: (fn) => {
      const gt = read();
      fn(gt);
      writeFileSync(file, JSON.stringify(gt, null, 2) + '\n');
    },
    done: () => rmSync(dir, { recursive: true, force: true }),
  };
}

type Setup = ReturnType<typeof setup>;

/** Each test: a fresh temp file with `initial`, loaded into a GroundTruthSync; removed afterwards. */
const withSync = (fn: (t: Setup) => Promise<void>) => async () => {
  const t = setup();
  try {
    await t.sync.reload();
    await fn(t);
  } finally {
    t.done();
  }
};

/** An in-memory edit the way `GroundTruthStore.mutate` makes it: copy, edit, replace. */
const edit = (sync: GroundTruthSync, fn: (gt: GroundTruthFile) => void) => {
  const next = structuredClone(sync.gt!);
  fn(next);
  sync.gt = next;
};

test('a disk edit made right after our own write is merged by the next write, not taken for our write', withSync(async (t) => {
  edit(t.sync, (gt) => void (gt.questions[0].question = 'moved offsets'));
  // The e2e race: the test saw our write on disk and edited the file before the store had finished
  // recording what it wrote.
  t.hooks.afterWrite = () => t.editOnDisk((gt) => void (gt.questions[1].question = 'Edited on disk'));
  assert.equal((await t.sync.write()).outcome, 'written');
  edit(t.sync, (gt) => void (gt.questions[2].tags = ['edited-in-editor']));
  assert.equal((await t.sync.write()).outcome, 'merged');
  const after = t.disk();
  assert.deepEqual(after.questions.map((x) => x.question), ['moved offsets', 'Edited on disk', 'Q c']);
  assert.deepEqual(after.questions[2].tags, ['edited-in-editor']);
}));

test('a watcher reload whose read completes after an editor edit merges it instead of dropping the edit', withSync(async (t) => {
  t.editOnDisk((gt) => void (gt.questions[0].question = 'Edited on disk'));
  // The watcher's read has the disk text, but its continuation runs only after the editor edit.
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  t.hooks.afterRead = () => gate;
  const synced = t.sync.syncFromDisk();
  await new Promise((r) => setImmediate(r));
  edit(t.sync, (gt) => void (gt.questions[1].tags = ['edited-in-editor']));
  const written = t.sync.write();
  release();
  assert.equal(await synced, 'merged');
  assert.equal((await written).outcome, 'written');
  for (const gt of [t.disk(), t.sync.gt!]) {
    assert.equal(gt.questions[0].question, 'Edited on disk');
    assert.deepEqual(gt.questions[1].tags, ['edited-in-editor']);
  }
  assert.equal(t.sync.dirty, false);
}));

test('our own write seen by the watcher is ignored by content; a foreign edit reloads when nothing is unsaved', withSync(async (t) => {
  edit(t.sync, (gt) => void (gt.questions[0].question = 'ours'));
  await t.sync.write();
  assert.equal(await t.sync.syncFromDisk(), 'same');
  t.editOnDisk((gt) => void (gt.questions[2].question = 'theirs'));
  assert.equal(await t.sync.syncFromDisk(), 'reloaded');
  assert.deepEqual(t.sync.gt!.questions.map((x) => x.question), ['ours', 'Q b', 'theirs']);
}));

test('the same question edited on disk and here is refused and the disk version kept byte for byte', withSync(async (t) => {
  t.editOnDisk((gt) => void (gt.questions[2].question = 'Disk wording'));
  const diskText = readFileSync(t.file, 'utf8');
  edit(t.sync, (gt) => void (gt.questions[2].question = 'Editor wording'));
  assert.equal(await t.sync.syncFromDisk(), 'kept');
  const r = await t.sync.write();
  assert.equal(r.outcome, 'conflict');
  assert.deepEqual(r.conflicts, ['c']);
  assert.equal(readFileSync(t.file, 'utf8'), diskText);
}));

test('a disk edit between the write\'s read and its rename is refused by writeGroundTruth, then merged', withSync(async (t) => {
  edit(t.sync, (gt) => void (gt.questions[1].tags = ['edited-in-editor']));
  t.hooks.beforeWrite = () => t.editOnDisk((gt) => void (gt.questions[0].question = 'Edited on disk'));
  assert.equal((await t.sync.write()).outcome, 'merged');
  const after = t.disk();
  assert.equal(after.questions[0].question, 'Edited on disk');
  assert.deepEqual(after.questions[1].tags, ['edited-in-editor']);
}));

test('an editor edit made while a merging write is in flight is rebased onto it and written next', withSync(async (t) => {
  t.editOnDisk((gt) => void (gt.questions[0].question = 'Edited on disk'));
  edit(t.sync, (gt) => void (gt.questions[1].tags = ['first']));
  t.hooks.beforeWrite = () => edit(t.sync, (gt) => void (gt.questions[2].tags = ['second']));
  assert.equal((await t.sync.write()).outcome, 'merged');
  assert.deepEqual(t.sync.gt!.questions.map((x) => [x.question, x.tags]), [['Edited on disk', undefined], ['Q b', ['first']], ['Q c', ['second']]]);
  assert.equal(t.sync.dirty, true);
  assert.equal((await t.sync.write()).outcome, 'written');
  assert.deepEqual(t.disk().questions.map((x) => [x.question, x.tags]), [['Edited on disk', undefined], ['Q b', ['first']], ['Q c', ['second']]]);
}));

test('the editor\'s disk read refuses a ground truth that is a FIFO at once (it never answered)', { skip: process.platform === 'win32' }, (t) => {
  const dir = tempDir('spanproof-gtsync-fifo-', t);
  const fifo = path.join(dir, 'groundtruth.json');
  execFileSync('mkfifo', [fifo]);
  const r = runBounded(`require('./src/extension/gtSync').realDisk.read(${JSON.stringify(fifo)}).then(() => console.log('read'), (e) => console.log(e.code + ' ' + e.message))`, 30_000);
  assert.equal(r.timedOut, false, 'the read hung');
  assert.equal(r.stdout.trim(), `bad-input ${fifo}: the ground-truth file is a named pipe (FIFO), not a regular file; it was not read. Fix: replace it with a regular file (a named pipe, device or socket is never read, also not through a symbolic link).`);
});
