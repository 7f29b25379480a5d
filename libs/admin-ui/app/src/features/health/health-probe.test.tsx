import { fireEvent, screen } from '@testing-library/react';
import { answerFetch, envelope, renderAt } from '../../../test-support/render-app';
import { HealthProbe } from './health-probe';

describe('HealthProbe', () => {
  it('runs the probe on demand and shows each check', async () => {
    const log = answerFetch({
      '/health-check/orders': envelope({
        healthy: true,
        checks: [
          { name: 'database', healthy: true },
          { name: 'broker', healthy: true, message: '3 ms' },
        ],
      }),
    });
    renderAt('/', [{ path: '/', element: <HealthProbe service="orders" declared /> }]);
    expect(log).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Run health probe' }));
    expect(await screen.findByText('healthy', { selector: '.badge' })).toBeTruthy();
    expect(screen.getAllByRole('row').map((r) => r.textContent)).toEqual([
      'CheckResultMessage',
      'databasehealthy',
      'brokerhealthy3 ms',
    ]);
  });

  it('shows the 503 details and the failing checks', async () => {
    answerFetch({
      '/health-check/orders': {
        status: 503,
        body: {
          success: false,
          code: 503,
          severity: 'ERROR',
          subErrorCode: 'FW503',
          description: 'Unhealthy: database',
          payload: null,
          errors: [
            {
              code: '503',
              subErrorCode: 'FW503',
              description: 'Unhealthy: database',
              params: ['database'],
              severity: 'ERROR',
            },
          ],
        },
      },
    });
    renderAt('/', [{ path: '/', element: <HealthProbe service="orders" declared /> }]);
    fireEvent.click(screen.getByRole('button', { name: 'Run health probe' }));
    expect(await screen.findByText('unhealthy')).toBeTruthy();
    expect(screen.getByText(/Unhealthy: database \(HTTP 503/)).toBeTruthy();
    expect(screen.getAllByRole('row')[1].textContent).toBe('databasefailing');
  });

  it('says "no health checker" for a 404', async () => {
    answerFetch({
      '/health-check/plain': {
        status: 404,
        body: { success: false, code: 404, description: "Service 'plain' has no health check" },
      },
    });
    renderAt('/', [{ path: '/', element: <HealthProbe service="plain" declared={false} /> }]);
    fireEvent.click(screen.getByRole('button', { name: 'Run health probe' }));
    expect(await screen.findByText('no health checker')).toBeTruthy();
    expect(screen.getByText(/has no health check \(HTTP 404/)).toBeTruthy();
  });
});
