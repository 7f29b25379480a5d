/** The session's workspace: its file list, one file's text, and the generated project as a zip. */
import { useMutation, useQuery } from '@tanstack/react-query';
import { portalApi, type PortalApiError, type Session } from '../../api/portal-client';

/** `generation` counts successful generations: each one reads the tree (and files) anew. */
export function useTree(session: Session | undefined, generation: number) {
  return useQuery<string[], PortalApiError>({
    queryKey: ['tree', session?.workspaceId, generation],
    queryFn: () => portalApi.tree(session!),
    enabled: session !== undefined && generation > 0,
    retry: false,
  });
}

export function useFile(session: Session | undefined, generation: number, path: string | undefined) {
  return useQuery<string, PortalApiError>({
    queryKey: ['file', session?.workspaceId, generation, path],
    queryFn: () => portalApi.file(session!, path!),
    enabled: session !== undefined && path !== undefined,
    retry: false,
  });
}

/** Fetches the zip with the session header, then hands it to the browser as `project.zip`. */
export function useDownload(session: Session | undefined) {
  return useMutation<void, PortalApiError>({
    mutationFn: async () => {
      const blob = await portalApi.download(session!);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = 'project.zip';
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  });
}
