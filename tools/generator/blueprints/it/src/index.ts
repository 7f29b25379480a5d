// Entry point of {{scope}}/{{appKebab}}-it: the target selection, the client and the reference app.
export { startTarget } from './target';
export type { Target } from './target';
export { make{{entityPascal}}Client, ENTITY_PATH } from './client';
export type { Answer, ErrorEnvelope, SuccessEnvelope, {{entityPascal}}Client, {{entityPascal}}Record } from './client';
export { startReferenceApp } from './reference/reference-app';
export type { ReferenceApp, ReferenceAppOptions } from './reference/reference-app';
{{#security}}
export { signToken, makeJwtInterceptor, MIN_SECRET_LENGTH } from './jwt';
export type { TokenSettings } from './jwt';
{{/security}}
