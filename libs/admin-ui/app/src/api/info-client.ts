/**
 * The one client of the read-only endpoints. Same origin by default; another base URL goes through
 * the admin UI's proxy (`<ui base>proxy?base=…&path=…`), which forwards GET of these paths only.
 * The info key, when the host asks for one, is passed in from memory on every call.
 */
import type {
  AllowedAction,
  ApiDocument,
  CatalogEntry,
  Flow,
  HealthCheckResult,
  HealthOutcome,
  HostInfo,
  ServiceDescription,
  TestCase,
} from './info-types';

export interface Connection {
  /** Another host's base URL, or null for the origin the UI is served from. */
  baseUrl: string | null;
  /** X-Fw-Info-Key, kept in memory only. */
  infoKey: string | null;
}

/** A failed call: the HTTP status (0 when nothing answered) and the message to show. */
export class InfoApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'InfoApiError';
  }

  /**
   * A 401 of the info key guard (X-Fw-Info-Key), as opposed to a host's own key on its other routes
   * (the admin server answers 401 for any path behind its management key).
   */
  get needsInfoKey(): boolean {
    return this.status === 401 && /x-fw-info-key/i.test(this.message);
  }
}

interface Envelope {
  success?: boolean;
  payload?: unknown;
  description?: string;
  message?: string;
  params?: unknown;
  errors?: Array<{ params?: unknown }>;
}

/** The URL a path is read from: the origin itself, or the proxy next to the UI. */
export function urlFor(connection: Connection, path: string, uiBase: string = document.baseURI): string {
  if (connection.baseUrl === null) return new URL(path, window.location.origin).toString();
  const proxy = new URL('proxy', uiBase);
  proxy.searchParams.set('base', connection.baseUrl);
  proxy.searchParams.set('path', path);
  return proxy.toString();
}

async function call(connection: Connection, path: string): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (connection.infoKey) headers['x-fw-info-key'] = connection.infoKey;
  let response: Response;
  try {
    response = await fetch(urlFor(connection, path), { headers, credentials: 'omit' });
  } catch {
    throw new InfoApiError(0, `No answer from ${connection.baseUrl ?? 'this host'}`);
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text.length === 0 ? null : JSON.parse(text);
  } catch {
    // Plain text (a proxy or a host that does not speak JSON): shown as it is.
  }
  return { status: response.status, body };
}

function messageOf(body: unknown, status: number): string {
  if (body !== null && typeof body === 'object') {
    const e = body as Envelope;
    if (typeof e.description === 'string') return e.description;
    if (typeof e.message === 'string') return e.message;
  }
  if (typeof body === 'string' && body.length > 0 && body.length < 300) return body;
  return `HTTP ${status}`;
}

/** GET of an enveloped endpoint: its payload, or an InfoApiError. */
export async function getPayload<T>(connection: Connection, path: string): Promise<T> {
  const { status, body } = await call(connection, path);
  if (status !== 200) throw new InfoApiError(status, messageOf(body, status), body);
  if (body !== null && typeof body === 'object' && 'payload' in body) return (body as Envelope).payload as T;
  throw new InfoApiError(status, `${path} did not answer the framework envelope`, body);
}

/**
 * Every path the UI reads, as the OpenAPI templates a host's `/openapi.json` documents them
 * (`{svc}` a workflow service's own path prefix); a test checks each against a real host's document.
 */
export const INFO_PATHS = {
  hostInfo: '/info',
  service: '/service-info/{svc}',
  health: '/health-check/{svc}',
  catalog: '/serviceregistry',
  workflowFlows: '/{svc}/info',
  flow: '/{svc}/info/flows/{flowId}',
  diagram: '/{svc}/info/flows/{flowId}/diagram',
  testCases: '/{svc}/info/flows/{flowId}/test-cases',
  allowedActions: '/{svc}/info/flows/{flowId}/states/{stateId}/allowed-actions',
} as const;

/** A template with its `{name}` parameters filled, each URL-encoded. */
export function fillPath(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_whole, name: string) => encodeURIComponent(values[name] ?? ''));
}

export const infoApi = {
  hostInfo: (c: Connection) => getPayload<HostInfo>(c, INFO_PATHS.hostInfo),
  service: (c: Connection, svc: string) => getPayload<ServiceDescription>(c, fillPath(INFO_PATHS.service, { svc })),
  workflowFlows: (c: Connection, svc: string) =>
    getPayload<{ flows: Array<{ id: string; default: boolean }> }>(c, fillPath(INFO_PATHS.workflowFlows, { svc })),
  flow: (c: Connection, svc: string, flowId: string) => getPayload<Flow>(c, fillPath(INFO_PATHS.flow, { svc, flowId })),
  diagram: (c: Connection, svc: string, flowId: string) =>
    getPayload<string>(c, fillPath(INFO_PATHS.diagram, { svc, flowId })),
  testCases: (c: Connection, svc: string, flowId: string) =>
    getPayload<TestCase[]>(c, fillPath(INFO_PATHS.testCases, { svc, flowId })),
  allowedActions: (c: Connection, svc: string, flowId: string, stateId: string) =>
    getPayload<AllowedAction[]>(c, fillPath(INFO_PATHS.allowedActions, { svc, flowId, stateId })),
  catalog: (c: Connection) => getPayload<CatalogEntry[]>(c, INFO_PATHS.catalog),

  /** `/health-check/{svc}`: 200 healthy, 503 unhealthy with the failing checks, 404 no checker. */
  async health(c: Connection, svc: string): Promise<HealthOutcome> {
    const { status, body } = await call(c, fillPath(INFO_PATHS.health, { svc }));
    const envelope = (body ?? {}) as Envelope & { payload?: { checks?: HealthCheckResult[] } };
    if (status === 200) return { state: 'healthy', checks: envelope.payload?.checks ?? [] };
    if (status === 404) return { state: 'no-checker', description: messageOf(body, status) };
    if (status === 503) {
      const failing = Array.isArray(envelope.errors?.[0]?.params)
        ? (envelope.errors?.[0]?.params as unknown[]).map(String)
        : Array.isArray(envelope.params)
          ? (envelope.params as unknown[]).map(String)
          : [];
      return {
        state: 'unhealthy',
        description: messageOf(body, status),
        failing,
        checks: failing.map((name) => ({ name, healthy: false })),
      };
    }
    throw new InfoApiError(status, messageOf(body, status), body);
  },

  /** The first OpenAPI document that answers, with the paths probed on the way. */
  async apiDocs(
    c: Connection,
    paths: readonly string[],
  ): Promise<Array<{ path: string; status: number; document?: ApiDocument }>> {
    const results: Array<{ path: string; status: number; document?: ApiDocument }> = [];
    for (const path of paths) {
      const { status, body } = await call(c, path).catch((err: unknown) => ({
        status: err instanceof InfoApiError ? err.status : 0,
        body: null,
      }));
      const refusal = status === 401 ? new InfoApiError(401, messageOf(body, status), body) : undefined;
      if (refusal?.needsInfoKey) throw refusal;
      const document =
        status === 200 && body !== null && typeof body === 'object' && ('openapi' in body || 'swagger' in body)
          ? (body as ApiDocument)
          : undefined;
      results.push({ path, status, document });
    }
    return results;
  },
};
