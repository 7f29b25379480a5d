import {
  BENCHMARKS,
  benchMain,
  DEFAULT_BENCH_OPTIONS,
  parseBenchArgs,
  renderBenchSql,
  warmUp,
  WARMUP_MAX_REQUESTS,
  WARMUP_SLICE_REQUESTS,
} from '../src';

describe('bench command line', () => {
  it('parses the options of a benchmark', () => {
    expect(
      parseBenchArgs(
        ['query', '--requests', '100000', '--connections=8', '--database-url', 'postgres://x/y', '--cpu-prof', 'prof'],
        '/w',
      ),
    ).toEqual({
      name: 'query',
      options: {
        ...DEFAULT_BENCH_OPTIONS,
        requests: 100000,
        connections: 8,
        databaseUrl: 'postgres://x/y',
        cpuProfDir: '/w/prof',
      },
    });
    expect(parseBenchArgs(['query']).options).toEqual(DEFAULT_BENCH_OPTIONS);
  });

  it('parses --warmup N (0 allowed); without it the warm-up is left to the steady-state rule', () => {
    expect(parseBenchArgs(['query', '--warmup', '5000']).options.warmup).toBe(5000);
    expect(parseBenchArgs(['query', '--warmup=0']).options.warmup).toBe(0);
    expect(parseBenchArgs(['query']).options.warmup).toBeUndefined();
  });

  it.each([
    [[]],
    [['query', '--requests', '0']],
    [['query', '--bogus']],
    [['nope']],
    [['query', '--warmup', '-1']],
    [['query', '--warmup', 'lots']],
    [['query', '--warmup']],
  ])('exits 2 with the usage for %j', async (argv) => {
    const err: string[] = [];
    expect(await benchMain(argv, { out: () => undefined, err: (l) => err.push(l) })).toBe(2);
    expect(err.join('\n')).toMatch(/usage: npm run bench -- <name>/);
    expect(err.join('\n')).toContain('query    POST /q/<name>');
    expect(err.join('\n')).toContain('--warmup N');
  });

  it('runs the named runner from the registry', async () => {
    const seen: number[] = [];
    const code = await benchMain(
      ['fake', '--requests', '5'],
      { out: () => undefined, err: () => undefined },
      { fake: { description: 'd', run: async (o) => void seen.push(o.requests) } },
    );
    expect(code).toBe(0);
    expect(seen).toEqual([5]);
    expect(Object.keys(BENCHMARKS)).toContain('query');
  });
});

describe('query bench SQL', () => {
  it('is rendered from the bench mapper with the author bound as a parameter', async () => {
    const { rowsSql, countSql } = await renderBenchSql();
    expect(rowsSql.replace(/\s+/g, ' ').trim()).toBe(
      'select b.id, b.title, b.author_id as "authorId", b.genre, b.price, b.year from bench_books b WHERE b.author_id = $1 ORDER BY "title" ASC LIMIT 20 OFFSET 0',
    );
    expect(countSql.replace(/\s+/g, ' ').trim()).toBe('select count(*) from bench_books b WHERE b.author_id = $1');
  });
});

describe('query bench warm-up', () => {
  /** A slice runner answering the given req/s in turn (the last one repeated), recording slice sizes. */
  function scripted(rates: number[]): { runSlice: (requests: number) => Promise<number>; slices: number[] } {
    const slices: number[] = [];
    return {
      slices,
      runSlice: async (requests) => {
        slices.push(requests);
        return rates[Math.min(slices.length - 1, rates.length - 1)];
      },
    };
  }

  it('runs slices until two consecutive ones agree within 5 %', async () => {
    const load = scripted([900, 1000, 1150, 1300, 1340, 1400]);
    const outcome = await warmUp(load.runSlice, { kind: 'steady' });
    expect(load.slices.every((n) => n === WARMUP_SLICE_REQUESTS)).toBe(true);
    // 10 %, 13 % and 11.5 % apart while warming up; 1300 → 1340 (3 %) ends it.
    expect(outcome).toEqual({
      requests: 5 * WARMUP_SLICE_REQUESTS,
      sliceRates: [900, 1000, 1150, 1300, 1340],
      steady: true,
    });
  });

  it('stops after two slices when the server is steady from the start', async () => {
    const outcome = await warmUp(scripted([1000, 960]).runSlice, { kind: 'steady' });
    expect(outcome).toEqual({ requests: 2 * WARMUP_SLICE_REQUESTS, sliceRates: [1000, 960], steady: true });
  });

  it('gives up at the cap when the slices never agree', async () => {
    const outcome = await warmUp(
      scripted(Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? 1000 : 1200))).runSlice,
      { kind: 'steady' },
    );
    expect(outcome).toMatchObject({ requests: WARMUP_MAX_REQUESTS, steady: false });
    expect(outcome.sliceRates).toHaveLength(WARMUP_MAX_REQUESTS / WARMUP_SLICE_REQUESTS);
  });

  it('runs a fixed warm-up as one slice, and none for 0', async () => {
    const load = scripted([1234]);
    expect(await warmUp(load.runSlice, { kind: 'fixed', requests: 3000 })).toEqual({
      requests: 3000,
      sliceRates: [1234],
      steady: false,
    });
    expect(await warmUp(load.runSlice, { kind: 'fixed', requests: 0 })).toEqual({
      requests: 0,
      sliceRates: [],
      steady: false,
    });
    expect(load.slices).toEqual([3000]);
  });
});
