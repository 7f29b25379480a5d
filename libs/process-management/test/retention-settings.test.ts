import { ConfigError } from '@fw/core';
import { groupRoots, retentionRulesOf, retentionSettingsFromEnv } from '../src';

const DAY = 86_400_000;

describe('retention settings and rules', () => {
  it('reads the defaults, the server values and the tenants from the environment', () => {
    expect(retentionSettingsFromEnv({})).toEqual({
      succeededMillis: 30 * DAY,
      failedMillis: 90 * DAY,
      tenants: {},
      auditMillis: 90 * DAY,
    });
    expect(
      retentionSettingsFromEnv({
        PROCESS_HISTORY_RETENTION: 'P2D',
        PROCESS_FAILED_RETENTION: 'P3W',
        PROCESS_HISTORY_RETENTION_TENANTS: ' acme=PT6H/P1D , beta=/P5D',
      }),
    ).toEqual({
      succeededMillis: 2 * DAY,
      failedMillis: 21 * DAY,
      tenants: { acme: { succeededMillis: 6 * 3_600_000, failedMillis: DAY }, beta: { failedMillis: 5 * DAY } },
      // The audit trail follows the failed retention unless PROCESS_AUDIT_RETENTION says otherwise.
      auditMillis: 21 * DAY,
    });
  });

  it('refuses what is not a duration, naming the variable', () => {
    expect(() => retentionSettingsFromEnv({ PROCESS_FAILED_RETENTION: '90' })).toThrow(ConfigError);
    expect(() => retentionSettingsFromEnv({ PROCESS_FAILED_RETENTION: '90' })).toThrow(/PROCESS_FAILED_RETENTION/);
    expect(() => retentionSettingsFromEnv({ PROCESS_HISTORY_RETENTION_TENANTS: 'acme' })).toThrow(
      /tenant=SUCCEEDED\/FAILED/,
    );
    expect(() => retentionSettingsFromEnv({ PROCESS_HISTORY_RETENTION_TENANTS: 'acme=/' })).toThrow(
      /tenant=SUCCEEDED\/FAILED/,
    );
    expect(() => retentionSettingsFromEnv({ PROCESS_HISTORY_RETENTION: 'PT0.1S' })).toThrow(/at least one second/);
  });

  it('combines definitions, tenants and defaults; the shortest bounds the look-up', () => {
    const rules = retentionRulesOf(retentionSettingsFromEnv({ PROCESS_HISTORY_RETENTION_TENANTS: 'acme=P10D/' }), [
      { processType: 'quick', leaf: true, retention: { succeeded: 'PT1H' } },
      { processType: 'plain', leaf: true },
    ]);
    expect(rules).toEqual({
      definitions: [{ key: 'quick', succeededSeconds: 3600, failedSeconds: null }],
      tenants: [{ key: 'acme', succeededSeconds: 10 * 86_400, failedSeconds: null }],
      succeededSeconds: 30 * 86_400,
      failedSeconds: 90 * 86_400,
      shortestSeconds: 3600,
    });
  });

  it('groups roots into transactions of about the budget, never splitting a tree', () => {
    const roots = [{ children: 2 }, { children: 2 }, { children: 10 }, { children: 0 }].map((r, i) => ({
      id: `r${i}`,
      createdTime: new Date(0),
      children: r.children,
    }));
    expect(groupRoots(roots, 6)).toEqual([['r0', 'r1'], ['r2'], ['r3']]);
    expect(groupRoots(roots, 100)).toEqual([['r0', 'r1', 'r2', 'r3']]);
    expect(groupRoots([], 5)).toEqual([]);
  });
});
