import { isoDurationMillis } from '@fw/process-api';
import { parseProcessDef } from '../src';

describe('a definition’s retention', () => {
  it('keeps ISO-8601 durations of at least a second, either field optional', () => {
    expect(
      parseProcessDef({ processType: 'a', leaf: true, retention: { succeeded: 'P7D', failed: ' P1Y ' } }, 'defs[0]')
        .retention,
    ).toEqual({ succeeded: 'P7D', failed: 'P1Y' });
    expect(
      parseProcessDef({ processType: 'a', leaf: true, retention: { failed: 'PT36H' } }, 'defs[0]').retention,
    ).toEqual({ failed: 'PT36H' });
    expect(parseProcessDef({ processType: 'a', leaf: true }, 'defs[0]')).not.toHaveProperty('retention');
    expect(parseProcessDef({ processType: 'a', leaf: true, retention: null }, 'defs[0]')).not.toHaveProperty(
      'retention',
    );
  });

  it('refuses anything else, naming the definition and the field', () => {
    expect(() =>
      parseProcessDef({ processType: 'a', leaf: true, retention: { succeeded: '30 days' } }, 'defs[0]'),
    ).toThrow("defs[0] (a): 'retention.succeeded' must be an ISO-8601 duration");
    expect(() => parseProcessDef({ processType: 'a', leaf: true, retention: { failed: 'PT0S' } }, 'defs[0]')).toThrow(
      "'retention.failed' must be an ISO-8601 duration of at least a second",
    );
    expect(() => parseProcessDef({ processType: 'a', leaf: true, retention: { kept: 'P1D' } }, 'defs[0]')).toThrow(
      "'retention.kept' is not a field",
    );
    expect(() => parseProcessDef({ processType: 'a', leaf: true, retention: 'P1D' }, 'defs[0]')).toThrow(
      "'retention' must be an object",
    );
  });

  it('reads durations as a year of 365 days and a month of 30', () => {
    expect(isoDurationMillis('P1DT12H')).toBe(129_600_000);
    expect(isoDurationMillis('P1W')).toBe(7 * 86_400_000);
    expect(isoDurationMillis('P1Y2M')).toBe(425 * 86_400_000);
    expect(isoDurationMillis('PT1.5S')).toBe(1500);
    for (const bad of ['P', 'PT', 'P1H', '1D', 'P1DT', 'p1d', '']) expect(isoDurationMillis(bad)).toBeUndefined();
  });
});
