/**
 * The services of one host: registered once, invoked in-process (headless services, events,
 * serverless handlers) or over HTTP through the router of `makeServiceRouter`. Every call goes
 * through the same steps: find the operation, check the input against its schema, run the
 * interceptor chain around the handler, check the output.
 *
 * @example
 * const registry = makeServiceRegistry({ host: { name: 'shop', version: '1.0.0' }, services: [greeter] });
 * const out = await registry.invoke('greeter', 'greet', { name: 'Ada' }, { tenant: 't1' }); // { text: 'hello Ada' }
 */
import { ConfigError, createLogger, FwError, type Logger } from '@fw/core';
import type { CallContext } from '../definition/call-context';
import {
  describeService,
  type ServiceDefinition,
  type ServiceDescription,
  type ServiceKind,
} from '../definition/service-definition';
import { operationNotFound, ServiceErrorCodes, serviceNotFound } from '../errors/service-errors';
import { runChain } from '../interceptors/interceptor';
import { assertValidInput, outputProblems, validatorOf } from '../validation/schema-validation';

/** The host itself, as `/info` shows it. */
export interface HostInfo {
  name: string;
  version: string;
  description?: string;
  /** The license of the host's API, shown in `/openapi.json` (`info.license`: an SPDX `identifier`, or a `url`). */
  license?: { name: string; identifier?: string; url?: string };
}

/** `GET /info` payload. */
export interface HostInfoPayload {
  name: string;
  version: string;
  description: string;
  services: Array<{ name: string; version: string; kind: ServiceKind; description: string; healthCheck: boolean }>;
}

export interface HealthReport {
  healthy: boolean;
  checks: ReadonlyArray<{ name: string; healthy: boolean; message?: string }>;
}

export interface ServiceRegistryOptions {
  host: HostInfo;
  services?: readonly ServiceDefinition[];
  /**
   * What an output that breaks its schema does: `'error'` answers 500 SVC500 (development, tests),
   * `'log'` logs it and answers the output (production). Default: `'log'` when NODE_ENV is
   * `production`, else `'error'`.
   */
  outputValidation?: 'error' | 'log';
  logger?: Logger;
}

export interface InvokeOptions {
  tenant?: string;
  headers?: Record<string, string>;
  /** How the input is named in error fields (`input.name`); the HTTP binding says `body` or `query`. */
  inputLabel?: string;
}

export interface ServiceRegistry {
  readonly host: HostInfo;
  /** Adds a service. @throws ConfigError when the name is taken or a schema does not compile. */
  register(service: ServiceDefinition): void;
  list(): readonly ServiceDefinition[];
  get(name: string): ServiceDefinition | undefined;
  /** The `/info` payload. */
  info(): HostInfoPayload;
  /** A service's data (`/service-info/{svc}`). @throws 404 SVC404 for an unknown service. */
  describe(name: string): ServiceDescription;
  /** Runs an operation in-process, through the same validation and interceptors as over HTTP. */
  invoke(service: string, operation: string, input: unknown, options?: InvokeOptions): Promise<unknown>;
  /**
   * Runs the service's health check; a name that is no service but the name of one check of a
   * service (`database:t1`) runs that service's checks and answers that one.
   * @throws 404 when the service has no health check, or nothing has that name.
   */
  health(name: string): Promise<HealthReport>;
  /** Runs every service's health check (the host's `/health-check`); healthy when all are. */
  healthAll(): Promise<HealthReport>;
}

function compileSchemas(service: ServiceDefinition): void {
  for (const op of service.operations) {
    for (const key of ['input', 'output'] as const) {
      const schema = op[key];
      if (schema === undefined) continue;
      try {
        validatorOf(schema);
      } catch (err) {
        throw new ConfigError(
          `service '${service.name}' operation '${op.name}': '${key}' is not a valid JSON Schema: ${(err as Error).message}`,
        );
      }
    }
  }
}

