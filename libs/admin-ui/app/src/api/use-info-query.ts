/**
 * react-query over the info client: the key of every query holds the base URL and whether a key
 * is set (never the key itself), and a 401 asks the user for the key instead of failing the view.
 */
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useConnection } from './connection-context';
import { type InfoApiError, type Connection } from './info-client';

export function useInfoQuery<T>(
  parts: readonly unknown[],
  read: (connection: Connection) => Promise<T>,
  options: { enabled?: boolean; staleTime?: number } = {},
): UseQueryResult<T, InfoApiError> {
  const { connection, keyGeneration, requestKey } = useConnection();
  const result = useQuery<T, InfoApiError>({
    queryKey: ['info', connection.baseUrl ?? 'same-origin', keyGeneration, ...parts],
    queryFn: () => read(connection),
    enabled: options.enabled ?? true,
    staleTime: options.staleTime ?? 30_000,
    retry: (count, error) => error.status >= 500 && error.status !== 503 && count < 1,
  });
  const unauthorized = result.error?.needsInfoKey === true;
  useEffect(() => {
    if (unauthorized) requestKey();
  }, [unauthorized, requestKey]);
  return result;
}
