/**
 * `npm run bench -- fanout --workers K`: the option and, when FW_TEST_DATABASE_URL names a
 * PostgreSQL server, a real fan-out across two worker OS processes checked row by row.
 */
import { sql } from 'kysely';
import { benchMain, BenchUsageError, DEFAULT_BENCH_OPTIONS, parseBenchArgs } from '../src';
import { openFanoutDatabase } from '../src/fanout-bench';
import { COORDINATOR_POOL, runFanoutAcrossWorkers } from '../src/fanout/fanout-across-processes';
import { fanoutTuningFromEnv } from '../src/fanout/fanout-node';

describe('--workers', () => {
  it('takes an integer from 0 to 16 and is absent by default (single-process mode)', () => {
    expect(parseBenchArgs(['fanout', '--workers', '3', '--leaves', '200']).options).toEqual({
      ...DEFAULT_BENCH_OPTIONS,
      workers: 3,
      leaves: 200,
    });
    expect(parseBenchArgs(['fanout', '--workers=0']).options.workers).toBe(0);
    expect(parseBenchArgs(['fanout', '--workers', '16']).options.workers).toBe(16);
    expect(parseBenchArgs(['fanout']).options.workers).toBeUndefined();
  });

  it.each(['17', '-1', 'two', '1.5', '2x'])('refuses %j, naming the range', (bad) => {
    expect(() => parseBenchArgs(['fanout', '--workers', bad])).toThrow(
      new BenchUsageError(`--workers must be an integer from 0 to 16 (got '${bad}')`),
    );
  });

  it('exits 2 with the usage, which documents the option, when the value is bad or missing', async () => {
    for (const argv of [
      ['fanout', '--workers', '99'],
      ['fanout', '--workers'],
    ]) {
      const err: string[] = [];
      expect(await benchMain(argv, { out: () => undefined, err: (l) => err.push(l) })).toBe(2);
      expect(err.join('\n')).toMatch(/--workers (must be an integer from 0 to 16|needs a value)/);
      expect(err.join('\n')).toContain(
        '--workers K   fanout: run the runners and dispatchers in K worker OS processes',
      );
    }
  });

  it('gives each of two or more workers a pool of 12 by default, one node 24; FW_FANOUT_POOL wins', () => {
    const saved = process.env.FW_FANOUT_POOL;
    try {
      delete process.env.FW_FANOUT_POOL;
      expect([0, 1, 2, 16].map((k) => fanoutTuningFromEnv(k).pool)).toEqual([24, 24, 12, 12]);
      process.env.FW_FANOUT_POOL = '7';
      expect(fanoutTuningFromEnv(3).pool).toBe(7);
    } finally {
      if (saved === undefined) delete process.env.FW_FANOUT_POOL;
      else process.env.FW_FANOUT_POOL = saved;
    }
  });
});

const serverUrl = process.env.FW_TEST_DATABASE_URL;

// Worker OS processes and SKIP LOCKED claims across them need a real server: PostgreSQL only.
if (serverUrl) {
  describe('fan-out across worker processes [postgres]', () => {
    beforeAll(() => {
      process.env.FW_LOG_LEVEL ??= 'error';
    });

    it('carries each of 200 leaves exactly once across 2 workers and ends the root PROCESSED', async () => {
      const leaves = 200;
      const scratch = await openFanoutDatabase(serverUrl, COORDINATOR_POOL);
      try {
        const lines: string[] = [];
        const result = await runFanoutAcrossWorkers(
          scratch,
          leaves,
          2,
          (line) => lines.push(line),
          fanoutTuningFromEnv(2),
        );
        expect(result).toMatchObject({ leaves, rootState: 'PROCESSED' });
        expect(result.leavesPerSecond).toBeGreaterThan(0);
        expect(lines.join('\n')).toMatch(/2 worker process\(es\) ready/);
        // Every item completed once in total: the leaves, the splitter and the aggregator.
        expect(result.itemsPerWorker).toHaveLength(2);
        expect(result.itemsPerWorker.reduce((a, b) => a + b, 0)).toBe(leaves + 2);

        // Read back independently of the benchmark's own verification.
        const db = scratch.database.db;
        const processes = await sql<{
          parent_id: string | null;
          state_id: string;
          num_completed_sub_processes: number;
        }>`
          select parent_id, state_id, num_completed_sub_processes from fw_process`.execute(db);
        const roots = processes.rows.filter((p) => p.parent_id === null);
        expect(roots).toEqual([
          expect.objectContaining({ state_id: 'PROCESSED', num_completed_sub_processes: leaves }),
        ]);
        const children = processes.rows.filter((p) => p.parent_id !== null);
        expect(children).toHaveLength(leaves);
        expect(children.every((p) => p.state_id === 'PROCESSED')).toBe(true);

        const items = await sql<{ process_id: string; worker_type: string; status: string; attempts: number }>`
          select process_id, worker_type, status, attempts from fw_process_work_item`.execute(db);
        const executorsPerLeaf = new Map<string, number>();
        for (const item of items.rows) {
          expect(item).toMatchObject({ status: 'SUCCESS', attempts: 1 });
          if (item.worker_type === 'EXECUTOR')
            executorsPerLeaf.set(item.process_id, (executorsPerLeaf.get(item.process_id) ?? 0) + 1);
        }
        expect(executorsPerLeaf.size).toBe(leaves);
        expect([...executorsPerLeaf.values()].every((n) => n === 1)).toBe(true);
        expect(
          items.rows
            .map((i) => i.worker_type)
            .filter((t) => t !== 'EXECUTOR')
            .sort(),
        ).toEqual(['AGGREGATOR', 'SPLITTER']);
      } finally {
        await scratch.drop();
      }
    }, 180_000);

    it('reports through `npm run bench` with leaves_per_s= on the last line', async () => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await benchMain(['fanout', '--leaves', '50', '--workers', '2', '--database-url', serverUrl], {
        out: (l) => out.push(l),
        err: (l) => err.push(l),
      });
      expect({ code, err }).toEqual({ code: 0, err: [] });
      expect(out).toContainEqual(expect.stringMatching(/^ {2}work items per worker: \d+ \/ \d+$/));
      expect(out).toContainEqual(expect.stringMatching(/^ {2}root PROCESSED in /));
      expect(out[out.length - 1]).toMatch(/^leaves_per_s=\d+$/);
    }, 180_000);
  });
}
