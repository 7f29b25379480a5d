/**
 * Component-test harness: the whole app in a MemoryRouter at a URL, signed in with a key, over a
 * fake `fetch` answering `METHOD /path` (query ignored unless the handler reads it) like the API.
 */
import { render, type RenderResult } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { Caller } from '../src/api/types';
import { App } from '../src/app/app';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
}

export type Handler = (req: FakeRequest) => { status?: number; body?: unknown } | undefined;

export interface FakeApi {
  calls: FakeRequest[];
  fetch: jest.Mock;
}

/** The part of a fetch Response the client reads (jsdom has no Response). */
function respond(status: number, body: unknown) {
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: String(status),
    json: async () => JSON.parse(JSON.stringify(body)),
  };
}

/** Installs a fake global fetch; handlers are tried in order, the first answer wins (404 otherwise). */
export function fakeApi(handlers: Record<string, Handler | { status?: number; body?: unknown }>): FakeApi {
  const calls: FakeRequest[] = [];
  const fetchMock = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace('/process-management/api', '');
    const req: FakeRequest = {
      method: init?.method ?? 'GET',
      path,
      query: url.searchParams,
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(req);
    for (const [pattern, handler] of Object.entries(handlers)) {
      const [method, template] = pattern.split(' ');
      const regex = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      if (method !== req.method || !regex.test(path)) continue;
      const answer = typeof handler === 'function' ? handler(req) : handler;
      if (!answer) continue;
      return respond(answer.status ?? 200, answer.body ?? {});
    }
    return respond(404, { message: `No route ${req.method} ${path}` });
  });
  (globalThis as { fetch: unknown }).fetch = fetchMock;
  return { calls, fetch: fetchMock };
}

/** Every operation of the API, as `GET /me` lists them for an admin. */
export const ALL_OPERATIONS = [
  'openApi',
  'info',
  'listCrontabs',
  'addCrontab',
  'getCrontab',
  'updateCrontab',
  'deleteCrontab',
  'trigger',
  'listExecutions',
  'listDefinitions',
  'addDefinition',
  'getDefinition',
  'updateDefinition',
  'deleteDefinition',
  'refreshDefinitions',
  'listProcesses',
  'getProcess',
  'deleteProcess',
  'trace',
  'health',
  'whoami',
  'listAudit',
];
const READS = [
  'openApi',
  'info',
  'listCrontabs',
  'getCrontab',
  'listExecutions',
  'listDefinitions',
  'getDefinition',
  'listProcesses',
  'getProcess',
  'trace',
  'health',
  'whoami',
];

/** `GET /me` of a caller of each role (as the server answers it). */
export const CALLERS: Record<'viewer' | 'operator' | 'admin', Caller> = {
  viewer: { actor: 'jwt:vera', credential: 'jwt', role: 'viewer', tenants: ['demo'], operations: READS },
  operator: {
    actor: 'jwt:otto',
    credential: 'jwt',
    role: 'operator',
    tenants: ['demo', 'acme'],
    operations: [...READS, 'trigger', 'updateCrontab'],
  },
  admin: { actor: 'key:0123456789ab', credential: 'key', role: 'admin', tenants: ['*'], operations: ALL_OPERATIONS },
};

/** Renders the app at `url`, signed in with `key` as `caller` (key null: not signed in). */
export function renderAt(
  url: string,
  key: string | null = 'test-key-0123456789abcdef0123456789',
  caller: Caller = CALLERS.admin,
): RenderResult {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <App
        initialSession={
          key === null
            ? undefined
            : { credential: { kind: caller.credential === 'jwt' ? 'token' : 'key', secret: key }, caller }
        }
      />
    </MemoryRouter>,
  );
}

export function page<T>(content: T[], page = 0, size = 25, totalElements = content.length) {
  return { content, totalElements, page, size, totalPages: Math.ceil(totalElements / size) };
}

export const INFO = {
  definitionSource: 'database',
  definitionsWritable: true,
  cronAvailable: true,
  supportedEvents: ['ProcessCreate'],
};

export const DEFINITIONS = [
  { processType: 'word-count', leaf: false, config: { chunkWords: '20' } },
  { processType: 'word-count-chunk', leaf: true, parentProcessType: 'word-count' },
  {
    processType: 'word-count-report',
    leaf: true,
    predecessorProcessType: 'word-count',
    predecessorArgs: 'OUTPUT',
    inputSchema: { type: 'object', required: ['totalWords'], properties: { totalWords: { type: 'integer' } } },
  },
];

let seq = 0;
export function summary(over: Partial<Record<string, unknown>> = {}) {
  seq += 1;
  const id = `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`;
  return {
    id,
    processType: 'word-count',
    leaf: false,
    status: 'PROCESSED',
    parentId: null,
    predecessorId: null,
    triggerId: 'manual:demo:run-1',
    tenant: 'demo',
    completedPercent: 100,
    numSubProcesses: 2,
    numCompletedSubProcesses: 2,
    description: null,
    createdTime: '2025-01-01T10:00:00.000Z',
    lastModifiedTime: '2025-01-01T10:00:01.000Z',
    stateEntryTime: '2025-01-01T10:00:01.000Z',
    ...over,
  };
}
