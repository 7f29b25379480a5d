/**
 * The Vite dev server's side of the admin UI: the app at `/`, `/proxy` answered by
 * the same read-only proxy as production (any origin: this is a developer's machine), and the
 * same-origin read-only paths forwarded to the target host. Nothing else is forwarded.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin } from 'vite';
import { proxyInfoRequest } from '../../src/proxy/info-proxy';
import { isReadOnlyInfoPath } from '../../src/proxy/read-only-paths';

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.statusCode = status;
  res.setHeader('content-type', contentType);
  res.setHeader('cache-control', 'no-store');
  res.end(body);
}

export function devProxyPlugin(options: { target: string }): Plugin {
  return {
    name: 'fw-admin-ui-dev-proxy',
    configureServer(server) {
      server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
        const url = new URL(req.url ?? '/', 'http://dev.invalid');
        const key = req.headers['x-fw-info-key'];
        const infoKey = typeof key === 'string' ? key : undefined;
        const isProxy = url.pathname === '/proxy';
        if (isProxy || isReadOnlyInfoPath(url.pathname)) {
          if (req.method !== 'GET') return send(res, 405, 'application/json', JSON.stringify({ message: 'GET only' }));
          const forward = isProxy
            ? { base: url.searchParams.get('base'), path: url.searchParams.get('path') }
            : { base: options.target, path: url.pathname };
          void proxyInfoRequest({ ...forward, infoKey }, { allowOrigin: () => true }).then((answer) =>
            send(res, answer.status, answer.contentType, answer.body),
          );
          return;
        }
        next();
      });
    },
  };
}
