// The built-in service of {{monolith}}: notes, small enough to read in one go, so the host has
// something of its own to show (and to test) even before it composes any other package.
//   POST /notes        { text }  → the note (id, text, createdAt)
//   GET  /notes/{id}             → the note, 404 envelope when there is none
import { randomUUID } from 'node:crypto';
import { FwError } from '@fw/core';
import { defineService, type Interceptor, type ServiceDefinition } from '@fw/service';

export interface Note {
  id: string;
  text: string;
  createdAt: string;
}

/** Where notes live: in memory, or in the database (jpa). */
export interface NotesStore {
  readonly kind: 'memory' | 'database';
  insert(note: Note): Promise<void>;
  find(id: string): Promise<Note | undefined>;
  /** Throws when the store cannot be reached (the health check). */
  ping(): Promise<void>;
}

export function makeMemoryNotesStore(): NotesStore {
  const notes = new Map<string, Note>();
  return {
    kind: 'memory',
    async insert(note) {
      notes.set(note.id, note);
    },
    async find(id) {
      return notes.get(id);
    },
    async ping() {},
  };
}

export const NOTES_SERVICE = '{{monolithKebab}}-notes';

const NOTE_SCHEMA = {
  type: 'object',
  required: ['id', 'text', 'createdAt'],
  properties: { id: { type: 'string' }, text: { type: 'string' }, createdAt: { type: 'string' } },
  additionalProperties: false,
} as const;

export function makeNotesService(store: NotesStore, interceptors: readonly Interceptor[] = []): ServiceDefinition {
  return defineService({
    name: NOTES_SERVICE,
    version: '{{monolithVersion}}',
    kind: 'http',
    description: `Notes of {{monolith}} (${store.kind} store)`,
    interceptors,
    healthCheck: async () => {
      await store.ping();
      return { healthy: true, checks: [{ name: `notes-store:${store.kind}`, healthy: true }] };
    },
    details: () => ({ store: store.kind }),
    operations: [
      {
        name: 'create',
        description: 'Stores a note',
        method: 'POST',
        path: '/notes',
        input: { type: 'object', required: ['text'], properties: { text: { type: 'string', minLength: 1, maxLength: 2000 } }, additionalProperties: false },
        output: NOTE_SCHEMA,
        handler: async (input: { text: string }) => {
          const note: Note = { id: randomUUID(), text: input.text, createdAt: new Date().toISOString() };
          await store.insert(note);
          return note;
        },
      },
      {
        name: 'read',
        description: 'Reads one note',
        method: 'GET',
        path: '/notes/{id}',
        input: { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1 } } },
        output: NOTE_SCHEMA,
        handler: async (input: { id: string }) => {
          const note = await store.find(input.id);
          if (!note) throw new FwError({ code: 404, subErrorCode: 'NOTE404', description: `no note ${input.id}`, field: 'id' });
          return note;
        },
      },
    ],
  });
}
