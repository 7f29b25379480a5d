// Starts {{monolith}} for a test: on 127.0.0.1 port 0, PGlite in memory, nothing from the
// environment that could make a run depend on the machine.
import { createLogger } from '@fw/core';
{{#security}}
import { SignJWT } from 'jose';
{{/security}}
import { createMonolith, type Monolith, type MonolithOptions } from '../src/host';

export interface Running {
  monolith: Monolith;
  url: string;
  close(): Promise<void>;
}

{{#security}}
export const TEST_JWT_SECRET = 'a-test-secret-of-at-least-32-characters!';

/** A bearer token the built-in service accepts (or, with another secret or expiry, one it refuses). */
export async function token(options: { secret?: string; expiresIn?: string } = {}): Promise<string> {
  return new SignJWT({ roles: ['tester'] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('tester')
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '5m')
    .sign(new TextEncoder().encode(options.secret ?? TEST_JWT_SECRET));
}

{{/security}}
export async function start(options: MonolithOptions = {}): Promise<Running> {
  const monolith = await createMonolith({
    ...options,
    env: {},
    logger: createLogger({ name: 'test', level: 'silent' }),
    config: { port: 0, host: '127.0.0.1', databaseUrl: 'pglite:memory:'{{#security}}, jwtSecret: TEST_JWT_SECRET{{/security}}, ...options.config },
  });
  const url = await monolith.listen();
  return { monolith, url, close: () => monolith.close() };
}

/** The headers the built-in service's calls need. */
export async function authHeaders(): Promise<Record<string, string>> {
{{#security}}
  return { 'content-type': 'application/json', authorization: `Bearer ${await token()}` };
{{/security}}
{{^security}}
  return { 'content-type': 'application/json' };
{{/security}}
}

/** The answer envelope of fw hosts (`@fw/core`'s README, "Response envelope"). */
export interface Envelope<T> {
  success: boolean;
  code: number;
  payload: T;
  subErrorCode?: string;
  description?: string;
}

/**
 * GET or POST; answers the status and the parsed body. `T` is what the test expects the body to be:
 * the assertions that follow check it.
 */
export async function call<T = unknown>(url: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, body: (text === '' ? undefined : parseOrText(text)) as T };
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
