/**
 * Memoises a function on its last arguments (compared with Object.is): chart configurations are
 * rebuilt only when the data, the theme or a choice they depend on changes, so a progress tick that
 * re-renders the panel leaves the charts untouched.
 */
export function memoLast<A extends readonly unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  let last: { args: A; result: R } | undefined;
  return (...args: A): R => {
    if (last && last.args.length === args.length && last.args.every((a, i) => Object.is(a, args[i]))) return last.result;
    const result = fn(...args);
    last = { args, result };
    return result;
  };
}
