import { defineService, makeServiceRegistry, type ServiceKind } from '@fw/service';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { answerFetch, envelope, renderAt } from '../../../test-support/render-app';
import { ServicesPage } from './services-page';

const KINDS: ServiceKind[] = ['http', 'headless', 'workflow', 'query', 'process'];

/** A host with 200 services of every kind, a third with a health check (some failing). */
function bigHost() {
  const services = Array.from({ length: 200 }, (_, i) =>
    defineService({
      name: `svc-${String(i).padStart(3, '0')}`,
      version: `1.${i}.0`,
      kind: KINDS[i % KINDS.length],
      description: i % 10 === 0 ? `billing part ${i}` : `service number ${i}`,
      operations: [],
      ...(i % 3 === 0 ? { healthCheck: async () => ({ healthy: i % 6 !== 0 }) } : {}),
    }),
  );
  return makeServiceRegistry({
    host: { name: 'big-host', version: '9.9.9', description: 'two hundred services' },
    services,
  });
}

describe('ServicesPage', () => {
  it('lists 200 services with kind and health, and filters them by text and kind', async () => {
    const registry = bigHost();
    const routes: Parameters<typeof answerFetch>[0] = { '/info': envelope(registry.info()) };
    for (const s of registry.info().services) {
      routes[`/health-check/${s.name}`] = s.healthCheck
        ? Number(s.name.slice(4)) % 6 === 0
          ? { status: 503, body: { success: false, code: 503, description: `Unhealthy: ${s.name}` } }
          : envelope({ healthy: true, checks: [] })
        : { status: 404, body: { success: false, code: 404, description: 'no health check' } };
    }
    const log = answerFetch(routes);
    renderAt('/', [{ path: '/', element: <ServicesPage /> }]);
    expect(await screen.findByText('two hundred services', { exact: false })).toBeTruthy();
    const rows = () => screen.getAllByRole('row').slice(1);
    expect(rows()).toHaveLength(200);
    expect(screen.getByText('200 of 200 shown')).toBeTruthy();
    // Badges: healthy, unhealthy (503) and no checker, probed only for services that declare a check.
    const row3 = within(rows()[3]);
    await waitFor(() => expect(row3.getByText('healthy')).toBeTruthy());
    await waitFor(() => expect(within(rows()[6]).getByText('unhealthy')).toBeTruthy());
    expect(within(rows()[1]).getByText('no checker')).toBeTruthy();
    await waitFor(() => expect(log.filter((l) => l.url.includes('/health-check/')).length).toBe(67));

    fireEvent.change(screen.getByLabelText('Filter'), { target: { value: 'billing' } });
    expect(rows()).toHaveLength(20);
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'http' } });
    // billing services are every 10th: with kind http (i % 5 === 0) all 20 stay.
    expect(rows()).toHaveLength(20);
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'query' } });
    expect(screen.getByText('No service matches.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Filter'), { target: { value: '' } });
    expect(rows()).toHaveLength(40);
    expect(within(rows()[0]).getByRole('link', { name: 'svc-003' }).getAttribute('href')).toBe('/services/svc-003');
  });

  it('shows what went wrong when /info fails', async () => {
    answerFetch({
      '/info': { status: 500, body: { success: false, code: 500, description: 'Internal server error' } },
    });
    renderAt('/', [{ path: '/', element: <ServicesPage /> }]);
    // A 500 is retried once (a restart may be under way), then shown.
    expect((await screen.findByRole('alert', undefined, { timeout: 5000 })).textContent).toBe(
      'Could not read the services (/info): Internal server error (HTTP 500)',
    );
  });
});
