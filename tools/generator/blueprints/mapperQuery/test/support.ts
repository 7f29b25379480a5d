// Starts the module on in-memory PGlite and its app on a free port; `search` posts a request.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createLogger } from '@fw/core';
{{#security}}
import { SignJWT } from 'jose';
{{/security}}
import { makeQueryApp, QUERY_NAME, startQueryModule, type QueryModule } from '../src';

export interface Running {
  baseUrl: string;
  search(body: unknown, headers?: Record<string, string>, name?: string): Promise<{ status: number; body: Envelope }>;
  stop(): Promise<void>;
}

export interface Envelope {
  success: boolean;
  code: number;
  subErrorCode?: string;
  payload: {
    list: Array<{ row: { id: number; name: string; category: string; price: number; createdOn: string } }>;
    maxRows: number;
    maxPages: number;
    currentPage: number;
    numRowsReturned: number;
    pagination: { nextPageAvailable: boolean };
  };
}

{{#security}}
export const TEST_SECRET = 'a-test-secret-of-at-least-32-characters!';

/** A token as an identity provider would issue it: HS256, issuer, subject, one hour. */
export async function signToken(secret = TEST_SECRET, claims: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuer('test-issuer').setSubject('test-user').setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(secret));
}

{{/security}}
/** The headers every query request of the tests carries{{#security}} (a valid bearer token){{/security}}. */
export async function callerHeaders(): Promise<Record<string, string>> {
{{#security}}
  return { authorization: `Bearer ${await signToken()}` };
{{/security}}
{{^security}}
  return {};
{{/security}}
}

export async function start(): Promise<Running> {
  const logger = createLogger({ name: 'test', level: 'silent' });
  const queryModule: QueryModule = await startQueryModule({ logger });
  const app = makeQueryApp({ queryService: queryModule.queryService, logger{{#security}}, auth: { secret: TEST_SECRET, issuer: 'test-issuer' }{{/security}} });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    async search(body, headers = {}, name = QUERY_NAME) {
      const res = await fetch(`${baseUrl}/q/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Envelope };
    },
    async stop() {
      await new Promise((resolve) => server.close(resolve));
      await queryModule.close();
    },
  };
}
