import pg from 'pg';
import { countStatements, formatLeafCost, leafCostOf, type LeafCostCounters } from '../src/fanout/leaf-cost';

const databaseUrl = process.env.FW_TEST_DATABASE_URL || undefined;

const reading = (
  commits: number,
  wal: number,
  ins: number,
  upd: number,
  hot: number,
  partial: number,
): LeafCostCounters => ({
  commits,
  rollbacks: 0,
  walBytes: wal,
  tables: {
    fw_process_work_item: {
      inserted: ins,
      updated: upd,
      hotUpdated: hot,
      deleted: 0,
      fullIndexes: 2,
      partialIndexBytes: partial,
    },
    untouched: { inserted: 5, updated: 0, hotUpdated: 0, deleted: 0, fullIndexes: 1, partialIndexBytes: 0 },
  },
});

describe('cost per leaf', () => {
  it('divides the differences by the leaves; full indexes get an entry per insert and non-HOT update', () => {
    const cost = leafCostOf(reading(10, 1000, 0, 0, 0, 8192), reading(30, 501_000, 100, 200, 50, 16384), 400, 100);
    expect(cost.transactions).toBe(0.2);
    expect(cost.statements).toBe(4);
    expect(cost.walBytes).toBe(5000);
    expect(cost.rowsWritten).toBe(3);
    // (100 inserts + 200 updates − 50 HOT) × 2 indexes / 100 leaves
    expect(cost.indexEntries).toBe(5);
    expect(cost.partialIndexBytes).toBeCloseTo(81.92, 9);
    expect(cost.tables.map((t) => t.table)).toEqual(['fw_process_work_item']);
    expect(formatLeafCost(cost)[0]).toBe(
      '  cost per leaf: 0.20 transactions, 4.00 statements, 3.00 rows written, 5.00 full-index entries + 82 B of partial indexes, 5000 B of WAL (whole server)',
    );
  });

  if (databaseUrl) {
    it('counts the statements of every pg client until stopped [postgres]', async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const counting = countStatements();
        await client.query('select 1');
        await client.query('select 2');
        expect(counting.stop()).toBe(2);
        await client.query('select 3');
      } finally {
        await client.end();
      }
    });
  }
});
