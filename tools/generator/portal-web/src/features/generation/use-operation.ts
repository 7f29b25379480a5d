/**
 * Starts a portal operation (a generation, the project's tests) and follows its log into the page's
 * log to the end, ending with `== <kind> <status>`.
 */
import { useMutation } from '@tanstack/react-query';
import { portalApi, type OperationEnd, type PortalApiError, type Session } from '../../api/portal-client';
import type { Log } from './use-log';

export function useOperation(
  kind: string,
  session: Session | undefined,
  start: (session: Session) => Promise<{ operationId: string }>,
  log: Log,
  onEnd?: (end: OperationEnd) => void,
) {
  return useMutation<OperationEnd, PortalApiError>({
    mutationFn: async () => {
      if (!session) throw new Error('no session yet');
      const { operationId } = await start(session);
      const end = await portalApi.followLog(session, operationId, log.append);
      log.append(`== ${kind} ${end.status}${end.failure ? ` (${end.failure})` : ''}`);
      return end;
    },
    onSuccess: onEnd,
    onError: (error) => log.append(`== ${kind} failed: ${error.message}`),
  });
}
