import { isConfigError } from '@fw/core';
import { parseProcessDef } from '@fw/process-service';

const parse = (fields: Record<string, unknown>) =>
  parseProcessDef({ processType: 'a', leaf: true, ...fields }, 'defs[0]');
const refusal = (fields: Record<string, unknown>): string => {
  try {
    parse(fields);
  } catch (err) {
    if (isConfigError(err)) return (err as Error).message;
    throw err;
  }
  throw new Error('accepted');
};

describe('fairness fields of a definition', () => {
  it('reads concurrency, priority and rateLimit, and leaves them out when absent', () => {
    const def = parse({
      concurrency: { perTenant: 5, global: 20 },
      priority: 0,
      rateLimit: { perSecond: 0.5, scope: 'global' },
    });
    expect(def).toMatchObject({
      concurrency: { perTenant: 5, global: 20 },
      priority: 0,
      rateLimit: { perSecond: 0.5, scope: 'global' },
    });
    expect(parse({ concurrency: { global: 3 } }).concurrency).toEqual({ global: 3 });
    const plain = parse({ concurrency: null, priority: null, rateLimit: null });
    expect('concurrency' in plain || 'priority' in plain || 'rateLimit' in plain).toBe(false);
  });

  it('refuses values out of range, naming the definition and the field', () => {
    expect(refusal({ concurrency: { perTenant: 0 } })).toBe(
      "defs[0] (a): 'concurrency.perTenant' must be a whole number from 1 to 1000000",
    );
    expect(refusal({ concurrency: { global: 2.5 } })).toBe(
      "defs[0] (a): 'concurrency.global' must be a whole number from 1 to 1000000",
    );
    expect(refusal({ concurrency: {} })).toMatch(
      /'concurrency' must be an object \{ perTenant\?, global\? \}.*at least one of them/,
    );
    expect(refusal({ concurrency: { perTennant: 3 } })).toMatch(/unknown 'perTennant'/);
    expect(refusal({ concurrency: 5 })).toMatch(/'concurrency' must be an object/);
    expect(refusal({ priority: 10 })).toBe(
      "defs[0] (a): 'priority' must be a whole number from 0 to 9 (higher first; default 5)",
    );
    expect(refusal({ priority: '9' })).toMatch(/'priority' must be a whole number/);
    expect(refusal({ rateLimit: { perSecond: 0, scope: 'tenant' } })).toMatch(
      /'rateLimit.perSecond' must be a number above 0/,
    );
    expect(refusal({ rateLimit: { perSecond: 5, scope: 'everyone' } })).toBe(
      `defs[0] (a): 'rateLimit.scope' must be "tenant" or "global"`,
    );
    expect(refusal({ rateLimit: { perSecond: 5 } })).toMatch(/'rateLimit.scope'/);
  });
});
