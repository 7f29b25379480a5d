import { parseProxyAllowedOrigins } from '@fw/admin-ui';
import { createLogger, FwError, installGracefulShutdown, isConfigError, loadConfigFile, type Logger } from '@fw/core';
import { startTelemetry, type Telemetry } from '@fw/telemetry-node';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { demoCurl, prepareDemo } from './demo/demo-setup';
import { createQueryHost, type QueryHost } from './host/query-host';

export const QUERY_HOST_USAGE = `usage: fw-query-host [--config FILE]
       (in the workspace checkout: npm run query-host -- …)

  --config FILE   JSON config of the host (or set FW_CONFIG); \${ENV} is interpolated, paths are
                  relative to the file. Without a config: a demo on the embedded database.
  --help          this text
  --version       the version of @fw/query-host`;

/** The version of this package (`fw-query-host --version`). */
export const QUERY_HOST_VERSION: string = (
  JSON.parse(readFileSync(path.resolve(__dirname, '../package.json'), 'utf8')) as { version: string }
).version;

/** What the command line asks for. */
export type HostCommand = { kind: 'run'; configFile?: string } | { kind: 'help' } | { kind: 'version' };

/** Raised for bad arguments; main prints it with the usage and exits 2. */
/** A command line the host does not take (printed with the usage, exit code 2). */
export class UsageError extends FwError {
  constructor(message: string) {
    super({ code: 400, subErrorCode: 'QUERY_HOST_USAGE', description: message, expose: false });
    this.name = 'UsageError';
  }
}

/**
 * Parses `--config FILE` / `--config=FILE` / `--help`; `FW_CONFIG` is used when `--config` is absent.
 * @throws UsageError for anything else.
 */
export function parseHostArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): HostCommand {
  let configFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (arg === '--version') return { kind: 'version' };
    if (arg === '--config') {
      configFile = argv[++i];
      if (configFile === undefined || configFile === '' || configFile.startsWith('--'))
        throw new UsageError('--config needs a file');
    } else if (arg.startsWith('--config=')) {
      configFile = arg.slice('--config='.length);
      if (configFile === '') throw new UsageError('--config needs a file');
    } else {
      throw new UsageError(`unknown argument '${arg}'`);
    }
  }
  configFile ??= env.FW_CONFIG || undefined;
  return { kind: 'run', configFile };
}

/** Where main writes: separated so tests can capture it. */
export interface HostIo {
  out(line: string): void;
  err(line: string): void;
}

/** What the command line reads from the environment besides the config. */
interface HostEnvSettings {
  infoAccessKey: string | undefined;
  serviceRegistry: { url: string; baseUrl?: string } | undefined;
  mcpFlag: 'true' | 'false' | undefined;
  adminUiProxyOrigins: string[];
  metricsToken: string | undefined;
}

/**
 * FW_INFO_ACCESS_KEY, FW_SERVICE_REGISTRY_URL, FW_SERVICE_BASE_URL, FW_MCP_ENABLED,
 * FW_ADMIN_UI_PROXY_ORIGINS and FW_METRICS_TOKEN (empty counts as unset), or the line naming the
 * variable that is wrong.
 */
function hostSettingsFromEnv(env: NodeJS.ProcessEnv): HostEnvSettings | string {
  const registryUrl = env.FW_SERVICE_REGISTRY_URL || undefined;
  const mcpFlag = env.FW_MCP_ENABLED || undefined;
  let adminUiProxyOrigins: string[];
  try {
    adminUiProxyOrigins = parseProxyAllowedOrigins(env.FW_ADMIN_UI_PROXY_ORIGINS, 'FW_ADMIN_UI_PROXY_ORIGINS');
  } catch (err) {
    return (err as Error).message;
  }
  if (mcpFlag !== undefined && mcpFlag !== 'true' && mcpFlag !== 'false')
    return `FW_MCP_ENABLED must be true or false, got '${mcpFlag}'`;
  return {
    infoAccessKey: env.FW_INFO_ACCESS_KEY || undefined,
    serviceRegistry:
      registryUrl === undefined
        ? undefined
        : { url: registryUrl, ...(env.FW_SERVICE_BASE_URL ? { baseUrl: env.FW_SERVICE_BASE_URL } : {}) },
    mcpFlag,
    adminUiProxyOrigins,
    metricsToken: env.FW_METRICS_TOKEN?.trim() || undefined,
  };
}

