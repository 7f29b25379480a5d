/**
 * Preferences of this tab, in memory: the colour theme (system by default) and the live refresh
 * of the execution views (every 10 s, pausable). Nothing is stored.
 */
import { keepPreviousData, useQuery, type QueryKey, type UseQueryResult } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

export type ThemeMode = 'system' | 'light' | 'dark';

/** The refresh period of the execution views. */
export const REFRESH_MILLIS = 10_000;

interface Preferences {
  theme: ThemeMode;
  setTheme(mode: ThemeMode): void;
  cycleTheme(): void;
  paused: boolean;
  setPaused(paused: boolean): void;
}

const PreferencesContext = createContext<Preferences | undefined>(undefined);

export function PreferencesProvider({ children }: { children: ReactNode }) {
  const [theme, setTheme] = useState<ThemeMode>('system');
  const [paused, setPaused] = useState(false);
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') root.removeAttribute('data-theme');
    else root.setAttribute('data-theme', theme);
  }, [theme]);
  const cycleTheme = useCallback(
    () => setTheme((t) => (t === 'system' ? 'light' : t === 'light' ? 'dark' : 'system')),
    [],
  );
  const value = useMemo(() => ({ theme, setTheme, cycleTheme, paused, setPaused }), [theme, cycleTheme, paused]);
  return <PreferencesContext.Provider value={value}>{children}</PreferencesContext.Provider>;
}

export function usePreferences(): Preferences {
  const prefs = useContext(PreferencesContext);
  if (!prefs) throw new Error('usePreferences outside PreferencesProvider');
  return prefs;
}

/**
 * A query of an execution view: refetched every 10 s unless paused, keeping the previous data on
 * screen while the next page loads (rows, scroll, selection and open panels stay).
 */
export function useLiveQuery<T>(
  queryKey: QueryKey,
  queryFn: () => Promise<T>,
  options: { enabled?: boolean } = {},
): UseQueryResult<T> {
  const { paused } = usePreferences();
  return useQuery({
    queryKey,
    queryFn,
    placeholderData: keepPreviousData,
    refetchInterval: paused ? false : REFRESH_MILLIS,
    refetchIntervalInBackground: false,
    enabled: options.enabled ?? true,
  });
}

/** Seconds since `time` (ms), ticking every second. */
export function useSecondsSince(time: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return Math.max(0, Math.floor((now - time) / 1000));
}
