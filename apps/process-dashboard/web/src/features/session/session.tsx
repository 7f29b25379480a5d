/**
 * The session: the administration key lives here, in React state only — never in storage, cookies,
 * the URL or a log. A reload forgets it (the user types it again; the URL keeps the view and the
 * tenant). A 401 from any call ends the session with a message.
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { createApiClient, type ApiClient } from '../../api/client';

export interface SessionState {
  /** The key, or undefined before sign-in / after a 401. */
  key: string | undefined;
  /** Why the last session ended (a refused key), shown on the form. */
  notice: string | undefined;
  signIn(key: string): void;
  signOut(notice?: string): void;
}

const SessionContext = createContext<SessionState | undefined>(undefined);

export function SessionProvider({ children, initialKey }: { children: ReactNode; initialKey?: string }) {
  const [key, setKey] = useState<string | undefined>(initialKey);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const signIn = useCallback((next: string) => {
    setNotice(undefined);
    setKey(next);
  }, []);
  const signOut = useCallback((why?: string) => {
    setKey(undefined);
    setNotice(why);
  }, []);
  const value = useMemo(() => ({ key, notice, signIn, signOut }), [key, notice, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

const ApiContext = createContext<ApiClient | undefined>(undefined);

/** Provides the client of the signed-in key for one tenant. */
export function ApiProvider({ tenant, children }: { tenant: string; children: ReactNode }) {
  const { key } = useSession();
  const api = useMemo(() => (key === undefined ? undefined : createApiClient({ key, tenant })), [key, tenant]);
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}

/** The API client of the current session and tenant. */
export function useApi(): ApiClient {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside a signed-in tenant');
  return api;
}

/** The tenant pattern of the API (`x-fw-tenant-id`). */
export const TENANT_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
