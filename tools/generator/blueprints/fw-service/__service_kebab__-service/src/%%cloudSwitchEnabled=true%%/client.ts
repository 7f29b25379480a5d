// The cloud switch (generated with cloudSwitchEnabled=y): a typed client of {{service}} that goes
// through @fw/service's service proxy. Where the service runs is configuration, not code: with no
// `services.{{serviceKebab}}.url` the call runs in this process through the local registry; with one,
// over HTTP against that host. Either way the same input checks, interceptors and errors apply
// (an error envelope comes back as the same FwError: status, sub-error code, field).
import { makeServiceProxy, type InvokeOptions, type ServiceProxy, type ServiceRegistry } from '@fw/service';
import {
  SERVICE_NAME,
  type Create{{servicePascal}}Request,
  type {{servicePascal}}Entity,
  type {{servicePascal}}Op1Request,
  type {{servicePascal}}Op1Response,
} from '{{scope}}/{{serviceKebab}}-api';

export interface {{servicePascal}}ClientOptions {
  /** The local registry (used when the service is not configured as remote). */
  registry: ServiceRegistry;
  /** `services.<name>.url`, as read by readSettings from {{serviceConstant}}_CONFIG. */
  services?: Readonly<Record<string, { url?: string } | undefined>>;
  /** Per-request time limit for remote calls (default 10 s). */
  timeoutMillis?: number;
}

/** Per call: the tenant, and headers such as `authorization` (forwarded to a remote host too). */
export type CallOptions = Pick<InvokeOptions, 'tenant' | 'headers'>;

export interface {{servicePascal}}Client {
  /** `local`, or the base URL calls go to. */
  readonly target: string;
  create(request: Create{{servicePascal}}Request, options?: CallOptions): Promise<{{servicePascal}}Entity>;
  read(id: string, options?: CallOptions): Promise<{{servicePascal}}Entity>;
  op1(request: {{servicePascal}}Op1Request, options?: CallOptions): Promise<{{servicePascal}}Op1Response>;
}

export function make{{servicePascal}}Client(options: {{servicePascal}}ClientOptions): {{servicePascal}}Client {
  const proxy: ServiceProxy = makeServiceProxy({ registry: options.registry, services: options.services, timeoutMillis: options.timeoutMillis });
  // The proxy checks the output against the operation's schema on the serving side; the casts
  // below only name the type that schema guarantees.
  return {
    target: proxy.resolve(SERVICE_NAME),
    create: async (request, call) => (await proxy.invoke(SERVICE_NAME, 'create', request, call)) as {{servicePascal}}Entity,
    read: async (id, call) => (await proxy.invoke(SERVICE_NAME, 'read', { id }, call)) as {{servicePascal}}Entity,
    op1: async (request, call) => (await proxy.invoke(SERVICE_NAME, 'op1', request, call)) as {{servicePascal}}Op1Response,
  };
}
