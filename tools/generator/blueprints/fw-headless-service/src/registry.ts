// The registry this package hosts its service in. A mini-monolith composing the service registers
// `make{{servicePascal}}Service()` in its own registry instead; everything else here (events,
// serverless handler{{#registerInServiceRegistry}}, registration{{/registerInServiceRegistry}}) takes any registry holding it.
import type { Logger } from '@fw/core';
import { makeServiceRegistry, type ServiceRegistry } from '@fw/service';
import { make{{servicePascal}}Service, SERVICE_NAME, SERVICE_VERSION } from './service';

export function make{{servicePascal}}Registry(logger?: Logger): ServiceRegistry {
  return makeServiceRegistry({
    host: { name: SERVICE_NAME, version: SERVICE_VERSION, description: '{{service}} (headless)' },
    services: [make{{servicePascal}}Service()],
    ...(logger ? { logger } : {}),
  });
}
