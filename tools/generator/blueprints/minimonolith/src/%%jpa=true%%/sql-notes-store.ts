// Notes in the database (jpa=y): the `notes` table of migrations/0001_notes.sql, through the kysely
// handle of @fw/core (PGlite by default, PostgreSQL when {{monolithConstant}}_DATABASE_URL says so).
import * as path from 'node:path';
import { migrateDatabase, readMigrationFolder, type Database } from '@fw/core';
import type { Note, NotesStore } from './notes-service';

interface NotesTables {
  notes: { id: string; text: string; created_at: string };
}

/** The migrations shipped with the package (next to dist/, so they work installed too). */
export const MIGRATIONS_DIR = path.join(__dirname, '..', '..', 'migrations');

export async function migrateNotes(database: Database): Promise<void> {
  await migrateDatabase(database, readMigrationFolder(MIGRATIONS_DIR));
}

export function makeSqlNotesStore(database: Database): NotesStore {
  const db = (database as Database<NotesTables>).db;
  return {
    kind: 'database',
    async insert(note) {
      await db.insertInto('notes').values({ id: note.id, text: note.text, created_at: note.createdAt }).execute();
    },
    async find(id): Promise<Note | undefined> {
      const row = await db.selectFrom('notes').select(['id', 'text', 'created_at']).where('id', '=', id).executeTakeFirst();
      return row ? { id: row.id, text: row.text, createdAt: row.created_at } : undefined;
    },
    async ping() {
      await db.selectFrom('notes').select('id').limit(1).execute();
    },
  };
}
