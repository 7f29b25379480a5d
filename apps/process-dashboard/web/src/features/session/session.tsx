/**
 * The session: the credential (an administration key or a bearer token) and the caller the server
 * took it for (`GET /me`: role, tenants, allowed operations) live here, in React state only —
 * never in storage, cookies, the URL or a log. A reload forgets them (the user signs in again; the
 * URL keeps the view and the tenant). A 401 from any call ends the session with a message.
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { createApiClient, type ApiClient, type Credential } from '../../api/client';
import type { Caller } from '../../api/types';

export interface SessionState {
  /** The credential, or undefined before sign-in / after a 401. */
  credential: Credential | undefined;
  /** Who the server takes the credential for (undefined when signed out). */
  caller: Caller | undefined;
  /** Why the last session ended (a refused credential), shown on the form. */
  notice: string | undefined;
  signIn(credential: Credential, caller: Caller): void;
  signOut(notice?: string): void;
}

const SessionContext = createContext<SessionState | undefined>(undefined);

export interface SessionProviderProps {
  children: ReactNode;
  initialCredential?: Credential;
  initialCaller?: Caller;
}

export function SessionProvider({ children, initialCredential, initialCaller }: SessionProviderProps) {
  const [signedIn, setSignedIn] = useState<{ credential: Credential; caller: Caller } | undefined>(
    initialCredential && initialCaller ? { credential: initialCredential, caller: initialCaller } : undefined,
  );
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const signIn = useCallback((credential: Credential, caller: Caller) => {
    setNotice(undefined);
    setSignedIn({ credential, caller });
  }, []);
  const signOut = useCallback((why?: string) => {
    setSignedIn(undefined);
    setNotice(why);
  }, []);
  const value = useMemo(
    () => ({ credential: signedIn?.credential, caller: signedIn?.caller, notice, signIn, signOut }),
    [signedIn, notice, signIn, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

const ApiContext = createContext<ApiClient | undefined>(undefined);

/** Provides the client of the signed-in credential for one tenant. */
export function ApiProvider({ tenant, children }: { tenant: string; children: ReactNode }) {
  const { credential } = useSession();
  const api = useMemo(
    () => (credential === undefined ? undefined : createApiClient({ credential, tenant })),
    [credential, tenant],
  );
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
