/** @jest-environment jsdom */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CALLERS, DEFINITIONS, fakeApi, INFO, page, renderAt } from './harness';

const TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ2ZXJhIn0.c2lnbmF0dXJl';

const CRONTAB = {
  id: '00000000-0000-4000-8000-0000000000c1',
  tenant: 'demo',
  name: 'nightly',
  cronExpression: '0 0 2 * * *',
  timezone: 'UTC',
  enabled: true,
  payload: { processDefName: 'word-count', args: {} },
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  lastFiredAt: null,
  lastScheduledTime: null,
};

const AUDIT_ROW = {
  id: 'a1',
  time: '2025-01-02T03:04:05.000Z',
  actor: 'jwt:otto',
  credential: 'jwt',
  tenant: 'demo',
  action: 'trigger',
  target: 'manual:demo:run-1',
  outcome: 'refused',
  requestId: 'req-1',
};

function readApi() {
  return fakeApi({
    'GET /info': { body: INFO },
    'GET /processes': { body: page([]) },
    'GET /definitions': { body: page(DEFINITIONS) },
    'GET /crontabs': { body: page([CRONTAB]) },
    'GET /executions': { body: page([]) },
    'GET /audit': {
      body: page([
        AUDIT_ROW,
        { ...AUDIT_ROW, id: 'a2', actor: 'anonymous', credential: null, target: null, requestId: 'req-2' },
      ]),
    },
  });
}

function navLabels(): string[] {
  return within(screen.getByRole('navigation', { name: 'Main' }))
    .getAllByRole('link')
    .map((a) => a.textContent ?? '');
}

describe('signing in with a bearer token', () => {
  it('sends the token as Authorization: Bearer (never the key header), and shows the caller and only its views', async () => {
    const api = fakeApi({
      'GET /me': (req) =>
        req.headers.Authorization === `Bearer ${TOKEN}`
          ? { body: CALLERS.viewer }
          : { status: 401, body: { message: 'The bearer token has expired' } },
      'GET /info': { body: INFO },
      'GET /processes': { body: page([]) },
      'GET /definitions': { body: page([]) },
    });
    renderAt('/', null);
    fireEvent.click(screen.getByRole('radio', { name: 'Token' }));
    fireEvent.change(screen.getByLabelText('Bearer token (JWT)'), { target: { value: 'expired.token.value' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open the dashboard' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The token was refused (401): The bearer token has expired.',
    );
    fireEvent.change(screen.getByLabelText('Bearer token (JWT)'), { target: { value: TOKEN } });
    fireEvent.click(screen.getByRole('button', { name: 'Open the dashboard' }));
    await screen.findByRole('heading', { name: 'Processes' });
    expect(screen.getByText('jwt:vera · viewer')).toBeTruthy();
    expect(navLabels()).toEqual(['Processes', 'Executions', 'Cron', 'Definitions', 'Health']);
    expect(api.calls.every((c) => c.headers['X-Process-Management-Key'] === undefined)).toBe(true);
    expect(api.fetch.mock.calls.every(([url]) => !String(url).includes(TOKEN))).toBe(true);
    expect(localStorage.length + sessionStorage.length).toBe(0);
    expect(document.body.innerHTML).not.toContain(TOKEN);
  });

  it('refuses a tenant outside the token before opening it', async () => {
    const api = fakeApi({ 'GET /me': { body: CALLERS.viewer } });
    renderAt('/t/acme/processes', null);
    fireEvent.click(screen.getByRole('radio', { name: 'Token' }));
    fireEvent.change(screen.getByLabelText('Bearer token (JWT)'), { target: { value: TOKEN } });
    fireEvent.click(screen.getByRole('button', { name: 'Open the dashboard' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This credential may not open tenant “acme”. Its tenants: demo.',
    );
    // The page's own settings, then the credential's check; no call for the tenant refused.
    expect(api.calls.map((c) => c.path)).toEqual(['/dashboard-config.json', '/me']);
  });
});

describe('what each role sees', () => {
  it('viewer: reads only — no trigger, no schedule or definition changes, no audit', async () => {
    readApi();
    renderAt('/t/demo/cron', TOKEN, CALLERS.viewer);
    await screen.findByRole('link', { name: 'nightly' });
    expect(navLabels()).toEqual(['Processes', 'Executions', 'Cron', 'Definitions', 'Health']);
    expect(screen.queryByRole('link', { name: 'New schedule' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Disable nightly' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete nightly' })).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'Definitions' }));
    await screen.findByRole('link', { name: 'word-count' });
    expect(screen.queryByRole('link', { name: 'New definition' })).toBeNull();
    expect(screen.queryByRole('button', { name: "Reload the server's cache" })).toBeNull();
    // The tenant switch offers the caller's tenants only.
    expect(
      within(screen.getByLabelText('Tenant'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['demo']);
  });

  it('operator: triggers and switches schedules on and off, nothing more', async () => {
    const api = readApi();
    renderAt('/t/demo/cron', TOKEN, CALLERS.operator);
    await screen.findByRole('link', { name: 'nightly' });
    expect(navLabels()).toEqual(['Processes', 'Executions', 'Trigger', 'Cron', 'Definitions', 'Health']);
    expect(screen.getByRole('button', { name: 'Disable nightly' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete nightly' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'New schedule' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Disable nightly' }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.method === 'PUT' && c.path === `/crontabs/${CRONTAB.id}`)).toBe(true),
    );
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ enabled: false });
  });

  it('admin: every action and the audit trail, filtered through the URL', async () => {
    const api = readApi();
    renderAt('/t/demo/audit', 'admin-key-0123456789abcdef0123456789', CALLERS.admin);
    const table = await screen.findByRole('table', { name: 'Audit trail, newest first' });
    expect(within(table).getByText('jwt:otto')).toBeTruthy();
    expect(within(table).getAllByText('refused')).toHaveLength(2);
    expect(within(table).getByText('manual:demo:run-1')).toBeTruthy();
    // A write refused before any credential: anonymous, no credential.
    const anonymous = within(table).getByText('anonymous').closest('tr') as HTMLElement;
    expect(within(anonymous).getByText('none')).toBeTruthy();
    expect(within(table).getByText('jwt:otto').closest('tr')?.textContent).toContain('token');
    expect(navLabels()).toEqual(['Processes', 'Executions', 'Trigger', 'Cron', 'Definitions', 'Health', 'Audit']);
    fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'addCrontab' } });
    await waitFor(() =>
      expect(api.calls.some((c) => c.path === '/audit' && c.query.get('action') === 'addCrontab')).toBe(true),
    );
    fireEvent.change(screen.getByLabelText('Actor'), { target: { value: 'jwt:otto' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(
        api.calls.some(
          (c) => c.path === '/audit' && c.query.get('actor') === 'jwt:otto' && c.query.get('action') === 'addCrontab',
        ),
      ).toBe(true),
    );
  });

  it('a non-admin opening the audit link reads why it is not shown', async () => {
    const api = readApi();
    renderAt('/t/demo/audit', TOKEN, CALLERS.operator);
    expect(await screen.findByText('The audit trail needs the admin role.')).toBeTruthy();
    expect(api.calls.some((c) => c.path === '/audit')).toBe(false);
  });
});
