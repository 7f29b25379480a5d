import { BENCHMARKS, BenchUsageError, parseBenchArgs } from '../src';

describe('history bench (registration only: the bench itself runs with npm run bench)', () => {
  it('is registered and takes --processes and --leaves', () => {
    expect(BENCHMARKS.history.description).toMatch(/^history at scale/);
    expect(parseBenchArgs(['history', '--processes', '1000000', '--leaves', '20000']).options).toMatchObject({
      processes: 1_000_000,
      leaves: 20_000,
    });
    expect(() => parseBenchArgs(['history', '--processes', '0'])).toThrow(BenchUsageError);
    expect(() => parseBenchArgs(['history', '--processes'])).toThrow(/--processes needs a value/);
  });
});
