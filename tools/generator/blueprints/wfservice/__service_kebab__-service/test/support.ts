// What the tests share: a running {{service}} on a free port, HTTP calls answering the envelope, and
// the walker that drives a test case (a path the service reports) through the HTTP API.
process.env.FW_LOG_LEVEL ??= 'silent';

import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { make{{servicePascal}}App, openStore, SERVICE_NAME, type {{servicePascal}}ServiceOptions } from '../src';
import type { ServiceRegistry } from '@fw/service';
{{#jpa}}
import { makeInMemoryWorkflowStore } from '@fw/workflow';
{{/jpa}}

{{#security}}
/** The HS256 secret the tests sign their tokens with (the service is made with it). */
export const TEST_SECRET = 'a-test-secret-of-at-least-32-characters!';

export async function signToken(subject = 'tester', secret = TEST_SECRET, expiresIn = '5m'): Promise<string> {
  const { SignJWT } = await import('jose');
  return new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(subject).setIssuedAt().setExpirationTime(expiresIn).sign(new TextEncoder().encode(secret));
}

{{/security}}
/** The body the tests create entities with. */
export const CREATE_BODY: Record<string, unknown> = { title: 'printer on floor 2 is jammed' };

export interface Envelope<T = unknown> {
  success: boolean;
  code: number;
  payload: T;
  subErrorCode?: string;
  description?: string;
}

export interface Running {
  baseUrl: string;
  registry: ServiceRegistry;
  /** Headers every call sends (the bearer token when the service is secured). */
  headers: Record<string, string>;
  close(): Promise<void>;
}

export type StartOptions = Partial<Omit<{{servicePascal}}ServiceOptions, 'store'>>;

/**
 * {{service}} on 127.0.0.1, on a port the system picks.{{#jpa}} `database`: on an in-memory PGlite
 * through the real store and its migration (the path walk does this); else in memory, because
 * starting PGlite costs seconds and the other tests are about the flow, not the store.{{/jpa}}
 */
export async function start(options: StartOptions = {}{{#jpa}}, database = false{{/jpa}}): Promise<Running> {
{{#jpa}}
  const opened = database ? await openStore('pglite:memory:') : { store: makeInMemoryWorkflowStore(), close: async () => undefined };
{{/jpa}}
{{^jpa}}
  const opened = await openStore();
{{/jpa}}
  const { app, registry } = await make{{servicePascal}}App({ store: opened.store, {{#security}}security: { secret: TEST_SECRET }, {{/security}}...options });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    registry,
    headers: {{#security}}{ authorization: `Bearer ${await signToken()}` }{{/security}}{{^security}}{}{{/security}},
    close: async () => {
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
      await opened.close();
    },
  };
}

export async function call<T = unknown>(running: Running, method: string, path: string, body?: unknown, headers: Record<string, string> = running.headers): Promise<{ status: number; body: Envelope<T> }> {
  const response = await fetch(`${running.baseUrl}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Envelope<T> };
}

export interface Entity {
  id: string;
  state: { flowId: string; stateId: string; doneActivities?: string[] };
  data: Record<string, unknown>;
  version: number;
}

export interface WorkflowAnswer {
  mutatedEntity: Entity;
  allowedActionsAndMetadata: Array<{ allowedAction: string; stateId: string; metadata: Record<string, string> }>;
}

export interface FlowJson {
  id: string;
  initialState: string;
  states: Array<{
    id: string;
    kind: 'manual' | 'auto' | 'final';
    events?: Array<{ id: string; to?: string }>;
    transitions?: Array<{ to: string; condition?: string }>;
    activities?: Array<{ id: string; mandatory: boolean }>;
  }>;
}

export interface TestCase {
  name: string;
  steps: Array<{ from: string; event: string; to: string }>;
  diagram: string;
}

export const base = `/${SERVICE_NAME}`;

export async function defaultFlow(running: Running): Promise<FlowJson> {
  const info = await call<{ flows: Array<{ id: string; default: boolean }> }>(running, 'GET', `${base}/info`);
  const flowId = info.body.payload.flows.find((f) => f.default)?.id;
  assert.ok(flowId, 'the service reports a default flow');
  return (await call<FlowJson>(running, 'GET', `${base}/info/flows/${flowId}`)).body.payload;
}

export async function testCases(running: Running, flowId: string): Promise<TestCase[]> {
  const answer = await call<TestCase[]>(running, 'GET', `${base}/info/flows/${flowId}/test-cases`);
  assert.equal(answer.status, 200);
  return answer.body.payload;
}
