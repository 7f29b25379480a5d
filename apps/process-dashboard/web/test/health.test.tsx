/** @jest-environment jsdom */
import { fireEvent, screen, within } from '@testing-library/react';
import type { Health, HealthBucket } from '../src/api/types';
import { describeThroughput } from '../src/features/health/throughput-sparkline';
import { fakeApi, renderAt } from './harness';

function buckets(counts: ReadonlyArray<[number, number]>): HealthBucket[] {
  const end = Date.parse('2025-01-01T11:00:00.000Z');
  return counts.map(([succeeded, failed], i) => ({
    start: new Date(end - (counts.length - i) * 300_000).toISOString(),
    succeeded,
    failed,
  }));
}

const QUIET: Array<[number, number]> = Array.from({ length: 10 }, () => [0, 0]);

const HEALTH: Health = {
  tenant: 'demo',
  generatedAt: '2025-01-01T11:00:00.000Z',
  windowSeconds: 3600,
  bucketSeconds: 300,
  processTypes: [
    {
      processType: 'word-count',
      succeeded: 3,
      failed: 1,
      throughput: buckets([...QUIET, [1, 0], [2, 1]]),
      backlog: [],
      oldestDueSeconds: null,
      waitP50Seconds: null,
      waitP95Seconds: null,
      waitSamples: 0,
    },
    {
      processType: 'word-count-chunk',
      succeeded: 40,
      failed: 0,
      throughput: buckets([...QUIET, [15, 0], [25, 0]]),
      backlog: [{ workerType: 'word-count-chunk', pending: 7, running: 2, dead: 1 }],
      oldestDueSeconds: 95,
      waitP50Seconds: 0.25,
      waitP95Seconds: 4.5,
      waitSamples: 40,
    },
  ],
};

describe('health view', () => {
  it('shows a row per process type with its throughput chart, backlog, oldest due and wait', async () => {
    const api = fakeApi({ 'GET /health': { body: HEALTH } });
    renderAt('/t/demo/health');
    const table = await screen.findByRole('table', { name: /Health per process type/ });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    const chunk = within(rows[2]);
    expect(chunk.getByRole('rowheader').textContent).toBe('word-count-chunk');
    expect(chunk.getByText(/7 pending, 2 running/)).toBeTruthy();
    expect(chunk.getByText('1 dead')).toBeTruthy();
    expect(chunk.getByText('1 min 35 s')).toBeTruthy();
    expect(chunk.getByText('250 ms / 4.5 s')).toBeTruthy();
    const chart = chunk.getByRole('img');
    expect(chart.getAttribute('aria-label')).toBe(
      '40 succeeded, 0 failed in the last 60 minutes; per 5 minutes, oldest first: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15, 25',
    );
    // Bars: one per bucket with finished processes; the failed part stacked on the succeeded one.
    expect(chart.querySelectorAll('rect.sparkline-ok')).toHaveLength(2);
    const wordCount = within(rows[1]);
    expect(wordCount.getByText('none')).toBeTruthy();
    expect(wordCount.getByRole('img').querySelectorAll('rect.sparkline-bad')).toHaveLength(1);
    expect(wordCount.getByText('— / —')).toBeTruthy();
    // The tenant goes in its header, like every call.
    expect(api.calls.find((c) => c.path === '/health')?.headers['x-fw-tenant-id']).toBe('demo');
  });

  it('shows each type’s limits beside its work items, and when the tenant’s RUNNING items fill its per-tenant limit', async () => {
    const definitions = [
      { processType: 'word-count', leaf: false, rateLimit: { perSecond: 2, scope: 'global' } },
      { processType: 'word-count-chunk', leaf: true, concurrency: { perTenant: 2, global: 10 } },
    ];
    fakeApi({
      'GET /health': { body: HEALTH },
      'GET /definitions': { body: { content: definitions, totalElements: 2, page: 0, size: 100, totalPages: 1 } },
    });
    renderAt('/t/demo/health');
    const table = await screen.findByRole('table', { name: /Health per process type/ });
    const [, wordCount, chunk] = within(table).getAllByRole('row');
    expect((await within(chunk!).findByText(/limits: 2 running\/tenant, 10 running in all/)).textContent).toBe(
      'limits: 2 running/tenant, 10 running in all · at its limit',
    );
    expect(within(wordCount!).getByText(/limits:/).textContent).toBe('limits: 2/s in all');
  });

  it('says when nothing happened, and is in the navigation behind `g h`', async () => {
    fakeApi({
      'GET /health': { body: { ...HEALTH, processTypes: [] } },
      'GET /processes': { body: { content: [], totalElements: 0, page: 0, size: 25, totalPages: 0 } },
      'GET /definitions': { body: { content: [], totalElements: 0, page: 0, size: 100, totalPages: 0 } },
    });
    renderAt('/t/demo/processes');
    expect(screen.getByRole('link', { name: 'Health' }).getAttribute('href')).toBe('/t/demo/health');
    fireEvent.keyDown(document.body, { key: 'g' });
    fireEvent.keyDown(document.body, { key: 'h' });
    expect(await screen.findByText('Nothing finished or waiting in the last hour.')).toBeTruthy();
  });

  it('shows the error of a failed read', async () => {
    fakeApi({ 'GET /health': { status: 400, body: { message: 'Missing header x-fw-tenant-id' } } });
    renderAt('/t/demo/health');
    expect((await screen.findByRole('alert')).textContent).toContain('Missing header x-fw-tenant-id');
  });

  it('describes the failed processes of each bucket in the chart text', () => {
    expect(
      describeThroughput(
        buckets([
          [0, 0],
          [2, 1],
        ]),
        5,
      ),
    ).toBe('2 succeeded, 1 failed in the last 10 minutes; per 5 minutes, oldest first: 0, 2+1 failed');
  });
});
