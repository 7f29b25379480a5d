// {{application}}'s service: its workers, the worker host and the HTTP entry.
export { allWorkers } from './workers';
export { makeHost, DEFINITION_SOURCE } from './host';
export type { HostOptions } from './host';
export { makeProcessRoutes, keyGuard, KEY_HEADER, TENANT_HEADER } from './http';
export { chunkRanges, readByteRange, fileSize, DEFAULT_CHUNK_BYTES } from './file-chunks';
export type { ByteRange, ChunkDigest } from './file-chunks';
export { main } from './main';
{{#processes}}
export * from './processes/{{processType}}';
{{/processes}}
{{#registerInServiceRegistry}}
export { startRegistration, registrationBody, DEFAULT_REGISTRY_URL } from './registry';
export type { RegistrationOptions } from './registry';
{{/registerInServiceRegistry}}
