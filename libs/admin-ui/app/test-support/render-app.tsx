/**
 * Component-test support: the app's providers around a view, at a URL, with `fetch` answered by a
 * route table (jsdom has no network). The answers are built from real `@fw/service` registries by
 * the tests, so the shapes are the server's own.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { ConnectionProvider } from '../src/api/connection-context';
import { ThemeProvider } from '../src/features/theme/theme';

export interface FakeAnswer {
  status: number;
  body: unknown;
}

export interface FetchLog {
  url: string;
  headers: Record<string, string>;
}

/** Installs `window.fetch` answering `routes[pathname]` (a function of the request headers, or a fixed answer); 404 otherwise. */
export function answerFetch(
  routes: Record<string, FakeAnswer | ((headers: Record<string, string>) => FakeAnswer)>,
): FetchLog[] {
  const log: FetchLog[] = [];
  const fake = async (input: string | URL, init?: { headers?: Record<string, string> }) => {
    const url = new URL(String(input), window.location.href);
    const headers = init?.headers ?? {};
    log.push({ url: url.toString(), headers });
    const route =
      routes[
        url.pathname === '/proxy' || url.pathname.endsWith('/proxy')
          ? `proxy:${url.searchParams.get('base')}${url.searchParams.get('path')}`
          : url.pathname
      ];
    const answer =
      typeof route === 'function'
        ? route(headers)
        : (route ?? { status: 404, body: { success: false, code: 404, description: 'Not found' } });
    return {
      status: answer.status,
      text: async () => (typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)),
    };
  };
  Object.defineProperty(window, 'fetch', { value: fake, configurable: true, writable: true });
  return log;
}

export function envelope(payload: unknown): FakeAnswer {
  return { status: 200, body: { success: true, code: 200, payload } };
}

export function renderAt(
  path: string,
  routes: Array<{ path: string; element: ReactElement }>,
  extra?: ReactElement,
): RenderResult {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ConnectionProvider>
        <ThemeProvider>
          <MemoryRouter initialEntries={[path]}>
            {extra}
            <Routes>
              {routes.map((r) => (
                <Route key={r.path} path={r.path} element={r.element} />
              ))}
            </Routes>
          </MemoryRouter>
        </ThemeProvider>
      </ConnectionProvider>
    </QueryClientProvider>,
  );
}
