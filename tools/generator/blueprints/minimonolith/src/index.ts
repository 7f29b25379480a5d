// Public entry point of {{scope}}/{{monolithKebab}}.
export { createMonolith } from './host';
export type { Monolith, MonolithOptions } from './host';
export { configFromEnv, ENV_PREFIX } from './config';
export type { MonolithConfig, Profile } from './config';
export { loadComposedServices, SERVICE_PACKAGES } from './composed-services';
export type { ServicePackage } from './composed-services';
export { makeMemoryNotesStore, makeNotesService, NOTES_SERVICE } from './notes-service';
export type { Note, NotesStore } from './notes-service';
