/**
 * The admin UI's proxy to a host on another origin: it forwards `GET` of the read-only paths only
 * (see `isReadOnlyInfoPath`), to origins the policy allows, with no header but `X-Fw-Info-Key`,
 * following no redirect, answering JSON or text of bounded size. Used by the express router (origins
 * from `proxyAllowedOrigins`) and by the Vite dev server (any origin: a developer's machine).
 */
import { errorEnvelope, FwError } from '@fw/core';
import { isReadOnlyInfoPath } from './read-only-paths';

export interface InfoProxyPolicy {
  /** Whether the proxy may call this origin (`http://host:port`, as `URL.origin` spells it). */
  allowOrigin(origin: string): boolean;
  /** Per upstream call (default 10 000 ms). */
  timeoutMillis?: number;
  /** Largest upstream body passed back (default 5 MiB). */
  maxBodyBytes?: number;
}

export interface InfoProxyRequest {
  /** Base URL of the host: `http(s)://host[:port][/prefix]`. */
  base: unknown;
  /** A read-only path, e.g. `/service-info/query`. */
  path: unknown;
  /** `X-Fw-Info-Key` to pass on, if the user gave one. */
  infoKey?: string;
}

export interface InfoProxyResponse {
  status: number;
  contentType: string;
  body: string;
}

/** A refusal of the proxy: the framework error envelope (`AUI` and the status), its `message` saying why. */
function refusal(status: number, message: string): InfoProxyResponse {
  const error = new FwError({ code: status, subErrorCode: `AUI${status}`, description: message });
  return { status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(errorEnvelope(error)) };
}

/** Parses the base URL, or says what is wrong with it. */
export function parseProxyBase(base: unknown): URL | string {
  if (typeof base !== 'string' || base.length === 0 || base.length > 2048)
    return "'base' must be a URL such as http://host:8080";
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return `'base' is not a URL: ${base.slice(0, 200)}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return "'base' must use http or https";
  if (url.username !== '' || url.password !== '') return "'base' must not carry credentials";
  if (url.search !== '' || url.hash !== '') return "'base' must not carry a query or a fragment";
  if (/(^|\/)\.\.?(\/|$)|%|\\/.test(url.pathname)) return "'base' has a path that is not plain";
  return url;
}

async function readBounded(response: Response, maxBytes: number): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Forwards one read-only request, or refuses it: 400 for a bad base or a path outside the list, 403
 * for an origin the policy does not allow, 502/504 when the host does not answer.
 */
export async function proxyInfoRequest(request: InfoProxyRequest, policy: InfoProxyPolicy): Promise<InfoProxyResponse> {
  const base = parseProxyBase(request.base);
  if (typeof base === 'string') return refusal(400, base);
  if (typeof request.path !== 'string' || !isReadOnlyInfoPath(request.path)) {
    return refusal(
      400,
      `'path' must be one of the read-only info paths (/info, /service-info/{svc}, /health-check/{svc}, /serviceregistry, the OpenAPI documents, /{svc}/info/...)`,
    );
  }
  if (!policy.allowOrigin(base.origin)) {
    return refusal(403, `This host does not proxy ${base.origin}: list it in the admin UI's proxyAllowedOrigins`);
  }
  const target = new URL(base.pathname.replace(/\/+$/, '') + request.path, base.origin);
  const headers: Record<string, string> = { accept: 'application/json, text/plain;q=0.5' };
  if (request.infoKey !== undefined && request.infoKey.length > 0 && request.infoKey.length <= 512)
    headers['x-fw-info-key'] = request.infoKey;
  let response: Response;
  try {
    response = await fetch(target, {
      method: 'GET',
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(policy.timeoutMillis ?? 10_000),
    });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    return refusal(
      timedOut ? 504 : 502,
      timedOut ? `${base.origin} did not answer in time` : `${base.origin} cannot be reached`,
    );
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    return refusal(502, `${base.origin} answered a redirect, which the proxy does not follow`);
  }
  const contentType = response.headers.get('content-type') ?? '';
  if (!/^(application\/([a-z.+-]+\+)?json|text\/plain)\b/i.test(contentType)) {
    await response.body?.cancel();
    return refusal(502, `${base.origin} answered ${contentType || 'no content type'}, not JSON`);
  }
  const body = await readBounded(response, policy.maxBodyBytes ?? 5 * 1024 * 1024);
  if (body === undefined) return refusal(502, `${base.origin} answered more than the proxy passes back`);
  return { status: response.status, contentType, body };
}
