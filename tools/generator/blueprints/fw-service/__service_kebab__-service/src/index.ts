// The public entry of {{serviceKebab}}-service: what a host composing this service needs
// (create{{servicePascal}}Services + register{{servicePascal}}Services), this project's own host, and the parts
// to test or replace (the service definition, the store{{#security}}, the security interceptor{{/security}}{{#cloudSwitchEnabled}}, the client{{/cloudSwitchEnabled}}).
export { create{{servicePascal}}Services, make{{servicePascal}}App, register{{servicePascal}}Services, start{{servicePascal}}Host } from './host';
export type { Running{{servicePascal}}Host, {{servicePascal}}Services } from './host';
export { DEFAULT_TENANT, make{{servicePascal}}Service } from './service';
export type { {{servicePascal}}ServiceOptions } from './service';
export type { AdjustOutcome, {{servicePascal}}Repository } from './repository';
export { makeMemory{{servicePascal}}Repository } from './memory-repository';
export { readSettings } from './settings';
export type { {{servicePascal}}Settings } from './settings';
{{#jpa}}
export { makeDatabase{{servicePascal}}Repository, open{{servicePascal}}DatabaseRepository } from './database-repository';
export type { DatabaseSettings, {{servicePascal}}Tables } from './database-repository';
export { MIGRATIONS } from './migrations';
{{/jpa}}
{{#security}}
export { makeBearerJwtInterceptor, MIN_SECRET_LENGTH } from './security';
export type { JwtSettings } from './security';
{{/security}}
{{#cloudSwitchEnabled}}
export { make{{servicePascal}}Client } from './client';
export type { CallOptions, {{servicePascal}}Client, {{servicePascal}}ClientOptions } from './client';
{{/cloudSwitchEnabled}}
