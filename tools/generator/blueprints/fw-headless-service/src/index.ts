// Public entry point of {{scope}}/{{serviceKebab}}: what a host needs to compose {{service}}
// (the service definition for its own registry) and the adapters that call it.
export { make{{servicePascal}}Service, quote, SERVICE_NAME, SERVICE_VERSION, BULK_QUANTITY, BULK_DISCOUNT_PERCENT } from './service';
export type { Quote, QuoteInput } from './service';
export { make{{servicePascal}}Registry } from './registry';
export { EVENT_CHANNEL, handleEvent, parseEvent, subscribe } from './events';
export type { EventOutcome, EventSource, ServiceEvent } from './events';
export { handler } from './serverless';
export type { ServerlessEvent, ServerlessResult } from './serverless';
{{#registerInServiceRegistry}}
export { loadRegistrationSettings, startRegistration, REGISTRY_CONFIG_FILE } from './registration';
export type { RegistrationSettings } from './registration';
{{/registerInServiceRegistry}}
