/** What hosts say about themselves and their services (`/info`, `/service-info`, `/health-check`). */

/** What a service says about itself on `/info` and `/service-info/{name}`. */
export interface ServiceInfo {
  name: string;
  version: string;
  description?: string;
  /** Free-form facts (counts, modes), JSON-serialisable. */
  details?: Record<string, unknown>;
}

/** A named probe; `check` resolves with healthy or not, and never needs to throw. */
export interface HealthCheck {
  name: string;
  check(): Promise<{ healthy: boolean; message?: string }>;
}

export interface InfoRouterOptions {
  /** The host itself. */
  info: ServiceInfo;
  /** Services composed into the host (query service, process service, …). */
  services?: () => ServiceInfo[];
  healthChecks?: HealthCheck[];
}
