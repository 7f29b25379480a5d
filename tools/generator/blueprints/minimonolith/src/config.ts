// The settings of {{monolith}}, read from the environment once at start. Every value has a default
// that runs on a laptop (dev profile, PGlite in a local folder, 127.0.0.1:8080), so `npm start`
// works without any set-up; production sets FW_PROFILE=prod and the database URL.

export type Profile = 'dev' | 'prod';

export interface MonolithConfig {
  profile: Profile;
  /** Bind address; 127.0.0.1 unless HOST says otherwise (a container sets 0.0.0.0). */
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** `pglite:memory:`, `pglite:<folder>` or `postgres://…`. */
  databaseUrl: string;
  /** When set (≥ 32 characters), the info endpoints need `X-Fw-Info-Key`. */
  infoAccessKey?: string;
  /** Origins of other hosts the admin UI may read through this one. */
  adminUiProxyOrigins: string[];
{{#security}}
  /** HS256 secret that bearer tokens of the built-in service are signed with (≥ 32 characters). */
  jwtSecret?: string;
{{/security}}
{{#enableServiceRegistryDelegate}}
  /** Where this host registers its services, and the base URL it gives the registry. */
  serviceRegistryUrl: string;
  publicBaseUrl?: string;
{{/enableServiceRegistryDelegate}}
{{#cloudSwitchEnabled}}
  /** The cloud switch: `services.<name>.url` of services that run on another host. */
  remoteServices: Record<string, { url: string }>;
{{/cloudSwitchEnabled}}
}

export const ENV_PREFIX = '{{monolithConstant}}';

function profileOf(raw: string | undefined): Profile {
  if (raw === undefined || raw === '' || raw === 'dev') return 'dev';
  if (raw === 'prod') return 'prod';
  throw new Error(`FW_PROFILE must be dev or prod, got '${raw}'`);
}

function portOf(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 8080;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got '${raw}'`);
  return port;
}
{{#cloudSwitchEnabled}}

/** `{"billing":{"url":"http://billing:8080"}}`: a JSON object, each value with a URL. */
function remoteServicesOf(raw: string | undefined): Record<string, { url: string }> {
  if (raw === undefined || raw.trim() === '') return {};
  const parsed: unknown = JSON.parse(raw);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${ENV_PREFIX}_REMOTE_SERVICES must be a JSON object`);
  const out: Record<string, { url: string }> = {};
  for (const [name, value] of Object.entries(parsed)) {
    const url = typeof value === 'object' && value !== null ? (value as { url?: unknown }).url : undefined;
    if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new Error(`${ENV_PREFIX}_REMOTE_SERVICES.${name}.url must be an http(s) URL`);
    out[name] = { url };
  }
  return out;
}
{{/cloudSwitchEnabled}}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): MonolithConfig {
  return {
    profile: profileOf(env.FW_PROFILE),
    host: env.HOST || '127.0.0.1',
    port: portOf(env.PORT),
    databaseUrl: env[`${ENV_PREFIX}_DATABASE_URL`] || 'pglite:.data/{{monolithKebab}}',
    infoAccessKey: env.FW_INFO_ACCESS_KEY || undefined,
    adminUiProxyOrigins: (env.FW_ADMIN_UI_PROXY_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean),
{{#security}}
    jwtSecret: env[`${ENV_PREFIX}_JWT_SECRET`] || undefined,
{{/security}}
{{#enableServiceRegistryDelegate}}
    serviceRegistryUrl: env.SERVICE_REGISTRY_URL || '{{serviceRegistryUrl}}',
    publicBaseUrl: env.FW_SERVICE_BASE_URL || undefined,
{{/enableServiceRegistryDelegate}}
{{#cloudSwitchEnabled}}
    remoteServices: remoteServicesOf(env[`${ENV_PREFIX}_REMOTE_SERVICES`]),
{{/cloudSwitchEnabled}}
  };
}
