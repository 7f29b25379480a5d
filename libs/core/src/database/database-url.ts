import * as path from 'node:path';
import { ConfigError } from '../errors/fw-error';

/** Where a database lives, parsed from a connection URL. */
export type DatabaseLocation = { kind: 'postgres'; connectionString: string } | { kind: 'pglite'; dataDir?: string };

/**
 * Parses a database URL.
 *
 * - `postgres://user:pw@host:5432/db` or `postgresql://…`: PostgreSQL through `pg`.
 * - `jdbc:postgresql://host:5432/db`: accepted for configs moved from Java, converted.
 * - `pglite:memory:` (or just `pglite:`): embedded, in memory.
 * - `pglite:./.data/db` or `pglite:/abs/dir`: embedded, file-backed in that folder.
 *
 * `username`/`password` given separately are written into the URL (they win over any in it).
 */
export function parseDatabaseUrl(
  url: string,
  credentials: { username?: string; password?: string } = {},
  baseDir = process.cwd(),
): DatabaseLocation {
  const trimmed = url.trim();
  if (trimmed.startsWith('pglite:')) {
    const rest = trimmed.slice('pglite:'.length).replace(/^\/\/(?=\/)/, '');
    if (rest === '' || rest === 'memory:' || rest === 'memory') return { kind: 'pglite' };
    return { kind: 'pglite', dataDir: path.resolve(baseDir, rest) };
  }
  let candidate = trimmed;
  if (candidate.startsWith('jdbc:postgresql:')) candidate = `postgres:${candidate.slice('jdbc:postgresql:'.length)}`;
  if (!/^postgres(ql)?:\/\//.test(candidate)) {
    throw new ConfigError(
      `Unsupported database URL '${redactUrl(url)}': use postgres://host:port/db, jdbc:postgresql://host:port/db, pglite:memory: or pglite:<folder>`,
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(candidate);
  } catch {
    throw new ConfigError(`Database URL '${redactUrl(url)}' is not a valid URL`);
  }
  if (credentials.username) parsed.username = encodeURIComponent(credentials.username);
  if (credentials.password) parsed.password = encodeURIComponent(credentials.password);
  return { kind: 'postgres', connectionString: parsed.toString() };
}

/** The URL with any password replaced, safe for logs and error messages. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@/]*@/, '$1***@');
}
