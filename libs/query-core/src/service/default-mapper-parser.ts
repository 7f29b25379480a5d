import { ConfigError } from '@fw/core';
import type { MapperParser } from '../catalog/query-source-loader';

/** The package's mapper engine as a {@link MapperParser}. */
export const defaultMapperParser: MapperParser = async (_xml, source) => {
  throw new ConfigError(`${source}: the mapper engine is not available yet`);
};
