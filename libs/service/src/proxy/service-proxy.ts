/**
 * The service proxy ("cloud switch"): callers invoke a service the same way whether
 * it runs in this host or in another one. Config decides: a service with a `url` under
 * `services.<name>.url` is called over HTTP (its operation's method and path are read once from
 * the remote `/service-info/{svc}`), every other one through the local registry. Errors come back
 * as the same `FwError`s either way (status, sub-error code, field).
 *
 * @example
 * const proxy = makeServiceProxy({ registry, services: { billing: { url: 'http://billing:8080' } } });
 * await proxy.invoke('billing', 'charge', { amount: 10 }, { tenant: 't1' }); // over HTTP
 * await proxy.invoke('greeter', 'greet', { name: 'Ada' });                  // in this process
 */
import { FwError, TENANT_HEADER } from '@fw/core';
import type { ServiceDescription } from '../definition/service-definition';
import { ServiceErrorCodes } from '../errors/service-errors';
import type { InvokeOptions, ServiceRegistry } from '../registry/service-registry';

export interface ServiceProxyOptions {
  /** The local services. */
  registry: ServiceRegistry;
  /** `services.<name>.url`: where a remote service runs. Absent: local. */
  services?: Readonly<Record<string, { url?: string } | undefined>>;
  /** Headers sent with every remote call (keys of the remote host, for example). */
  headers?: Readonly<Record<string, string>>;
  /** Per-request time limit (default 10 000 ms). */
  timeoutMillis?: number;
}

export interface ServiceProxy {
  invoke(service: string, operation: string, input: unknown, options?: InvokeOptions): Promise<unknown>;
  /** `local`, or the base URL the service resolves to. */
  resolve(service: string): 'local' | string;
}

interface EnvelopeError {
  success: false;
  code: number;
  subErrorCode?: string;
  description?: string;
  errors?: Array<{ field?: string; description?: string; subErrorCode?: string; params?: unknown[] }>;
}

function toFwError(status: number, body: unknown, where: string): FwError {
  const e = (typeof body === 'object' && body !== null ? body : {}) as Partial<EnvelopeError> & { message?: string };
  const first = e.errors?.[0];
  return new FwError({
    code: typeof e.code === 'number' ? e.code : status,
    subErrorCode: e.subErrorCode ?? first?.subErrorCode ?? `HTTP${status}`,
    description: e.description ?? e.message ?? `${where} answered ${status}`,
    ...(first?.field ? { field: first.field } : {}),
    details: (e.errors ?? []).slice(1).map((d) => ({
      subErrorCode: d.subErrorCode ?? '',
      description: d.description ?? '',
      params: d.params ?? [],
      ...(d.field ? { field: d.field } : {}),
    })),
  });
}

/** `/tickets/{id}` with `{ id: 7 }` → `/tickets/7`; the names used. */
function fillPath(path: string, input: Record<string, unknown>): { path: string; used: Set<string> } {
  const used = new Set<string>();
  const filled = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    used.add(name);
    const value = input[name];
    if (value === undefined || value === null)
      throw new FwError({
        code: 400,
        subErrorCode: ServiceErrorCodes.invalidInput,
        description: `'input.${name}' is required (a path parameter)`,
        field: `input.${name}`,
      });
    return encodeURIComponent(String(value));
  });
  return { path: filled, used };
}

export function makeServiceProxy(options: ServiceProxyOptions): ServiceProxy {
  const described = new Map<string, Promise<ServiceDescription>>();
  const timeout = options.timeoutMillis ?? 10_000;
  const urlOf = (service: string) => options.services?.[service]?.url?.replace(/\/+$/, '');

  const describeRemote = (service: string, url: string): Promise<ServiceDescription> => {
    let found = described.get(service);
    if (found === undefined) {
      found = (async () => {
        const res = await fetch(`${url}/service-info/${encodeURIComponent(service)}`, {
          headers: { ...options.headers },
          signal: AbortSignal.timeout(timeout),
        });
        const body = (await res.json().catch(() => undefined)) as { payload?: ServiceDescription } | undefined;
        if (!res.ok || body?.payload === undefined) throw toFwError(res.status, body, `${url}/service-info/${service}`);
        return body.payload;
      })();
      described.set(service, found);
      found.catch(() => described.delete(service));
    }
    return found;
  };

  async function invokeRemote(
    url: string,
    service: string,
    operation: string,
    input: unknown,
    invokeOptions: InvokeOptions,
  ): Promise<unknown> {
    const description = await describeRemote(service, url);
    const op = description.operations.find((o) => o.name === operation);
    if (op === undefined)
      throw new FwError({
        code: 404,
        subErrorCode: ServiceErrorCodes.notFound,
        description: `Service '${service}' has no operation '${operation}'`,
        params: [service, operation],
      });
    if (op.method === undefined || op.path === undefined)
      throw new FwError({
        code: 501,
        subErrorCode: ServiceErrorCodes.notInvocable,
        description: `${service}.${operation} has no HTTP binding at ${url}`,
        params: [service, operation],
      });
    const fields = (typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {}) as Record<
      string,
      unknown
    >;
    const { path, used } = fillPath(op.path, fields);
    const body = op.method === 'POST' || op.method === 'PUT' || op.method === 'PATCH';
    const query = new URLSearchParams();
    if (!body)
      for (const [k, v] of Object.entries(fields))
        if (!used.has(k) && v !== undefined && v !== null) query.set(k, String(v));
    const headers: Record<string, string> = { ...options.headers, ...invokeOptions.headers };
    if (invokeOptions.tenant !== undefined) headers[TENANT_HEADER] = invokeOptions.tenant;
    if (body) headers['content-type'] = 'application/json';
    const target = `${url}${path}${query.size > 0 ? `?${query}` : ''}`;
    const res = await fetch(target, {
      method: op.method,
      headers,
      body: body ? JSON.stringify(input ?? {}) : undefined,
      signal: AbortSignal.timeout(timeout),
    });
    const answer = (await res.json().catch(() => undefined)) as { success?: boolean; payload?: unknown } | undefined;
    if (!res.ok || answer?.success !== true) throw toFwError(res.status, answer, `${op.method} ${target}`);
    return answer.payload;
  }

  return {
    resolve: (service) => urlOf(service) ?? 'local',
    async invoke(service, operation, input, invokeOptions = {}) {
      const url = urlOf(service);
      return url === undefined
        ? options.registry.invoke(service, operation, input, invokeOptions)
        : invokeRemote(url, service, operation, input, invokeOptions);
    },
  };
}
