/** Loading, empty and error states; API errors show their status and message. */
import { isApiError } from '../api/client';

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: React.ReactNode }) {
  return <p className="empty">{children}</p>;
}

const HINTS: Record<number, string> = {
  400: 'The request was refused',
  404: 'Not found in this tenant',
  409: 'Conflict',
  413: 'Too large',
  503: 'Not available on this server',
};

export function describeError(error: unknown): string {
  if (isApiError(error)) return `${HINTS[error.status] ?? `HTTP ${error.status}`} (${error.status}): ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

export function ErrorMessage({ error, id }: { error: unknown; id?: string }) {
  if (!error) return null;
  return (
    <p className="error" role="alert" id={id}>
      {describeError(error)}
    </p>
  );
}
