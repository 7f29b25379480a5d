/** All definitions (for pickers and filters), cached per tenant for a minute. */
import { useQuery } from '@tanstack/react-query';
import { allDefinitions } from '../../api/client';
import { useApi } from '../session/session';

export function useDefinitions() {
  const api = useApi();
  return useQuery({
    queryKey: [api.tenant, 'definitions', 'all'],
    queryFn: () => allDefinitions(api),
    staleTime: 60_000,
  });
}
