/** Loading and error states shared by the features: one look, one wording. */
import type { PortalApiError } from '../api/portal-client';

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}

export function ErrorMessage({ error, what }: { error: PortalApiError | Error; what: string }) {
  const status = 'status' in error ? error.status : 0;
  return (
    <p className="error" role="alert">
      {status === 401
        ? `${what}: the session has expired (30 minutes without use); reload the page to start a new one.`
        : `Could not ${what}: ${error.message}${status > 0 ? ` (HTTP ${status})` : ''}`}
    </p>
  );
}
