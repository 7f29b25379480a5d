/** Run the generated project's tests (npm install once, then npm test; logged) and download it. */
import { portalApi, type Session } from '../../api/portal-client';
import { ErrorMessage } from '../../components/query-state';
import type { Log } from '../generation/use-log';
import { useOperation } from '../generation/use-operation';
import { useDownload } from './use-workspace';

export function WorkspaceActions({ session, ready, log }: { session: Session | undefined; ready: boolean; log: Log }) {
  const tests = useOperation('tests', session, portalApi.startTests, log);
  const download = useDownload(session);
  return (
    <>
      <button type="button" disabled={!ready || tests.isPending} onClick={() => tests.mutate()}>
        {tests.isPending ? 'Running tests…' : 'Run tests'}
      </button>
      <button type="button" disabled={!ready || download.isPending} onClick={() => download.mutate()}>
        Download zip
      </button>
      {download.error && <ErrorMessage error={download.error} what="download the project" />}
    </>
  );
}
