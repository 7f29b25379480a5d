// How {{service}} is configured at run time: from the environment, read once at startup (see the
// README's "Configuration" table). Nothing secret has a default.
{{#cloudSwitchEnabled}}
import { loadConfigFile } from '@fw/core';
{{/cloudSwitchEnabled}}
{{#jpa}}
import type { DatabaseSettings } from './database-repository';
{{/jpa}}
{{#security}}
import type { JwtSettings } from './security';
{{/security}}

export interface {{servicePascal}}Settings {
  /** Listening port (0: any free port). */
  port: number;
  /** Listening address. */
  host: string;
{{#jpa}}
  database: DatabaseSettings;
{{/jpa}}
{{#security}}
  jwt: JwtSettings;
{{/security}}
{{#cloudSwitchEnabled}}
  /** `services.<name>.url`: where a service runs when not in this process (the cloud switch). */
  services: Record<string, { url?: string }>;
{{/cloudSwitchEnabled}}
{{#enableMCP}}
  /** Serve /mcp (default on; `{{serviceConstant}}_MCP_ENABLED=false` turns it off). */
  mcp: boolean;
{{/enableMCP}}
  /** When set (32+ characters), /info, /service-info, /health-check and /openapi.json need X-Fw-Info-Key. */
  infoAccessKey?: string;
}

/** Unset and empty are the same here: the variable gives no value. */
function value(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

function port(env: NodeJS.ProcessEnv): number {
  const text = value(env, 'PORT') ?? '8080';
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`PORT must be a port number, got '${text}'`);
  return n;
}
{{#cloudSwitchEnabled}}

/**
 * The `services` section of the JSON file named by {{serviceConstant}}_CONFIG (placeholders such as
 * `${REMOTE_URL:-}` are filled from the environment); no file: every service is local.
 */
function services(env: NodeJS.ProcessEnv): Record<string, { url?: string }> {
  const file = value(env, '{{serviceConstant}}_CONFIG');
  if (file === undefined) return {};
  const data = loadConfigFile(file, { env }).data as { services?: unknown };
  const section = data.services ?? {};
  if (typeof section !== 'object' || section === null || Array.isArray(section)) throw new Error(`${file}: 'services' must be an object of { "<service>": { "url": "http://…" } }`);
  const out: Record<string, { url?: string }> = {};
  for (const [name, entry] of Object.entries(section as Record<string, unknown>)) {
    const url = (entry as { url?: unknown } | null)?.url;
    if (url !== undefined && typeof url !== 'string') throw new Error(`${file}: services.${name}.url must be a string`);
    // An empty url (an unset placeholder) means "local", like no entry at all.
    out[name] = url ? { url } : {};
  }
  return out;
}
{{/cloudSwitchEnabled}}

export function readSettings(env: NodeJS.ProcessEnv = process.env): {{servicePascal}}Settings {
  return {
    port: port(env),
    host: value(env, 'HOST') ?? '0.0.0.0',
{{#jpa}}
    database: {
      // A folder next to where the service runs: data survives restarts without any setup.
      url: value(env, '{{serviceConstant}}_DATABASE_URL') ?? 'pglite:./.data/{{serviceKebab}}',
      username: value(env, '{{serviceConstant}}_DATABASE_USERNAME'),
      // An empty password is a real value (trust or .pgpass authentication), so read it as given.
      password: env.{{serviceConstant}}_DATABASE_PASSWORD,
    },
{{/jpa}}
{{#security}}
    jwt: {
      secret: value(env, '{{serviceConstant}}_JWT_SECRET'),
      jwksUrl: value(env, '{{serviceConstant}}_JWKS_URL'),
      issuer: value(env, '{{serviceConstant}}_JWT_ISSUER'),
      audience: value(env, '{{serviceConstant}}_JWT_AUDIENCE'),
    },
{{/security}}
{{#cloudSwitchEnabled}}
    services: services(env),
{{/cloudSwitchEnabled}}
{{#enableMCP}}
    mcp: value(env, '{{serviceConstant}}_MCP_ENABLED') !== 'false',
{{/enableMCP}}
    infoAccessKey: value(env, 'FW_INFO_ACCESS_KEY'),
  };
}
