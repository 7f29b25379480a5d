// Test support: settings for a host on a free port of 127.0.0.1{{#jpa}} with an in-memory PGlite{{/jpa}},
// {{#security}}signed bearer tokens, {{/security}}and a small HTTP helper reading the fw envelope.
// Audit lines of every call would flood the output: keep the logs to real errors (FW_LOG_LEVEL is
// read by @fw/core's logger; set it to see them).
process.env.FW_LOG_LEVEL ??= 'error';
{{#security}}
import { SignJWT } from 'jose';
{{/security}}
import { start{{servicePascal}}Host, type Running{{servicePascal}}Host } from '../src/host';
import { makeMemory{{servicePascal}}Repository } from '../src/memory-repository';
import type { {{servicePascal}}Settings } from '../src/settings';

export const TENANT = 'test-tenant';
{{#security}}
/** The shared secret of the test hosts (never a real one: real secrets come from the environment). */
export const JWT_SECRET = 'test-secret-of-the-{{serviceKebab}}-suite-0123456789';
export const JWT_ISSUER = 'https://issuer.test';
{{/security}}

export function testSettings(overrides: Partial<{{servicePascal}}Settings> = {}): {{servicePascal}}Settings {
  return {
    port: 0,
    host: '127.0.0.1',
{{#jpa}}
    database: { url: 'pglite:memory:' },
{{/jpa}}
{{#security}}
    jwt: { secret: JWT_SECRET, issuer: JWT_ISSUER },
{{/security}}
{{#cloudSwitchEnabled}}
    services: {},
{{/cloudSwitchEnabled}}
{{#enableMCP}}
    mcp: true,
{{/enableMCP}}
    ...overrides,
  };
}

/**
 * A host on a free port with the in-memory store{{#jpa}}: for tests that are not about persistence (an
 * embedded database costs seconds per process; service.test.ts runs the real host on PGlite){{/jpa}}.
 */
export function startTestHost(overrides: Partial<{{servicePascal}}Settings> = {}): Promise<Running{{servicePascal}}Host> {
  return start{{servicePascal}}Host(testSettings(overrides), { repository: makeMemory{{servicePascal}}Repository() });
}
{{#security}}

export interface TokenOptions {
  secret?: string;
  issuer?: string;
  /** Seconds from now; negative for a token that has already expired. */
  expiresIn?: number;
  subject?: string;
}

/** A token signed like the issuer the test hosts trust (or not, as the options say). */
export async function token(options: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ roles: ['clerk'] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(options.subject ?? 'ada')
    .setIssuer(options.issuer ?? JWT_ISSUER)
    .setIssuedAt(now - 120)
    .setExpirationTime(now + (options.expiresIn ?? 300))
    .sign(new TextEncoder().encode(options.secret ?? JWT_SECRET));
}
{{/security}}

/** The headers a caller the service accepts sends{{#security}} (a valid bearer token){{/security}}, with the test tenant. */
export async function callerHeaders(): Promise<Record<string, string>> {
{{#security}}
  return { 'x-fw-tenant-id': TENANT, authorization: `Bearer ${await token()}` };
{{/security}}
{{^security}}
  return { 'x-fw-tenant-id': TENANT };
{{/security}}
}

export interface Answer {
  status: number;
  body: { success: boolean; code: number; payload: unknown; subErrorCode?: string; description?: string; errors?: unknown[] };
}

export async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}
