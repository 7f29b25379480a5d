// Registration of {{application}}'s process services in the service registry ({{serviceRegistryUrl}},
// or SERVICE_REGISTRY_URL): `POST /serviceregistry` with this host's base URL and one service per
// root process, retried with capped backoff while the registry is away, then refreshed periodically
// (a registry that restarted empty learns about this host again within one period).
import { PROCESS_TYPES } from '{{scope}}/{{applicationKebab}}-api';

export const DEFAULT_REGISTRY_URL = '{{serviceRegistryUrl}}';

export interface RegistrationOptions {
  baseUrl: string;
  registryUrl?: string;
  refreshMillis?: number;
  log?: (line: string) => void;
}

export function registrationBody(baseUrl: string): Record<string, unknown> {
  return {
    baseUrl,
    services: PROCESS_TYPES.map((processType) => ({ name: `{{applicationKebab}}-${processType}`, version: '{{applicationVersion}}', kind: 'process', description: `POST /processes/${processType} (behind the administration key)`, healthCheck: false })),
  };
}

/** Starts registering; the returned function stops it. */
export function startRegistration(options: RegistrationOptions): () => void {
  const url = `${(options.registryUrl ?? process.env.SERVICE_REGISTRY_URL ?? DEFAULT_REGISTRY_URL).replace(/\/$/, '')}/serviceregistry`;
  const log = options.log ?? (() => undefined);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = (millis: number, attempt: number): void => {
    if (stopped) return;
    timer = setTimeout(() => void register(attempt), millis);
    timer.unref();
  };
  const register = async (attempt: number): Promise<void> => {
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(registrationBody(options.baseUrl)), signal: AbortSignal.timeout(5000) });
      if (!res.ok) throw new Error(`answered ${res.status}`);
      log(`registered in ${url}`);
      schedule(options.refreshMillis ?? 30_000, 0);
    } catch (err) {
      const wait = Math.min(500 * 2 ** attempt, 30_000);
      log(`registry ${url} not reached (${(err as Error).message}); again in ${wait} ms`);
      schedule(wait, attempt + 1);
    }
  };
  void register(0);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
