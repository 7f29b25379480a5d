// A small HTTP client for the {{entity}} routes: every answer comes back with its status and its
// parsed envelope, so the tests assert on exactly what a caller of {{app}} sees.
export interface SuccessEnvelope<T> {
  success: true;
  code: number;
  payload: T;
}

export interface ErrorEnvelope {
  success: false;
  code: number;
  subErrorCode: string;
  description: string;
  errors: Array<{ code: string; subErrorCode: string; description: string; field?: string }>;
}

export interface Answer<T> {
  status: number;
  body: SuccessEnvelope<T> | ErrorEnvelope;
}

export interface {{entityPascal}}Record {
  id: string;
  name: string;
  [field: string]: unknown;
}

export interface {{entityPascal}}Client {
  create(body: unknown): Promise<Answer<{{entityPascal}}Record>>;
  read(id: string): Promise<Answer<{{entityPascal}}Record>>;
}

/** The route of the entity, as the fw-service blueprint names it. */
export const ENTITY_PATH = '/{{entityKebab}}';

export function make{{entityPascal}}Client(baseUrl: string, headers: Record<string, string> = {}): {{entityPascal}}Client {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<Answer<T>> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    let parsed: SuccessEnvelope<T> | ErrorEnvelope;
    try {
      parsed = JSON.parse(text) as SuccessEnvelope<T> | ErrorEnvelope;
    } catch {
      throw new Error(`${method} ${path} answered ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`);
    }
    return { status: res.status, body: parsed };
  };
  return {
    create: (body) => call('POST', ENTITY_PATH, body),
    read: (id) => call('GET', `${ENTITY_PATH}/${encodeURIComponent(id)}`),
  };
}
