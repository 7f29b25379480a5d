// The central config of {{ecosystem}}: one place that says where each host listens and how the
// hosts find each other. Each host still reads plain environment variables (its README lists
// them); `envOf(host, profile)` answers those variables for one host, and `{{ecosystemKebab}}-env <host>`
// prints them as `export` lines for a shell, a container or a process manager.

export type Profile = 'dev' | 'prod';

export interface HostSettings {
  /** The host's package folder in this ecosystem. */
  name: string;
  /** Prefix of its own variables (`<PREFIX>_DATABASE_URL`). */
  envPrefix: string;
  port: number;
}

export const HOSTS: readonly HostSettings[] = [
{{#includeServiceRegistry}}
  { name: '{{serviceRegistryMonolithKebab}}', envPrefix: '{{serviceRegistryMonolithConstant}}', port: Number(new URL('{{serviceRegistryUrl}}').port) || 80 },
{{/includeServiceRegistry}}
  { name: '{{monolithKebab}}', envPrefix: '{{monolithConstant}}', port: 8080 },
{{#includeHeadlessService}}
  { name: '{{headlessMonolithKebab}}', envPrefix: '{{headlessMonolithConstant}}', port: 8081 },
{{/includeHeadlessService}}
{{#includeQueryService}}
  { name: '{{queryMonolithKebab}}', envPrefix: '{{queryMonolithConstant}}', port: 8082 },
{{/includeQueryService}}
];

{{#includeServiceRegistry}}
/** Where every other host registers its services. */
export const SERVICE_REGISTRY_URL = '{{serviceRegistryUrl}}';
{{/includeServiceRegistry}}

export function hostNamed(name: string): HostSettings {
  const host = HOSTS.find((h) => h.name === name);
  if (!host) throw new Error(`no host ${name} in {{ecosystem}}: ${HOSTS.map((h) => h.name).join(', ')}`);
  return host;
}

/** The environment of one host: port, profile, database{{#includeServiceRegistry}}, registry{{/includeServiceRegistry}}. */
export function envOf(name: string, profile: Profile = 'dev'): Record<string, string> {
  const host = hostNamed(name);
  const env: Record<string, string> = {
    PORT: String(host.port),
    FW_PROFILE: profile,
    // dev: a PGlite folder per host; prod: the operator sets a PostgreSQL URL, never this file.
    ...(profile === 'dev' ? { [`${host.envPrefix}_DATABASE_URL`]: `pglite:.data/${host.name}` } : {}),
  };
{{#includeServiceRegistry}}
  if (host.name !== '{{serviceRegistryMonolithKebab}}') {
    env.SERVICE_REGISTRY_URL = SERVICE_REGISTRY_URL;
    env.FW_SERVICE_BASE_URL = `http://127.0.0.1:${host.port}`;
  }
{{/includeServiceRegistry}}
  return env;
}
