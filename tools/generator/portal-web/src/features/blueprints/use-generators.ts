/** The blueprints the portal offers, with their prompts (GET /api/generators). */
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { portalApi, type Generator, type PortalApiError } from '../../api/portal-client';

export function useGenerators(): UseQueryResult<Generator[], PortalApiError> {
  return useQuery<Generator[], PortalApiError>({
    queryKey: ['generators'],
    queryFn: portalApi.listGenerators,
    staleTime: Infinity,
    retry: false,
  });
}
