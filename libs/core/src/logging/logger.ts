import pino from 'pino';

/** The structured logger used across the framework (a pino logger). */
export type Logger = pino.Logger;

export interface LoggerOptions {
  /** Component name, written as `name` on every line. */
  name: string;
  /** pino level; defaults to `FW_LOG_LEVEL`, else `info` (`silent` under Jest unless set). */
  level?: string;
  /** Where lines go; defaults to stdout. */
  destination?: pino.DestinationStream;
}

/**
 * Paths never written to logs: credentials in config objects and request headers.
 * Keys are matched at the top level and one or two levels deep.
 */
const REDACTED_PATHS = [
  'password',
  '*.password',
  '*.*.password',
  'apiKey',
  '*.apiKey',
  '*.*.apiKey',
  'headers.authorization',
  'headers["x-process-management-key"]',
  'req.headers.authorization',
  'req.headers["x-process-management-key"]',
];

/**
 * Creates a JSON logger.
 *
 * @example
 * const log = createLogger({ name: 'query-host' });
 * log.info({ port: 8081 }, 'listening');
 */
export function createLogger(options: LoggerOptions): Logger {
  const level = options.level ?? process.env.FW_LOG_LEVEL ?? (process.env.JEST_WORKER_ID ? 'silent' : 'info');
  const config: pino.LoggerOptions = {
    name: options.name,
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  return options.destination ? pino(config, options.destination) : pino(config);
}
