/**
 * Portal sessions: each has its own workspace folder under the portal's root and a random token
 * that every later request must present. Sessions expire after a time without use; a sweep removes
 * them and their folders, so an abandoned browser tab does not leave files behind for ever.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';

export interface PortalSession {
  id: string;
  /** Sent back in `x-fw-gen-session` on every request of the session. */
  token: string;
  workspaceId: string;
  dir: string;
  expiresAt: number;
}

export interface SessionStore {
  create(): PortalSession;
  /** The session of a token, its expiry pushed back; undefined when unknown or expired. */
  touch(token: string | undefined): PortalSession | undefined;
  /** Removes expired sessions and their folders; returns how many. */
  sweep(): number;
  size(): number;
  closeAll(): void;
}

export interface SessionStoreOptions {
  root: string;
  ttlMillis: number;
  now?: () => number;
}

export function makeSessionStore(options: SessionStoreOptions): SessionStore {
  const now = options.now ?? Date.now;
  const byToken = new Map<string, PortalSession>();
  const remove = (s: PortalSession): void => {
    byToken.delete(s.token);
    rmSync(s.dir, { recursive: true, force: true });
  };
  return {
    create() {
      const id = randomUUID();
      const dir = path.join(options.root, id);
      mkdirSync(path.join(dir, 'uploads'), { recursive: true });
      const session = {
        id,
        token: randomBytes(24).toString('base64url'),
        workspaceId: id,
        dir,
        expiresAt: now() + options.ttlMillis,
      };
      byToken.set(session.token, session);
      return session;
    },
    touch(token) {
      const session = token === undefined ? undefined : byToken.get(token);
      if (!session) return undefined;
      if (session.expiresAt <= now()) {
        remove(session);
        return undefined;
      }
      session.expiresAt = now() + options.ttlMillis;
      return session;
    },
    sweep() {
      const expired = [...byToken.values()].filter((s) => s.expiresAt <= now());
      expired.forEach(remove);
      return expired.length;
    },
    size: () => byToken.size,
    closeAll() {
      [...byToken.values()].forEach(remove);
    },
  };
}
