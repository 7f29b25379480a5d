/**
 * The one client of the portal API (same origin). The session token is passed in from memory on
 * every call and travels in the `x-fw-gen-session` header, never in a URL: the operation logs are
 * SSE read through `fetch` (an EventSource cannot send headers).
 */
import type { InputField } from '../../../src/blueprint/descriptor';

export type { InputField };

export const SESSION_HEADER = 'x-fw-gen-session';

export interface Generator {
  name: string;
  version: string;
  description: string;
  sinceVersion: string | null;
  inputFields: InputField[];
}

export interface Session {
  sessionId: string;
  workspaceId: string;
  /** Kept in memory only (the react-query cache); a reload starts a new session. */
  token: string;
  expiresAt: string;
}

export interface Upload {
  path: string;
  name: string;
  bytes: number;
}

export type OperationStatus = 'running' | 'succeeded' | 'failed';

export interface OperationEnd {
  status: OperationStatus;
  failure: string | null;
}

/** A refused or failed call: the HTTP status (0 when nothing answered) and the server's message. */
export class PortalApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'PortalApiError';
  }
}

async function send(path: string, init: RequestInit & { session?: Session } = {}): Promise<Response> {
  const { session, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (session) headers.set(SESSION_HEADER, session.token);
  let response: Response;
  try {
    response = await fetch(path, { ...rest, headers, credentials: 'omit' });
  } catch {
    throw new PortalApiError(0, 'the portal does not answer');
  }
  if (!response.ok) {
    const text = await response.text();
    let message = `HTTP ${response.status}`;
    try {
      const body = JSON.parse(text) as { message?: unknown };
      if (typeof body.message === 'string') message = body.message;
    } catch {
      if (text.length > 0 && text.length < 300) message = text;
    }
    throw new PortalApiError(response.status, message);
  }
  return response;
}

async function json<T>(path: string, init: RequestInit & { session?: Session } = {}): Promise<T> {
  return (await (await send(path, init)).json()) as T;
}

const workspace = (session: Session, rest: string): string =>
  `api/workspaces/${encodeURIComponent(session.workspaceId)}/${rest}`;

/**
 * Reads an SSE body (`event: log` per line, then `event: end`) calling `onLine` for each log line;
 * resolves with the end event (a stream cut short is a failed operation).
 */
export async function readLogStream(
  body: ReadableStream<Uint8Array>,
  onLine: (line: string) => void,
): Promise<OperationEnd> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let end: OperationEnd | undefined;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (\w+)/m.exec(block)?.[1];
      const dataAt = block.indexOf('data: ');
      if (!event || dataAt < 0) continue;
      const data = JSON.parse(block.slice(dataAt + 6)) as unknown;
      if (event === 'log') onLine(String(data));
      else if (event === 'end') end = data as OperationEnd;
    }
  }
  return end ?? { status: 'failed', failure: 'the log stream ended early' };
}

/** Relative URLs: the page works wherever the portal serves it. */
export const portalApi = {
  listGenerators: async (): Promise<Generator[]> =>
    (await json<{ generators: Generator[] }>('api/generators')).generators,

  createSession: (): Promise<Session> => json<Session>('api/sessions', { method: 'POST' }),

  upload: (session: Session, file: File): Promise<Upload> =>
    json<Upload>(`api/uploads?name=${encodeURIComponent(file.name)}`, { method: 'POST', body: file, session }),

  startGeneration: (
    session: Session,
    body: { blueprint: string; answers: Record<string, unknown>; force?: boolean },
  ): Promise<{ operationId: string }> =>
    json('api/generations', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      session,
    }),

  startTests: (session: Session): Promise<{ operationId: string }> =>
    json(workspace(session, 'tests'), { method: 'POST', session }),

  /** Follows an operation's log from its first line to its end. */
  followLog: async (session: Session, operationId: string, onLine: (line: string) => void): Promise<OperationEnd> => {
    const response = await send(`api/operations/${encodeURIComponent(operationId)}/logs/stream`, {
      session,
      headers: { accept: 'text/event-stream' },
    });
    if (!response.body) throw new PortalApiError(0, 'this browser cannot read a streamed response');
    return readLogStream(response.body, onLine);
  },

  tree: async (session: Session): Promise<string[]> =>
    (await json<{ files: string[] }>(workspace(session, 'tree'), { session })).files,

  file: async (session: Session, path: string): Promise<string> =>
    (await send(workspace(session, `files?path=${encodeURIComponent(path)}`), { session })).text(),

  download: async (session: Session): Promise<Blob> => (await send(workspace(session, 'download'), { session })).blob(),
};
