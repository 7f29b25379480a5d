/**
 * Commands a Redis server has run, from `INFO commandstats` (one `cmdstat_<name>:calls=N,…` line per
 * command). The difference of two readings around a run is what the run cost Redis: commands a Lua
 * script calls (`redis.call`) are counted there too, beside the `EVALSHA` that ran the script. The
 * figures are the whole server's: exact only while nothing else uses it.
 *
 * @example
 * const before = await readRedisCommandCalls(redis);
 * // … the run …
 * const perLeaf = ((await readRedisCommandCalls(redis)) - before) / leaves;
 */
import type { Redis } from 'ioredis';

/** The sum of `calls=` over the `cmdstat_*` lines of an `INFO commandstats` answer. */
export function parseCommandCalls(info: string): number {
  let calls = 0;
  for (const line of info.split(/\r?\n/)) {
    const m = /^cmdstat_[^:]+:calls=(\d+)/.exec(line);
    if (m) calls += Number(m[1]);
  }
  return calls;
}

/** Commands the server has run since its statistics were last reset. */
export async function readRedisCommandCalls(redis: Redis): Promise<number> {
  return parseCommandCalls(await redis.info('commandstats'));
}
