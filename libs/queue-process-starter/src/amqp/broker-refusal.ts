/**
 * A refusal that retrying will not cure: wrong credentials (403 ACCESS_REFUSED), a queue declared
 * with other arguments (406 PRECONDITION_FAILED), a queue that does not exist and is not to be
 * declared (404 NOT_FOUND). Anything else (connection refused or reset, 541 INTERNAL_ERROR while a
 * broker starts, a timeout) may pass, and is retried.
 */
export function isLastingRefusal(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === 403 || code === 404 || code === 406) return true;
  return typeof message === 'string' && /ACCESS[-_]REFUSED|PRECONDITION[-_]FAILED|NOT[-_]FOUND|\b403\b/.test(message);
}
