/**
 * At most a few health probes in flight: a list of 200 services fills its badges progressively
 * instead of opening 200 requests at once against the host.
 */
export function makeLimiter(concurrency: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  const next = () => {
    running -= 1;
    waiting.shift()?.();
  };
  return async function limit<T>(task: () => Promise<T>): Promise<T> {
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await task();
    } finally {
      next();
    }
  };
}

export const healthProbes = makeLimiter(4);
