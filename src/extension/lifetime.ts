/**
 * Lifetimes of the extension's resources, vscode-free so they are unit-tested
 * (test/unit/extension/lifetime.test.ts). Three lifetimes (after rust-analyzer's `ctx.ts`, which splits
 * extension-lifetime from restartable-client cleanup):
 *
 * - **extension**: created in `activate`, released on deactivate (`context.subscriptions`);
 * - **worker**: the grid worker and what listens to it, restarted after a crash (`Runner`);
 * - **folder**: one `Scope` per workspace folder — its ground-truth store, runs model, file watchers and
 *   timers — released as a whole when the folder leaves the workspace, so nothing keeps calling a
 *   disposed store.
 */

/** Anything with `dispose()` (structurally the same as `vscode.Disposable`). */
export interface Disposable {
  dispose(): unknown;
}

/**
 * An ordered list of disposables released together, last added first (so a listener goes before the
 * emitter it listens to). Idempotent; anything added after `dispose()` is disposed at once. A throwing
 * `dispose()` does not stop the others: the first error is rethrown after all ran.
 */
export class DisposableStore implements Disposable {
  private items: Disposable[] = [];
  private done = false;

  get disposed(): boolean {
    return this.done;
  }

  /** Add `d` and return it (so `const w = scope.add(createWatcher())` reads naturally). */
  add<T extends Disposable>(d: T): T {
    if (this.done) d.dispose();
    else this.items.push(d);
    return d;
  }

  /** A timer that is cleared when the store is disposed. */
  timeout(fn: () => void, ms: number): Disposable {
    const t = setTimeout(fn, ms);
    return this.add({ dispose: () => clearTimeout(t) });
  }

  dispose(): void {
    if (this.done) return;
    this.done = true;
    let first: unknown;
    for (const d of this.items.splice(0).reverse()) {
      try {
        d.dispose();
      } catch (e) {
        first ??= e;
      }
    }
    if (first !== undefined) throw first;
  }
}

/**
 * A debounced call owned by a scope: `schedule()` (re)starts the delay, `dispose()` cancels it for good.
 * Used for "re-resolve at most every 100 ms while typing" and "refresh runs after the watcher settles".
 */
export class Debounced implements Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private done = false;

  constructor(
    private readonly fn: () => void,
    private readonly ms: number,
  ) {}

  schedule(): void {
    if (this.done) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.fn();
    }, this.ms);
  }

  get pending(): boolean {
    return this.timer !== undefined;
  }

  dispose(): void {
    this.done = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * Per-key scopes (one per workspace folder, keyed by its URI string): `add` creates one, `remove`
 * disposes it and forgets it, `dispose` releases all. A key added twice replaces (and disposes) the old
 * scope, so a folder removed and added again never has two live scopes.
 */
export class Scopes<S extends Disposable> implements Disposable {
  private readonly map = new Map<string, S>();

  add(key: string, scope: S): S {
    this.remove(key);
    this.map.set(key, scope);
    return scope;
  }

  get(key: string): S | undefined {
    return this.map.get(key);
  }

  /** Dispose and forget the scope of `key`; true when there was one. */
  remove(key: string): boolean {
    const s = this.map.get(key);
    if (!s) return false;
    this.map.delete(key);
    s.dispose();
    return true;
  }

  values(): IterableIterator<S> {
    return this.map.values();
  }

  get size(): number {
    return this.map.size;
  }

  dispose(): void {
    for (const k of [...this.map.keys()]) this.remove(k);
  }
}
