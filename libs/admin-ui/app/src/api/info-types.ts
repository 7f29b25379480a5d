/** The shapes of the read-only host endpoints (`/info`, `/service-info/{svc}`, `/health-check/{svc}`) as the UI reads them. */

export type ServiceKind = 'http' | 'headless' | 'workflow' | 'query' | 'process';

export interface ServiceSummary {
  name: string;
  version: string;
  kind: ServiceKind;
  description: string;
  healthCheck: boolean;
}

/** `GET /info`. */
export interface HostInfo {
  name: string;
  version: string;
  description: string;
  services: ServiceSummary[];
}

export type JsonSchema = { [key: string]: unknown };

export interface OperationDescription {
  name: string;
  description: string;
  method?: string;
  path?: string;
  input?: JsonSchema;
  output?: JsonSchema;
  interceptors: string[];
}

/** `GET /service-info/{svc}`. */
export interface ServiceDescription {
  name: string;
  version: string;
  description: string;
  kind: ServiceKind;
  operations: OperationDescription[];
  interceptors: string[];
  healthCheck: boolean;
  details?: Record<string, unknown>;
}

export interface HealthCheckResult {
  name: string;
  healthy: boolean;
  message?: string;
}

/** `GET /health-check/{svc}` as the UI shows it: healthy, unhealthy (503) or no checker (404). */
export type HealthOutcome =
  | { state: 'healthy'; checks: HealthCheckResult[] }
  | { state: 'unhealthy'; description: string; failing: string[]; checks: HealthCheckResult[] }
  | { state: 'no-checker'; description: string };

/** One host of `GET /serviceregistry`. */
export interface CatalogEntry {
  baseUrl: string;
  host?: { name: string; version: string };
  services: ServiceSummary[];
  registeredAt: string;
  lastSeen: string;
}

export interface FlowState {
  id: string;
  kind: string;
  events?: Array<{ id: string; to?: string; metadata?: Record<string, unknown> }>;
  transitions?: Array<{ condition?: string; to: string }>;
  activities?: Array<{ id: string; mandatory?: boolean }>;
}

export interface Flow {
  id: string;
  initialState: string;
  states: FlowState[];
}

export interface TestCase {
  name: string;
  steps: Array<{ from: string; event: string; to: string }>;
  diagram: string;
}

export interface AllowedAction {
  allowedAction: string;
  stateId: string;
  metadata?: Record<string, unknown>;
}

/** An OpenAPI (or Swagger) document, as far as the UI lists its operations. */
export interface ApiDocument {
  openapi?: string;
  swagger?: string;
  info?: { title?: string; version?: string };
  paths?: Record<string, Record<string, { operationId?: string; summary?: string; description?: string }>>;
}
