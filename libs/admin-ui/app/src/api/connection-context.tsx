/**
 * Where the UI reads from and with which key. The key lives in this React state only: never in
 * storage, cookies or the URL, so a reload forgets it (by design). A 401 from any query opens the
 * key prompt; entering a key re-runs the queries.
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { Connection } from './info-client';

interface ConnectionState {
  connection: Connection;
  /** Changes whenever the key does: part of every query's key (the key itself never is). */
  keyGeneration: number;
  /** True after a 401 until a key is given. */
  keyRequested: boolean;
  requestKey(): void;
  setInfoKey(key: string | null): void;
  setBaseUrl(baseUrl: string | null): void;
}

const ConnectionContext = createContext<ConnectionState | null>(null);

export function ConnectionProvider({ children, initial }: { children: ReactNode; initial?: Partial<Connection> }) {
  const [baseUrl, setBase] = useState<string | null>(initial?.baseUrl ?? null);
  const [infoKey, setKey] = useState<string | null>(initial?.infoKey ?? null);
  const [keyRequested, setKeyRequested] = useState(false);
  const [keyGeneration, setKeyGeneration] = useState(0);
  const requestKey = useCallback(() => setKeyRequested(true), []);
  // A new key re-runs the queries through their key (keyGeneration), with the new key in their closure.
  const setInfoKey = useCallback((key: string | null) => {
    setKey(key);
    setKeyGeneration((n) => n + 1);
    setKeyRequested(false);
  }, []);
  const setBaseUrl = useCallback((next: string | null) => {
    setBase(next);
    // Another host may have another key (or none).
    setKey(null);
    setKeyGeneration((n) => n + 1);
    setKeyRequested(false);
  }, []);
  const value = useMemo(
    () => ({ connection: { baseUrl, infoKey }, keyGeneration, keyRequested, requestKey, setInfoKey, setBaseUrl }),
    [baseUrl, infoKey, keyGeneration, keyRequested, requestKey, setInfoKey, setBaseUrl],
  );
  return <ConnectionContext.Provider value={value}>{children}</ConnectionContext.Provider>;
}

export function useConnection(): ConnectionState {
  const state = useContext(ConnectionContext);
  if (state === null) throw new Error('useConnection outside ConnectionProvider');
  return state;
}
