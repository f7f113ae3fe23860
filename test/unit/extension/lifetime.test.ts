// Lifetimes (src/extension/lifetime.ts): disposal order, idempotence, late additions, per-folder scopes.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Debounced, DisposableStore, Scopes } from '../../../src/extension/lifetime';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a DisposableStore releases last-added first, once, and disposes late additions at once', () => {
  const order: string[] = [];
  const s = new DisposableStore();
  s.add({ dispose: () => order.push('emitter') });
  s.add({ dispose: () => order.push('listener') });
  s.dispose();
  s.dispose();
  assert.deepEqual(order, ['listener', 'emitter']);
  assert.equal(s.disposed, true);
  s.add({ dispose: () => order.push('late') });
  assert.deepEqual(order, ['listener', 'emitter', 'late']);
});

test('a throwing dispose does not stop the others; the first error is rethrown', () => {
  const order: string[] = [];
  const s = new DisposableStore();
  s.add({ dispose: () => order.push('a') });
  s.add({ dispose: () => { throw new Error('first'); } });
  s.add({ dispose: () => { throw new Error('second'); } });
  assert.throws(() => s.dispose(), /second/); // last added is disposed first
  assert.deepEqual(order, ['a']);
});

test('a store timer never fires after dispose', async () => {
  let fired = 0;
  const s = new DisposableStore();
  s.timeout(() => fired++, 10);
  s.dispose();
  await sleep(30);
  assert.equal(fired, 0);
});

test('Debounced runs once per burst and never after dispose', async () => {
  let n = 0;
  const d = new Debounced(() => n++, 15);
  d.schedule();
  d.schedule();
  d.schedule();
  assert.equal(d.pending, true);
  await sleep(40);
  assert.equal(n, 1);
  d.schedule();
  d.dispose();
  d.schedule();
  await sleep(40);
  assert.equal(n, 1);
  assert.equal(d.pending, false);
});

test('Scopes: remove disposes the folder scope; adding the same key again replaces (and disposes) the old one', () => {
  const log: string[] = [];
  const scope = (name: string) => ({ name, dispose: () => log.push(`dispose ${name}`) });
  const scopes = new Scopes<ReturnType<typeof scope>>();
  scopes.add('file:///a', scope('a1'));
  scopes.add('file:///b', scope('b'));
  scopes.add('file:///a', scope('a2'));
  assert.deepEqual(log, ['dispose a1']);
  assert.equal(scopes.size, 2);
  assert.equal(scopes.get('file:///a')?.name, 'a2');
  assert.equal(scopes.remove('file:///a'), true);
  assert.equal(scopes.remove('file:///a'), false);
  assert.equal(scopes.get('file:///a'), undefined);
  scopes.dispose();
  assert.deepEqual(log, ['dispose a1', 'dispose a2', 'dispose b']);
  assert.equal(scopes.size, 0);
});

test('a watcher event after its folder scope is disposed does not reach the store (the guard FolderScope uses)', () => {
  // Simulates the event source of a FileSystemWatcher: listeners are held until disposed.
  const listeners = new Set<() => void>();
  const on = (fn: () => void) => {
    listeners.add(fn);
    return { dispose: () => listeners.delete(fn) };
  };
  let reloads = 0;
  const scope = new DisposableStore();
  scope.add(on(() => reloads++));
  for (const l of listeners) l();
  scope.dispose();
  for (const l of listeners) l();
  assert.equal(reloads, 1);
  assert.equal(listeners.size, 0);
});
