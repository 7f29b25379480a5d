/** What packaged and catalog query sources share: mapper parsing with clear errors, and definition scope keys. */
import { ConfigError, isConfigError } from '@fw/core';
import type { ParsedMapperDocument } from '../mapper/mapper-parser';

/** Parses one mapper XML text (`source` names it in errors). */
export type MapperParser = (xml: string, source: string) => Promise<ParsedMapperDocument>;

/** Parses a mapper; any failure becomes a ConfigError naming `source`. */
export async function parseMapperChecked(
  parse: MapperParser,
  xml: string,
  source: string,
): Promise<ParsedMapperDocument> {
  try {
    return await parse(xml, source);
  } catch (err) {
    if (isConfigError(err) && err.message.includes(source)) throw err;
    throw new ConfigError(`${source}: invalid mapper XML: ${(err as Error).message}`, { cause: err });
  }
}

/** The key of a definition's name in its scope (the base scope when `tenantId` is undefined). */
export function definitionScopeKey(tenantId: string | undefined, name: string): string {
  return JSON.stringify([tenantId ?? null, name]);
}
