/**
 * The portal session of this page: created once (POST /api/sessions) and kept in the react-query
 * cache, that is in memory only — never in storage, a cookie or a URL. A reload starts a new session
 * with a new, empty workspace.
 */
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { portalApi, type PortalApiError, type Session } from './portal-client';

export function useSession(): UseQueryResult<Session, PortalApiError> {
  return useQuery<Session, PortalApiError>({
    queryKey: ['session'],
    queryFn: portalApi.createSession,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
}