/** The start-up line saying whether traces are exported, and where to or why not, and what is instrumented. */
function logTraceExport(telemetry: Telemetry, logger: Logger): void {
  const { instrumentations } = telemetry;
  const instrumented = instrumentations.length > 0 ? ` (instrumented: ${instrumentations.join(', ')})` : '';
  if (telemetry.exporting)
    logger.info({ traces: telemetry.url, instrumentations }, `traces exported to ${telemetry.url}${instrumented}`);
  else logger.info({ traces: null }, `traces not exported: ${telemetry.reason}`);
}

/**
 * Starts the host for `argv` and resolves once it listens (with the host), or with an exit code
 * when it must not run: 0 after --help, 1 on a startup failure (one line naming what to fix),
 * 2 on bad arguments. Signal handling (SIGTERM/SIGINT → close server and pools) is installed
 * once listening.
 */
export async function startFromCommandLine(
  argv: readonly string[],
  io: HostIo,
  logger: Logger = createLogger({ name: 'query-host' }),
): Promise<QueryHost | number> {
  let command: HostCommand;
  try {
    command = parseHostArgs(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`query-host: ${err.message}`);
    io.err(QUERY_HOST_USAGE);
    return 2;
  }
  if (command.kind === 'help') {
    io.out(QUERY_HOST_USAGE);
    return 0;
  }
  if (command.kind === 'version') {
    io.out(`fw-query-host ${QUERY_HOST_VERSION}`);
    return 0;
  }
  const fromEnv = hostSettingsFromEnv(process.env);
  if (typeof fromEnv === 'string') {
    io.err(`query-host: cannot start: ${fromEnv}`);
    return 1;
  }
  const { infoAccessKey, serviceRegistry, mcpFlag, adminUiProxyOrigins, metricsToken } = fromEnv;
  const cleanups: Array<() => Promise<void>> = [];
  try {
    // First, so every span goes to it; its shutdown is the last cleanup.
    const telemetry = await startTelemetry({ serviceName: 'fw-query-host' });
    cleanups.push(() => telemetry.shutdown());
    logTraceExport(telemetry, logger);
    let host: QueryHost;
    if (command.configFile) {
      host = await createQueryHost({
        config: loadConfigFile(command.configFile),
        logger,
        infoAccessKey,
        mcp: mcpFlag === 'true',
        serviceRegistry,
        adminUiProxyOrigins,
        metricsToken,
      });
    } else {
      io.out(
        'query-host: no --config and no FW_CONFIG: starting the demo on the embedded database (tenants demo, acme)',
      );
      const demo = await prepareDemo();
      cleanups.unshift(() => demo.close());
      host = await createQueryHost({
        config: demo.config,
        databaseFactory: demo.databaseFactory,
        logger,
        infoAccessKey,
        mcp: mcpFlag !== 'false',
        serviceRegistry,
        adminUiProxyOrigins,
        metricsToken,
        // The demo is a local try-out: /metrics open without a token, as in a dev profile.
        metricsProfile: 'dev',
      });
    }
    cleanups.unshift(() => host.close());
    const { url } = await host.listen();
    installGracefulShutdown({ logger, steps: cleanups });
    io.out(`query-host: listening on ${url}`);
    io.out(`query-host: admin UI: ${url}/fw/admin/`);
    if (!command.configFile) io.out(`query-host: try\n  ${demoCurl(url)}`);
    return host;
  } catch (err) {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
    if (isConfigError(err) || err instanceof RangeError) {
      io.err(`query-host: cannot start: ${err.message}`);
    } else {
      io.err(`query-host: cannot start, unexpected error: ${err instanceof Error ? err.message : String(err)}`);
      if (err instanceof Error && err.stack) io.err(err.stack);
    }
    return 1;
  }
}
