/** View state kept in the URL's query (filters, page) so a deep link reopens the same view. */
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

export function useSearchState() {
  const [params, setParams] = useSearchParams();
  const get = useCallback((name: string): string | undefined => params.get(name) ?? undefined, [params]);
  const getInt = useCallback(
    (name: string, fallback: number): number => {
      const value = Number(params.get(name));
      return params.has(name) && Number.isInteger(value) && value >= 0 ? value : fallback;
    },
    [params],
  );
  /** Sets (or removes, for undefined/empty) the given names; `page` goes back to 0 unless given. */
  const update = useCallback(
    (changes: Record<string, string | number | undefined>, options: { keepPage?: boolean } = {}) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (!options.keepPage && !('page' in changes)) next.delete('page');
          for (const [name, value] of Object.entries(changes)) {
            if (value === undefined || value === '') next.delete(name);
            else next.set(name, String(value));
          }
          return next;
        },
        { replace: false },
      );
    },
    [setParams],
  );
  return { params, get, getInt, update };
}
