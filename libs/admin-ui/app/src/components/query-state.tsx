/** Loading and error states shared by the views: one look, one wording. */
import type { InfoApiError } from '../api/info-client';

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}

export function ErrorMessage({ error, what }: { error: InfoApiError; what: string }) {
  if (error.needsInfoKey) {
    return (
      <p className="error" role="alert">
        {what}: this host asks for an info key (see the prompt above).
      </p>
    );
  }
  return (
    <p className="error" role="alert">
      Could not read {what}: {error.message}
      {error.status > 0 ? ` (HTTP ${error.status})` : ''}
    </p>
  );
}
