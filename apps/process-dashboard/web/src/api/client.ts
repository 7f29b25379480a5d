/**
 * The one typed client of the administration API. Every call goes to `/process-management/api`
 * (same origin; the dev server proxies exactly that prefix) with the credential (an administration
 * key in `X-Process-Management-Key`, or a bearer token in `Authorization`) and the tenant header.
 * The credential is handed in by the session (memory only) and never put in a URL, a log or an
 * error.
 *
 * Every endpoint the client calls is listed in {@link ENDPOINTS}; a test checks each one (path,
 * method, query parameters) against the server's OpenAPI document.
 *
 * @example
 * const api = createApiClient({ credential: { kind: 'token', secret: jwt }, tenant: 'demo' });
 * const page = await api.listProcesses({ roots: true }, { page: 0, size: 25 });
 */
import type {
  AuditEntry,
  AuditFilter,
  Caller,
  Crontab,
  CrontabInput,
  Execution,
  ExecutionFilter,
  Health,
  ManagementInfo,
  Page,
  PageParams,
  ProcessDef,
  ProcessDefBody,
  ProcessDetail,
  ProcessFilter,
  ProcessSummary,
  TraceGraph,
  TriggerPayload,
  TriggerResult,
} from './types';

export const API_BASE = '/process-management/api';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface Endpoint {
  readonly method: Method;
  /** OpenAPI-style path under {@link API_BASE}, `{name}` for path parameters. */
  readonly path: string;
  /** Query parameters the client may send. */
  readonly query?: readonly string[];
}

const PAGING = ['page', 'size'] as const;

/** Every call of the client: the contract test reads this table. */
export const ENDPOINTS = {
  info: { method: 'GET', path: '/info' },
  listProcesses: {
    method: 'GET',
    path: '/processes',
    query: ['processType', 'status', 'triggerId', 'parentId', 'predecessorId', 'roots', 'q', ...PAGING],
  },
  getProcess: { method: 'GET', path: '/processes/{id}' },
  deleteProcess: { method: 'DELETE', path: '/processes/{id}' },
  trace: { method: 'GET', path: '/trace', query: ['processId', 'triggerId'] },
  listExecutions: {
    method: 'GET',
    path: '/executions',
    query: ['triggerId', 'crontabId', 'status', 'source', 'processType', ...PAGING],
  },
  trigger: { method: 'POST', path: '/triggers' },
  listCrontabs: { method: 'GET', path: '/crontabs', query: PAGING },
  getCrontab: { method: 'GET', path: '/crontabs/{id}' },
  createCrontab: { method: 'POST', path: '/crontabs' },
  updateCrontab: { method: 'PUT', path: '/crontabs/{id}' },
  deleteCrontab: { method: 'DELETE', path: '/crontabs/{id}' },
  listDefinitions: { method: 'GET', path: '/definitions', query: PAGING },
  getDefinition: { method: 'GET', path: '/definitions/{name}' },
  createDefinition: { method: 'POST', path: '/definitions' },
  updateDefinition: { method: 'PUT', path: '/definitions/{name}' },
  deleteDefinition: { method: 'DELETE', path: '/definitions/{name}' },
  refreshDefinitions: { method: 'POST', path: '/definitions/refresh' },
  me: { method: 'GET', path: '/me' },
  listAudit: { method: 'GET', path: '/audit', query: ['actor', 'action', 'from', 'to', ...PAGING] },
  health: { method: 'GET', path: '/health' },
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;

/** An answer other than 2xx: the status and the `message` of the API's error envelope. */
export class ApiError extends Error {
  readonly status: number;
  /** The field the message names (`'payload.args': …` → `payload.args`), when it names one. */
  readonly field: string | undefined;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.field = fieldOf(message);
  }
}

/** The field an API message names first: `'payload.args' must…`, `Query parameter 'size' …`. */
export function fieldOf(message: string): string | undefined {
  const match = /'([A-Za-z_$][\w$.[\]]*)'/.exec(message);
  return match ? match[1] : undefined;
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

type QueryValue = string | number | boolean | undefined;

function buildPath(endpoint: Endpoint, params: Record<string, string>, query: Record<string, QueryValue>): string {
  const path = endpoint.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === '' || value === false) continue;
    if (!endpoint.query?.includes(name))
      throw new Error(`${endpoint.method} ${endpoint.path} takes no query parameter '${name}'`);
    search.set(name, String(value));
  }
  const text = search.toString();
  return `${API_BASE}${path}${text ? `?${text}` : ''}`;
}

/**
 * The text of an error answer. Every error of the API is the framework error envelope, whose
 * `message` says what is wrong; `description` (the same text) is read when `message` is absent
 * (an envelope of a host before the field was added). Anything else (not JSON, a proxy's page)
 * shows the status text.
 */
