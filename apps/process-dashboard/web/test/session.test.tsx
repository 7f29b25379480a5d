/** @jest-environment jsdom */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { CALLERS, fakeApi, INFO, page, renderAt } from './harness';

const KEY = 'the-right-key-0123456789abcdef012345';

describe('sign-in', () => {
  it('refuses a wrong key with a clear message and stays on the form; the right key opens the view of the URL', async () => {
    const api = fakeApi({
      'GET /me': (req) =>
        req.headers['X-Process-Management-Key'] === KEY
          ? { body: CALLERS.admin }
          : { status: 401, body: { message: 'Invalid X-Process-Management-Key' } },
      'GET /info': (req) =>
        req.headers['X-Process-Management-Key'] === KEY
          ? { body: INFO }
          : { status: 401, body: { message: 'Invalid X-Process-Management-Key' } },
      'GET /processes': { body: page([]) },
      'GET /definitions': { body: page([]) },
    });
    renderAt('/t/acme/processes?status=PROCESSED', null);
    expect((screen.getByLabelText('Tenant') as HTMLInputElement).value).toBe('acme');
    fireEvent.change(screen.getByLabelText('Administration key'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open the dashboard' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', expect.stringContaining('refused (401)'));
    expect(screen.getByLabelText('Administration key')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Administration key'), { target: { value: KEY } });
    fireEvent.click(screen.getByRole('button', { name: 'Open the dashboard' }));
    await screen.findByRole('heading', { name: 'Processes' });
    await waitFor(() =>
      expect(
        api.calls.some(
          (c) =>
            c.path === '/processes' && c.query.get('status') === 'PROCESSED' && c.headers['x-fw-tenant-id'] === 'acme',
        ),
      ).toBe(true),
    );
    // The key travels in the header only, never in a URL, and nothing is stored.
    expect(api.fetch.mock.calls.every(([url]) => !String(url).includes(KEY))).toBe(true);
    expect(localStorage.length + sessionStorage.length).toBe(0);
    expect(document.cookie).toBe('');
    expect(document.body.innerHTML).not.toContain(KEY);
  });

  it('refuses a malformed tenant before calling the API', async () => {
    const api = fakeApi({});
    renderAt('/', null);
    fireEvent.change(screen.getByLabelText('Administration key'), { target: { value: KEY } });
    fireEvent.change(screen.getByLabelText('Tenant'), { target: { value: 'a b' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open the dashboard' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/1 to 128 letters/);
    // Only the page's own settings were read; the API was not called.
    expect(api.calls.map((c) => c.path)).toEqual(['/dashboard-config.json']);
  });

  it('offers single sign-on only when the admin server names an identity provider, and checks the tenant first', async () => {
    fakeApi({ 'GET /dashboard-config.json': { body: { oidc: null } } });
    const first = renderAt('/', null);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Open the dashboard' })).toBeTruthy());
    expect(screen.queryByRole('heading', { name: 'Single sign-on' })).toBeNull();
    first.unmount();

    const api = fakeApi({
      'GET /dashboard-config.json': {
        body: { oidc: { issuer: 'https://idp.example.com/realms/ops', clientId: 'fw-dashboard', scope: 'openid' } },
      },
    });
    sessionStorage.setItem('fw-dashboard-oidc-pending', '{"abandoned":true}');
    renderAt('/t/acme/cron', null);
    const button = await screen.findByRole('button', { name: 'Sign in with idp.example.com' });
    // A round trip left over from before is forgotten once the form shows again.
    expect(sessionStorage.length).toBe(0);
    fireEvent.change(screen.getByLabelText('Tenant'), { target: { value: 'not a tenant' } });
    fireEvent.click(button);
    expect((await screen.findByRole('alert')).textContent).toMatch(/1 to 128 letters/);
    expect(api.calls.map((c) => c.path)).toEqual(['/dashboard-config.json']);
  });

  it('ends the session on a 401 from any view (the key changed on the server)', async () => {
    fakeApi({
      'GET /processes': { status: 401, body: { message: 'Invalid key' } },
      'GET /definitions': { body: page([]) },
    });
    renderAt('/t/demo/processes');
    expect((await screen.findByRole('alert')).textContent).toMatch(/refused the key or token \(401\)/);
    expect(screen.getByLabelText('Administration key')).toBeTruthy();
  });
});
