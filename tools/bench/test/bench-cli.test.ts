import { BENCHMARKS, benchMain, DEFAULT_BENCH_OPTIONS, parseBenchArgs, renderBenchSql } from '../src';

describe('bench command line', () => {
  it('parses the options of a benchmark', () => {
    expect(parseBenchArgs(['query', '--requests', '100000', '--connections=8', '--database-url', 'postgres://x/y', '--cpu-prof', 'prof'], '/w')).toEqual({
      name: 'query',
      options: { ...DEFAULT_BENCH_OPTIONS, requests: 100000, connections: 8, databaseUrl: 'postgres://x/y', cpuProfDir: '/w/prof' },
    });
    expect(parseBenchArgs(['query']).options).toEqual(DEFAULT_BENCH_OPTIONS);
  });

  it.each([[[]], [['query', '--requests', '0']], [['query', '--bogus']], [['nope']]])('exits 2 with the usage for %j', async (argv) => {
    const err: string[] = [];
    expect(await benchMain(argv, { out: () => undefined, err: (l) => err.push(l) })).toBe(2);
    expect(err.join('\n')).toMatch(/usage: npm run bench -- <name>/);
    expect(err.join('\n')).toContain('query    POST /q/<name>');
  });

  it('runs the named runner from the registry', async () => {
    const seen: number[] = [];
    const code = await benchMain(['fake', '--requests', '5'], { out: () => undefined, err: () => undefined }, { fake: { description: 'd', run: async (o) => void seen.push(o.requests) } });
    expect(code).toBe(0);
    expect(seen).toEqual([5]);
    expect(Object.keys(BENCHMARKS)).toContain('query');
  });
});

describe('query bench SQL', () => {
  it('is rendered from the bench mapper with the author bound as a parameter', async () => {
    const { rowsSql, countSql } = await renderBenchSql();
    expect(rowsSql.replace(/\s+/g, ' ').trim()).toBe('select b.id, b.title, b.author_id as "authorId", b.genre, b.price, b.year from bench_books b WHERE b.author_id = $1 ORDER BY "title" ASC LIMIT 20 OFFSET 0');
    expect(countSql.replace(/\s+/g, ' ').trim()).toBe('select count(*) from bench_books b WHERE b.author_id = $1');
  });
});
