// A typed client of {{service}} through the service proxy (the "cloud switch"): the same calls go to
// the service in this process, or — when a URL is configured — to a {{service}} running elsewhere,
// over HTTP. Callers never change; configuration decides where the service runs.
import type { InvokeOptions, ServiceRegistry } from '@fw/service';
import { makeServiceProxy } from '@fw/service';
import type { WorkflowResponse } from '@fw/workflow';
import { SERVICE_NAME } from './service';

export interface {{servicePascal}}ClientOptions {
  /** Where a remote {{service}} runs; unset: the local one. Default {{serviceConstant}}_URL. */
  url?: string;
  /** Sent with every remote call (a bearer token, a host key). */
  headers?: Record<string, string>;
}

export interface {{servicePascal}}Client {
  /** `local`, or the base URL calls go to. */
  readonly resolvesTo: string;
  create(data: Record<string, unknown>, options?: InvokeOptions): Promise<WorkflowResponse>;
  get(id: string, options?: InvokeOptions): Promise<WorkflowResponse>;
  send(id: string, eventId: string, payload?: Record<string, unknown>, options?: InvokeOptions): Promise<WorkflowResponse>;
}

export function make{{servicePascal}}Client(registry: ServiceRegistry, options: {{servicePascal}}ClientOptions = { url: process.env.{{serviceConstant}}_URL }): {{servicePascal}}Client {
  const url = options.url || undefined;
  const proxy = makeServiceProxy({ registry, services: { [SERVICE_NAME]: { url } }, headers: options.headers });
  const call = async (operation: string, input: unknown, invoke?: InvokeOptions): Promise<WorkflowResponse> => (await proxy.invoke(SERVICE_NAME, operation, input, invoke)) as WorkflowResponse;
  return {
    resolvesTo: proxy.resolve(SERVICE_NAME),
    create: (data, invoke) => call('create', data, invoke),
    get: (id, invoke) => call('get', { id }, invoke),
    send: (id, eventId, payload = {}, invoke) => call('event', { ...payload, id, eventId }, invoke),
  };
}
