import * as path from 'node:path';
import type { BenchOptions } from './bench-types';

export const DEFAULT_BENCH_OPTIONS: BenchOptions = {
  requests: 10_000,
  connections: 16,
  databaseUrl: 'postgres://postgres@127.0.0.1:5432/test',
  rows: 10_000,
};

/** Raised for bad arguments; main prints it with the usage and exits 2. */
export class BenchUsageError extends Error {}

function positiveInt(flag: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new BenchUsageError(`${flag} must be a positive integer (got '${value}')`);
  return Number(value);
}

function nonNegativeInt(flag: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new BenchUsageError(`${flag} must be an integer of 0 or more (got '${value}')`);
  return Number(value);
}

/** Most worker processes `--workers` accepts: a bound against fork bombs and connection exhaustion. */
export const MAX_FANOUT_WORKERS = 16;

function workerCount(flag: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > MAX_FANOUT_WORKERS)
    throw new BenchUsageError(`${flag} must be an integer from 0 to ${MAX_FANOUT_WORKERS} (got '${value}')`);
  return Number(value);
}

/**
 * Parses `<name> [--requests N] [--warmup N] [--connections C] [--database-url URL] [--rows R] [--processes N] [--leaves N] [--workers K] [--runs N] [--rounds N] [--timeout S] [--runners a,b] [--source] [--node-defaults] [--telemetry] [--cpu-prof [DIR]]`.
 *
 * @example
 * parseBenchArgs(['query', '--requests', '100000']); // { name: 'query', options: { requests: 100000, ... } }
 */
export function parseBenchArgs(argv: readonly string[], cwd = process.cwd()): { name: string; options: BenchOptions } {
  const [name, ...rest] = argv;
  if (!name || name.startsWith('-')) throw new BenchUsageError('name the benchmark to run');
  const options: BenchOptions = { ...DEFAULT_BENCH_OPTIONS };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const value = (): string => {
      const v = inline ?? rest[++i];
      if (v === undefined || v === '' || v.startsWith('--')) throw new BenchUsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--requests':
        options.requests = positiveInt(flag, value());
        break;
      case '--connections':
        options.connections = positiveInt(flag, value());
        break;
      case '--rows':
        options.rows = positiveInt(flag, value());
        options.rowsGiven = true;
        break;
      case '--warmup':
        options.warmup = nonNegativeInt(flag, value());
        break;
      case '--processes':
        options.processes = positiveInt(flag, value());
        break;
      case '--leaves':
        options.leaves = positiveInt(flag, value());
        break;
      case '--workers':
        options.workers = workerCount(flag, value());
        break;
      case '--runs':
        options.runs = positiveInt(flag, value());
        break;
      case '--rounds':
        options.rounds = positiveInt(flag, value());
        break;
      case '--timeout':
        options.timeout = positiveInt(flag, value());
        break;
      case '--runners':
        options.runners = value()
          .split(',')
          .map((r) => r.trim())
          .filter((r) => r !== '');
        break;
      case '--database-url':
        options.databaseUrl = value();
        break;
      case '--source':
        if (inline !== undefined) throw new BenchUsageError('--source takes no value');
        options.source = true;
        break;
      case '--node-defaults':
        if (inline !== undefined) throw new BenchUsageError('--node-defaults takes no value');
        options.nodeDefaults = true;
        break;
      case '--telemetry':
        if (inline !== undefined) throw new BenchUsageError('--telemetry takes no value');
        options.telemetry = true;
        break;
      case '--cpu-prof': {
        const next = inline ?? (rest[i + 1] !== undefined && !rest[i + 1].startsWith('--') ? rest[++i] : undefined);
        options.cpuProfDir = path.resolve(cwd, next ?? '.bench-profiles');
        break;
      }
      default:
        throw new BenchUsageError(`unknown argument '${arg}'`);
    }
  }
  return { name, options };
}
