// The public entry of {{scope}}/{{interceptorNameKebab}}.
export { defaultKeyOf, make{{interceptorNamePascal}}Interceptor, REMAINING_ATTRIBUTE, {{interceptorNameConstant}}_REFUSED } from './{{interceptorNameKebab}}';
export type { {{interceptorNamePascal}}Options } from './{{interceptorNameKebab}}';