/** One in-process call: input check, interceptors around the handler, output check. */
async function invokeOperation(
  service: ServiceDefinition,
  operationName: string,
  input: unknown,
  invokeOptions: InvokeOptions,
  logger: Logger,
  outputValidation: 'error' | 'log',
): Promise<unknown> {
  const serviceName = service.name;
  const operation = service.operations.find((op) => op.name === operationName);
  if (operation === undefined) throw operationNotFound(serviceName, operationName);
  const where = `${serviceName}.${operationName}`;
  assertValidInput(operation.input, input, invokeOptions.inputLabel ?? 'input', where);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(invokeOptions.headers ?? {})) headers[k.toLowerCase()] = v;
  const context: CallContext = {
    service: serviceName,
    operation: operationName,
    tenant: invokeOptions.tenant,
    headers,
    principal: undefined,
    attributes: new Map(),
    logger,
  };
  const interceptors = [...service.interceptors, ...(operation.interceptors ?? [])];
  const handler = operation.handler;
  if (handler === undefined)
    throw new FwError({
      code: 501,
      subErrorCode: ServiceErrorCodes.notInvocable,
      description: `${where} is served over HTTP by the host (${operation.method ?? ''} ${operation.path ?? ''}); it cannot be invoked in-process`,
      params: [where],
    });
  const output = await runChain(interceptors, { input, context }, async () => handler(input, context));
  const problems = outputProblems(operation.output, output);
  if (problems !== undefined) {
    logger.error({ service: serviceName, operation: operationName, problems }, 'operation output breaks its schema');
    if (outputValidation === 'error')
      throw new FwError({
        code: 500,
        subErrorCode: ServiceErrorCodes.invalidOutput,
        description: `The output of ${where} breaks its schema: ${problems}`,
        params: [where],
      });
  }
  return output;
}

/** Runs a service's own health check; one that throws is reported unhealthy, not rethrown. */
async function runHealthCheck(service: ServiceDefinition, name: string, logger: Logger): Promise<HealthReport> {
  if (service.healthCheck === undefined)
    throw new FwError({
      code: 404,
      subErrorCode: ServiceErrorCodes.notFound,
      description: `Service '${name}' has no health check`,
      params: [name],
    });
  try {
    const result = await service.healthCheck();
    return { healthy: result.healthy, checks: result.checks ?? [{ name, healthy: result.healthy }] };
  } catch (err) {
    logger.warn({ err, service: name }, 'health check threw');
    return { healthy: false, checks: [{ name, healthy: false, message: 'the health check failed' }] };
  }
}

export function makeServiceRegistry(options: ServiceRegistryOptions): ServiceRegistry {
  const logger = options.logger ?? createLogger({ name: 'service-registry' });
  const outputValidation = options.outputValidation ?? (process.env.NODE_ENV === 'production' ? 'log' : 'error');
  const byName = new Map<string, ServiceDefinition>();

  const find = (name: string): ServiceDefinition => {
    const found = byName.get(name);
    if (found === undefined) throw serviceNotFound(name);
    return found;
  };

  const registry: ServiceRegistry = {
    host: options.host,
    register(service) {
      if (byName.has(service.name))
        throw new ConfigError(`service '${service.name}' is registered twice in host '${options.host.name}'`);
      compileSchemas(service);
      byName.set(service.name, service);
    },
    list: () => [...byName.values()],
    get: (name) => byName.get(name),
    info: () => ({
      name: options.host.name,
      version: options.host.version,
      description: options.host.description ?? '',
      services: [...byName.values()].map((s) => ({
        name: s.name,
        version: s.version,
        kind: s.kind,
        description: s.description,
        healthCheck: s.healthCheck !== undefined,
      })),
    }),
    describe: (name) => describeService(find(name)),
    async invoke(serviceName, operationName, input, invokeOptions = {}) {
      return invokeOperation(find(serviceName), operationName, input, invokeOptions, logger, outputValidation);
    },
    async healthAll() {
      const reports = await Promise.all(
        registry
          .list()
          .filter((s) => s.healthCheck !== undefined)
          .map((s) => registry.health(s.name)),
      );
      const checks = reports.flatMap((r) => r.checks);
      return { healthy: checks.every((c) => c.healthy), checks };
    },
    async health(name) {
      if (!byName.has(name)) {
        const all = await registry.healthAll();
        const checks = all.checks.filter((c) => c.name === name);
        if (checks.length === 0) throw serviceNotFound(name);
        return { healthy: checks.every((c) => c.healthy), checks };
      }
      const service = find(name);
      return runHealthCheck(service, name, logger);
    },
  };
  for (const service of options.services ?? []) registry.register(service);
  return registry;
}
