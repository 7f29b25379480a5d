/**
 * Interceptors (service policies): named steps around an operation, in declared order — the
 * service's first, then the operation's. Each gets the call and `next`; it may act before and
 * after `next()`, change the result, or not call `next` at all (short-circuit: security refusing a
 * caller, a cache answering). Whatever one throws becomes the caller's error envelope.
 *
 * @example
 * const timing: Interceptor = {
 *   name: 'timing',
 *   async intercept(call, next) {
 *     const started = Date.now();
 *     try { return await next(); } finally { call.context.logger.info({ op: call.context.operation, ms: Date.now() - started }); }
 *   },
 * };
 */
import type { CallContext } from '../definition/call-context';

export interface InterceptedCall {
  /** The input, already checked against the operation's schema. */
  readonly input: unknown;
  readonly context: CallContext;
}

export interface Interceptor {
  /** Shown in `/service-info/{svc}` and the admin UI. */
  readonly name: string;
  intercept(call: InterceptedCall, next: () => Promise<unknown>): Promise<unknown>;
}

/** Runs `interceptors` in order around `handler`. */
export function runChain(
  interceptors: readonly Interceptor[],
  call: InterceptedCall,
  handler: () => Promise<unknown>,
): Promise<unknown> {
  const step = (index: number): Promise<unknown> => {
    const interceptor = interceptors[index];
    if (interceptor === undefined) return handler();
    let called = false;
    return interceptor.intercept(call, () => {
      if (called) return Promise.reject(new Error(`interceptor '${interceptor.name}' called next() twice`));
      called = true;
      return step(index + 1);
    });
  };
  return step(0);
}
