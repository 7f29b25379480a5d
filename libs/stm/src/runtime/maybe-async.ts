/**
 * Values that are there now or later. The machine runs actions and conditions that are usually
 * synchronous (assignments, comparisons); awaiting each one would make a promise per action,
 * condition and step. With these helpers a call stays synchronous until an action or condition
 * actually returns a promise, and continues asynchronously from that point only.
 */
export type Maybe<T> = T | Promise<T>;

export function isThenable<T>(value: Maybe<T> | PromiseLike<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/** `f(value)` now when `value` is there, else once it is. */
export function andThen<T, U>(value: Maybe<T>, f: (v: T) => Maybe<U>): Maybe<U> {
  return isThenable(value) ? Promise.resolve(value).then(f) : f(value);
}

/** Runs `step(0)`, `step(1)`, … `step(count - 1)` in order, waiting only for steps that return a promise. */
export function eachInOrder(count: number, step: (i: number) => Maybe<void>, from = 0): Maybe<void> {
  for (let i = from; i < count; i++) {
    const result = step(i);
    if (isThenable(result)) return Promise.resolve(result).then(() => eachInOrder(count, step, i + 1));
  }
  return undefined;
}
