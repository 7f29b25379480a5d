/** @jest-environment jsdom */
import { screen, within } from '@testing-library/react';
import { DEFINITIONS, fakeApi, INFO, page, renderAt } from './harness';

describe('definitions table', () => {
  it('shows each definition’s concurrency, priority and rate limits', async () => {
    const limited = {
      processType: 'call-partner',
      leaf: true,
      concurrency: { perTenant: 5, global: 20 },
      priority: 7,
      rateLimit: { perSecond: 10, scope: 'tenant' },
    };
    fakeApi({ 'GET /definitions': { body: page([...DEFINITIONS, limited]) }, 'GET /info': { body: INFO } });
    renderAt('/t/demo/definitions');
    const link = await screen.findByRole('link', { name: 'call-partner' });
    const row = link.closest('tr')!;
    expect(within(row).getByText('5 running/tenant, 20 running in all · priority 7 · 10/s per tenant')).toBeTruthy();
    const plain = (await screen.findByRole('link', { name: 'word-count' })).closest('tr')!;
    expect(within(plain).getAllByText('—').length).toBeGreaterThan(0);
  });
});
