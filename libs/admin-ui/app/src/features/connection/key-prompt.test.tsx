import { fireEvent, screen, waitFor } from '@testing-library/react';
import { answerFetch, envelope, renderAt } from '../../../test-support/render-app';
import { ServicesPage } from '../services/services-page';
import { normalizeBaseUrl } from './base-url-field';
import { KeyPrompt } from './key-prompt';

const KEY = 'info-key-0123456789-0123456789-abcd';

describe('the info key', () => {
  it('is asked for on a 401, sent as X-Fw-Info-Key, and kept in memory only', async () => {
    const log = answerFetch({
      '/info': (headers) =>
        headers['x-fw-info-key'] === KEY
          ? envelope({ name: 'guarded', version: '1', description: '', services: [] })
          : {
              status: 401,
              body: { message: headers['x-fw-info-key'] ? 'Invalid X-Fw-Info-Key' : 'Missing X-Fw-Info-Key header' },
            },
    });
    renderAt('/', [{ path: '/', element: <ServicesPage /> }], <KeyPrompt />);
    const field = await screen.findByLabelText('Info key');
    // The prompt focuses its field in an effect, which may run after the field is found.
    await waitFor(() => expect(document.activeElement).toBe(field));
    fireEvent.change(field, { target: { value: 'wrong-key' } });
    fireEvent.click(screen.getByRole('button', { name: 'Use key' }));
    expect(await screen.findByText(/The key given was refused/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Info key'), { target: { value: KEY } });
    fireEvent.click(screen.getByRole('button', { name: 'Use key' }));
    expect(await screen.findByText('guarded 1')).toBeTruthy();
    expect(screen.queryByLabelText('Info key')).toBeNull();
    expect(log.at(-1)?.headers['x-fw-info-key']).toBe(KEY);
    await waitFor(() => expect(log.filter((l) => l.headers['x-fw-info-key'] === KEY)).toHaveLength(1));
    const stored = [
      document.cookie,
      window.location.href,
      JSON.stringify({ ...window.localStorage }),
      JSON.stringify({ ...window.sessionStorage }),
    ].join(' ');
    expect(stored).not.toContain(KEY);
  });
});

describe('normalizeBaseUrl', () => {
  it('keeps an origin and a path prefix, empties to this host, and refuses what is no http URL', () => {
    expect(normalizeBaseUrl('  ')).toBeNull();
    expect(normalizeBaseUrl(`${window.location.origin}/`)).toBeNull();
    expect(normalizeBaseUrl('http://other:8081/')).toBe('http://other:8081');
    expect(normalizeBaseUrl('https://gw.example/app/')).toBe('https://gw.example/app');
    expect((normalizeBaseUrl('ftp://x') as Error).message).toBe('Use an http or https URL');
    expect((normalizeBaseUrl('not a url') as Error).message).toMatch(/Enter a URL such as/);
  });
});