async function messageOf(response: Response): Promise<string> {
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object') {
      const { message, description } = body as { message?: unknown; description?: unknown };
      if (typeof message === 'string' && message !== '') return message;
      if (typeof description === 'string' && description !== '') return description;
    }
  } catch {
    // not JSON: fall through
  }
  return response.statusText || `HTTP ${response.status}`;
}

/** What signs the calls in: an administration key or a bearer token (JWT). */
export type Credential = { kind: 'key' | 'token'; secret: string };

/** The headers carrying a credential. */
export function credentialHeaders(credential: Credential): Record<string, string> {
  return credential.kind === 'key'
    ? { 'X-Process-Management-Key': credential.secret }
    : { Authorization: `Bearer ${credential.secret}` };
}

export interface ApiClientOptions {
  credential: Credential;
  tenant: string;
  /** Defaults to the global fetch (tests pass their own). */
  fetch?: typeof fetch;
}

export type ApiClient = ReturnType<typeof createApiClient>;

interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, QueryValue>;
  body?: unknown;
}

/** Makes the client for one credential and tenant (a new session or tenant makes a new client). */
export function createApiClient(options: ApiClientOptions) {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  async function call<T>(name: EndpointName, opts: CallOptions = {}): Promise<T> {
    const endpoint: Endpoint = ENDPOINTS[name];
    const headers: Record<string, string> = {
      ...credentialHeaders(options.credential),
      'x-fw-tenant-id': options.tenant,
      Accept: 'application/json',
    };
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await doFetch(buildPath(endpoint, opts.params ?? {}, opts.query ?? {}), {
      method: endpoint.method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
    });
    if (!response.ok) throw new ApiError(response.status, await messageOf(response));
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }
  const paged = (page: PageParams) => ({ page: page.page, size: page.size });
  return {
    tenant: options.tenant,
    info: () => call<ManagementInfo>('info'),
    listProcesses: (filter: ProcessFilter, page: PageParams) =>
      call<Page<ProcessSummary>>('listProcesses', { query: { ...filter, ...paged(page) } }),
    getProcess: (id: string) => call<ProcessDetail>('getProcess', { params: { id } }),
    /** Removes a finished root with its whole tree (204); 409 while any of it runs, 400 for a child, 404 elsewhere. */
    deleteProcess: (id: string) => call<void>('deleteProcess', { params: { id } }),
    trace: (by: { processId: string } | { triggerId: string }) => call<TraceGraph>('trace', { query: by }),
    listExecutions: (filter: ExecutionFilter, page: PageParams) =>
      call<Page<Execution>>('listExecutions', { query: { ...filter, ...paged(page) } }),
    trigger: (body: { triggerId?: string; payload: TriggerPayload }) => call<TriggerResult>('trigger', { body }),
    listCrontabs: (page: PageParams) => call<Page<Crontab>>('listCrontabs', { query: paged(page) }),
    getCrontab: (id: string) => call<Crontab>('getCrontab', { params: { id } }),
    createCrontab: (input: CrontabInput) => call<Crontab>('createCrontab', { body: input }),
    updateCrontab: (id: string, changes: Partial<CrontabInput>) =>
      call<Crontab>('updateCrontab', { params: { id }, body: changes }),
    deleteCrontab: (id: string) => call<void>('deleteCrontab', { params: { id } }),
    listDefinitions: (page: PageParams) => call<Page<ProcessDef>>('listDefinitions', { query: paged(page) }),
    getDefinition: (name: string) => call<ProcessDef>('getDefinition', { params: { name } }),
    createDefinition: (def: ProcessDefBody) => call<ProcessDef>('createDefinition', { body: def }),
    updateDefinition: (name: string, def: ProcessDefBody) =>
      call<ProcessDef>('updateDefinition', { params: { name }, body: def }),
    deleteDefinition: (name: string) => call<void>('deleteDefinition', { params: { name } }),
    refreshDefinitions: () => call<{ refreshed: boolean; definitions: number }>('refreshDefinitions'),
    me: () => call<Caller>('me'),
    listAudit: (filter: AuditFilter, page: PageParams) =>
      call<Page<AuditEntry>>('listAudit', { query: { ...filter, ...paged(page) } }),
    health: () => call<Health>('health'),
  };
}

/** Every definition (the API pages them; the pickers need them all). */
export async function allDefinitions(api: ApiClient): Promise<ProcessDef[]> {
  const all: ProcessDef[] = [];
  for (let page = 0; page < 50; page++) {
    const result = await api.listDefinitions({ page, size: 100 });
    all.push(...result.content);
    if (page + 1 >= result.totalPages) break;
  }
  return all;
}
