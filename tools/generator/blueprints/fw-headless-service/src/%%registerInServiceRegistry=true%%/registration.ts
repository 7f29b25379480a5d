// Registration of {{service}}'s description in a service registry: the registry
// delegate of @fw/service posts this host's services to `<registry>/serviceregistry`, retries
// with capped, jittered backoff while the registry is away, and refreshes periodically so a
// registry that restarted empty learns about {{service}} again.
//
// Settings come from config/registry.json, whose values read the environment:
//   SERVICE_REGISTRY_URL  the registry's base URL (default http://127.0.0.1:8080)
//   SERVICE_BASE_URL      how this host is named in the catalog (default http://<hostname>); a
//                         headless service has no routes, the entry tells where it runs.
import { hostname } from 'node:os';
import * as path from 'node:path';
import { loadConfigFile, type Logger } from '@fw/core';
import { makeRegistryDelegate, type RegistryDelegate, type ServiceRegistry } from '@fw/service';

export interface RegistrationSettings {
  serviceRegistryUrl: string;
  baseUrl: string;
  refreshMillis: number;
  /** Retry delays while the registry is away (default 500 ms doubling up to 30 s). */
  retry?: { baseMillis?: number; maxMillis?: number };
}

/** The shipped config file (in the package, next to dist/). */
export const REGISTRY_CONFIG_FILE = path.resolve(__dirname, '../../config/registry.json');

export function loadRegistrationSettings(env: NodeJS.ProcessEnv = process.env, file = REGISTRY_CONFIG_FILE): RegistrationSettings {
  const data = loadConfigFile(file, { env }).data as Record<string, unknown>;
  const url = data.serviceRegistryUrl;
  if (typeof url !== 'string' || !/^https?:\/\/\S+$/.test(url)) throw new Error(`${file}: serviceRegistryUrl must be an http(s) URL, got ${JSON.stringify(url)}`);
  const baseUrl = typeof data.baseUrl === 'string' && data.baseUrl !== '' ? data.baseUrl : `http://${hostname()}`;
  const refreshMillis = typeof data.refreshMillis === 'number' && data.refreshMillis > 0 ? data.refreshMillis : 30_000;
  return { serviceRegistryUrl: url, baseUrl, refreshMillis };
}

/** Starts registering `registry`'s services; stop the returned delegate at shutdown. */
export function startRegistration(registry: ServiceRegistry, settings: RegistrationSettings, logger?: Logger): RegistryDelegate {
  const delegate = makeRegistryDelegate({
    registryUrl: settings.serviceRegistryUrl,
    baseUrl: settings.baseUrl,
    registry,
    refreshMillis: settings.refreshMillis,
    ...(settings.retry ? { retry: settings.retry } : {}),
    ...(logger ? { logger } : {}),
  });
  delegate.start();
  return delegate;
}
