/**
 * Which columns tell the top-level objects of a nesting result map apart, so that a stream can
 * hand out one object as soon as its last row has gone by (its rows must come together: the
 * stream orders by these columns).
 */
import type { ResolvedResultMap } from './result-map';

function nests(map: ResolvedResultMap, seen = new Set<ResolvedResultMap>()): boolean {
  if (seen.has(map)) return false;
  seen.add(map);
  return map.nested.length > 0 || [...(map.discriminator?.cases.values() ?? [])].some((c) => nests(c, seen));
}

/**
 * The columns identifying one top-level object: the map's `<id>` columns, else every column it
 * maps; undefined when the map nests nothing (each row is then one object).
 *
 * @example
 * groupKeyColumns(authorWithBooks); // ['author_id']
 */
export function groupKeyColumns(map: ResolvedResultMap | undefined): string[] | undefined {
  if (!map || !nests(map)) return undefined;
  const mappings = map.ids.length > 0 ? map.ids : map.results;
  return mappings.map((m) => map.prefix + m.column);
}
