import { ConfigError } from '@fw/core';
import { glob } from 'tinyglobby';

/** Splits `a/*.xml, b/*.xml` (or an array) into trimmed, non-empty patterns. */
export function splitPatterns(value: string | readonly string[] | null | undefined): string[] {
  if (value === null || value === undefined) return [];
  const list = typeof value === 'string' ? value.split(',') : value;
  return list.map((p) => p.trim()).filter((p) => p !== '');
}

/**
 * Resolves glob patterns relative to `baseDir` into sorted absolute file paths. A pattern that
 * matches no file is a configuration error (it is almost always a typo or a wrong folder).
 *
 * @example
 * await resolvePatterns('mappers/*.xml', '/etc/query-host', 'query.mapperFiles');
 */
export async function resolvePatterns(
  value: string | readonly string[] | null | undefined,
  baseDir: string,
  setting: string,
): Promise<string[]> {
  const files = new Set<string>();
  for (const pattern of splitPatterns(value)) {
    const matches = await glob(pattern, { cwd: baseDir, absolute: true, onlyFiles: true, expandDirectories: false });
    if (matches.length === 0)
      throw new ConfigError(`${setting}: pattern '${pattern}' matches no file under ${baseDir}`);
    for (const m of matches) files.add(m);
  }
  return [...files].sort();
}
