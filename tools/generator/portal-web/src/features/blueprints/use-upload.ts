/** Uploads a file prompt's file into the session's workspace (`uploads/<name>`, POST /api/uploads). */
import { useMutation } from '@tanstack/react-query';
import { portalApi, type PortalApiError, type Session, type Upload } from '../../api/portal-client';

export function useUpload(session: Session | undefined) {
  return useMutation<Upload, PortalApiError, File>({
    mutationFn: (file) => {
      if (!session) throw new Error('no session yet');
      return portalApi.upload(session, file);
    },
  });
}
