// Public entry point of @fw/query-core. Every export is listed explicitly.
export { FRAMEWORK_SUBSTITUTIONS } from './mapper/mapper-types';
export type { BoundSql, MappedStatement, MapperDocument, FrameworkSubstitution } from './mapper/mapper-types';
