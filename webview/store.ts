/**
 * A small state store: one immutable state object, shallow-merged updates, synchronous listeners.
 * The panel element re-renders from it (lit diffs the DOM, so only what changed is touched).
 */
export type Listener<S> = (state: S, previous: S) => void;

export class Store<S extends object> {
  private listeners: Array<Listener<S>> = [];
  constructor(private current: S) {}

  get state(): S {
    return this.current;
  }

  /** Merges `patch` (or the patch `f` computes from the current state) and notifies the listeners. */
  set(patch: Partial<S> | ((s: S) => Partial<S>)): void {
    const previous = this.current;
    this.current = { ...previous, ...(typeof patch === 'function' ? patch(previous) : patch) };
    for (const l of this.listeners) l(this.current, previous);
  }

  subscribe(l: Listener<S>): () => void {
    this.listeners.push(l);
    return () => {
      this.listeners = this.listeners.filter((x) => x !== l);
    };
  }
}
