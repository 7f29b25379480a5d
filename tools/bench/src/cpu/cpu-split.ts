/**
 * Where a run's CPU went: this node process (`process.cpuUsage`) against the rest of the machine
 * (the busy time of `/proc/stat`, which on a bench machine is the database server or Redis). On a
 * two-core machine both sides share the same cores, so a figure is only as fast as their sum
 * allows; this split says which side to work on.
 *
 * @example
 * const cpu = startCpuSplit();
 * // … the run …
 * print(`  ${formatCpuSplit(cpu.stop())}`);
 */
import { readFileSync } from 'node:fs';

export interface CpuSplit {
  /** CPU seconds of this process (user + system). */
  processSeconds: number;
  /** Busy CPU seconds of every other process on the machine (undefined without `/proc/stat`). */
  restSeconds: number | undefined;
  /** Wall-clock seconds of the measured span. */
  wallSeconds: number;
}

/** Busy CPU seconds of the whole machine since boot (user, nice, system, irq, softirq), or undefined off Linux. */
function machineBusySeconds(): number | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq] = fields;
    return (user + nice + system + irq + softirq) / 100;
  } catch {
    return undefined;
  }
}

/** Starts measuring; `stop()` returns the split of the span. */
export function startCpuSplit(): { stop(): CpuSplit } {
  const process0 = process.cpuUsage();
  const machine0 = machineBusySeconds();
  const wall0 = performance.now();
  return {
    stop() {
      const own = process.cpuUsage(process0);
      const processSeconds = (own.user + own.system) / 1e6;
      const machine1 = machineBusySeconds();
      const restSeconds =
        machine0 !== undefined && machine1 !== undefined
          ? Math.max(0, machine1 - machine0 - processSeconds)
          : undefined;
      return { processSeconds, restSeconds, wallSeconds: (performance.now() - wall0) / 1000 };
    },
  };
}

/** `cpu: node 1.52 s (0.86 cores), rest of the machine 1.21 s (0.69 cores)`. */
export function formatCpuSplit(split: CpuSplit): string {
  const cores = (s: number) => (s / Math.max(split.wallSeconds, 1e-9)).toFixed(2);
  const rest =
    split.restSeconds === undefined
      ? 'rest of the machine unknown'
      : `rest of the machine ${split.restSeconds.toFixed(2)} s (${cores(split.restSeconds)} cores)`;
  return `cpu: node ${split.processSeconds.toFixed(2)} s (${cores(split.processSeconds)} cores), ${rest}`;
}
