/**
 * The process dashboard's single sign-on, in Chromium, against a real local OpenID Connect issuer
 * (its own origin: discovery and token calls are cross-origin, as with a real identity provider)
 * and the real dev admin server verifying the issuer's tokens through its JWKS: the authorization
 * code flow with PKCE (S256) and state from a deep link back to it, signed in with the role and
 * tenants of the token; nothing left in any storage, URL or the DOM; a reload asks again; a
 * tampered state, a refusal of the provider, a callback nobody started and a tenant outside the
 * token all end on the sign-in form with the reason. axe on each view.
 */
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../src/browser';
import { startDevAdminServer, type DevAdminServer } from '../../src/hosts';
import { startOidcIssuer, type OidcIssuer } from '../../src/oidc-issuer';
import { dashboardPage, expectAccessible, shot, type DashboardPage } from './support';

const CLIENT_ID = 'fw-dashboard-e2e';
const AUDIENCE = 'fw-admin-e2e';

describe('process dashboard: single sign-on at an OpenID Connect issuer', () => {
  let issuer: OidcIssuer;
  let host: DevAdminServer;
  let browser: Browser;
  let provider: string;

  beforeAll(async () => {
    issuer = await startOidcIssuer({ clientId: CLIENT_ID, audience: AUDIENCE });
    provider = new URL(issuer.url).host;
    [host, browser] = await Promise.all([
      startDevAdminServer({
        PROCESS_MANAGEMENT_JWKS_URL: `${issuer.url}jwks`,
        PROCESS_MANAGEMENT_JWT_ISSUER: issuer.url,
        PROCESS_MANAGEMENT_JWT_AUDIENCE: AUDIENCE,
        FW_ADMIN_OIDC_ISSUER: issuer.url,
        FW_ADMIN_OIDC_CLIENT_ID: CLIENT_ID,
      }),
      launchBrowser(),
    ]);
    issuer.allowRedirect(`${host.url}/oidc-callback`);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
    await issuer?.close();
  });

  /** Opens `path`, types the tenant and presses the single sign-on button. */
  async function signInThere(dash: DashboardPage, path: string, tenant = 'demo'): Promise<void> {
    const { page } = dash;
    await page.goto(`${host.url}${path}`);
    await page.getByLabel('Tenant', { exact: true }).fill(tenant);
    await page.getByRole('button', { name: `Sign in with ${provider}` }).click();
  }

  /** What the page keeps: storage, cookies, and whether `secret` is in the DOM or the address. */
  async function leftInPage(dash: DashboardPage, secret: string) {
    return dash.page.evaluate(
      (s) => ({
        localStorage: localStorage.length,
        sessionStorage: sessionStorage.length,
        cookies: document.cookie,
        inDom: document.documentElement.outerHTML.includes(s),
        inAddress: location.href.includes(s),
      }),
      secret,
    );
  }

  it('signs in with the authorization code and PKCE, back to the deep link, the token in memory only', async () => {
    issuer.signInAs({ sub: 'olga', roles: ['operator'], tenants: ['demo'] });
    const dash = await dashboardPage(browser);
    const { page } = dash;
    try {
      await page.goto(`${host.url}/t/demo/cron`);
      await page.getByRole('heading', { name: 'Single sign-on' }).waitFor();
      await expectAccessible(page, 'sign-in with single sign-on offered');
      await shot(page, 'sign-in-sso');

      const before = issuer.log.length;
      await signInThere(dash, '/t/demo/cron');
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      await page.getByRole('heading', { name: 'Cron schedules' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/t/demo/cron');
      expect(await page.getByText('jwt:olga · operator').count()).toBe(1);
      await expectAccessible(page, 'cron after single sign-on');

      // The issuer saw an S256 challenge and a state, then the matching verifier (it checks it).
      const steps = issuer.log.slice(before);
      const authorize = steps.find((s) => s.endpoint === 'authorize');
      const exchange = steps.find((s) => s.endpoint === 'token');
      expect(authorize).toMatchObject({
        outcome: 'code',
        params: {
          client_id: CLIENT_ID,
          response_type: 'code',
          redirect_uri: `${host.url}/oidc-callback`,
          scope: 'openid',
          code_challenge_method: 'S256',
          code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          state: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/),
        },
      });
      expect(exchange).toMatchObject({
        outcome: 'issued',
        params: { grant_type: 'authorization_code', code_verifier: expect.stringMatching(/^[A-Za-z0-9_-]{43,128}$/) },
      });
      const verifier = exchange?.params.code_verifier ?? '';

      // Nothing kept: no storage (the verifier and state were removed on return), no cookie, the
      // callback's code gone from the address, the verifier nowhere.
      expect(await leftInPage(dash, verifier)).toEqual({
        localStorage: 0,
        sessionStorage: 0,
        cookies: '',
        inDom: false,
        inAddress: false,
      });
      expect(dash.console.filter((m) => m.includes(verifier))).toEqual([]);

      // A reload forgets the token: the form again, on the same view.
      await page.reload();
      await page.getByRole('button', { name: `Sign in with ${provider}` }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/t/demo/cron');
      expect(dash.errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('ends on the form with the reason: a changed state, the provider’s refusal, no sign-in started, another tenant', async () => {
    issuer.signInAs({ sub: 'olga', roles: ['operator'], tenants: ['demo'] });
    const dash = await dashboardPage(browser);
    const { page } = dash;
    const alert = page.getByRole('alert');
    try {
      const exchanges = () => issuer.log.filter((s) => s.endpoint === 'token').length;
      const before = exchanges();
      issuer.misbehaveOnce('wrong-state');
      await signInThere(dash, '/t/demo/processes');
      await alert.filter({ hasText: 'answer was refused' }).waitFor();
      expect(await alert.textContent()).toMatch(/state/i);
      expect(exchanges()).toBe(before); // the code was never exchanged
      expect(await leftInPage(dash, 'state')).toMatchObject({ sessionStorage: 0 });
      await expectAccessible(page, 'single sign-on refused');
      await shot(page, 'sign-in-sso-refused');

      issuer.misbehaveOnce('access-denied');
      await signInThere(dash, '/t/demo/processes');
      await alert.filter({ hasText: 'access_denied' }).waitFor();

      await page.goto(`${host.url}/oidc-callback?code=forged&state=forged`);
      await alert.filter({ hasText: 'No sign-in was started in this tab' }).waitFor();

      issuer.signInAs({ sub: 'ivan', roles: ['admin'], tenants: ['elsewhere'] });
      await signInThere(dash, '/t/demo/processes');
      await alert.filter({ hasText: 'may not open tenant “demo”' }).waitFor();
      expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
      expect(await leftInPage(dash, 'unused')).toMatchObject({ localStorage: 0, sessionStorage: 0, cookies: '' });
      expect(dash.errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
