/**
 * How errors become framework errors for an HTTP answer, without express: shared by the express
 * middleware of `@fw/core/http` and by handlers that answer on plain node:http.
 */
import { CoreErrorCodes, FwError, isFwError } from '../errors/fw-error';
import type { Logger } from '../logging/logger';

interface HttpParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

/** 400 FW400: the request body is not valid JSON (what a failed `express.json()` parse becomes). */
export function malformedJsonError(): FwError {
  return new FwError({
    code: 400,
    subErrorCode: CoreErrorCodes.malformedJson,
    description: 'The request body is not valid JSON',
  });
}

/** 413 FW413: the request body is over the size limit. */
export function payloadTooLargeError(): FwError {
  return new FwError({
    code: 413,
    subErrorCode: CoreErrorCodes.payloadTooLarge,
    description: 'The request body is too large',
  });
}

/** Maps body-parser failures (bad JSON, too large, bad charset) to framework errors. */
function fromParserError(err: HttpParserError): FwError | undefined {
  if (typeof err.status !== 'number' || err.status >= 500 || err.expose !== true) return undefined;
  if (err.type === 'entity.parse.failed') return malformedJsonError();
  if (err.type === 'entity.too.large') return payloadTooLargeError();
  return new FwError({
    code: err.status,
    subErrorCode: CoreErrorCodes.malformedJson,
    description: 'The request body could not be read',
  });
}

/**
 * The FwError a failed request answers with, logged like {@link makeErrorMiddleware} logs it:
 * exposed `FwError`s keep their status and code (5xx ones are logged); body-parser failures map
 * to FW400/FW413; anything else (an FwError that is not exposed too) is logged and becomes a
 * generic 500. Handlers that answer without
 * express use it so their error bodies and log lines stay the same as the middleware's.
 *
 * @example
 * const error = toFwError(err, logger, { path: '/q/books', method: 'POST' });
 * res.writeHead(error.code, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(errorEnvelope(error)));
 */
/**
 * SQLSTATEs of values the database refuses because of what the request carried: an untranslatable
 * character (22P05, e.g. U+0000 in jsonb), a byte sequence invalid in the encoding (22021), a value
 * too long for its column (22001), a text that is no value of its type (22P02).
 */
const INPUT_SQLSTATES = new Set(['22P05', '22021', '22001', '22P02']);

/**
 * 400 FW400V for a database error caused by a value of the request (the details go to the log
 * only); undefined for any other error. Code that wraps database errors in its own (a query's
 * Q721) asks this first, so the input policy holds there too.
 */
export function databaseInputError(err: unknown): FwError | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, severity } = err as { code?: unknown; severity?: unknown };
  if (typeof code !== 'string' || !INPUT_SQLSTATES.has(code) || typeof severity !== 'string') return undefined;
  return new FwError({
    code: 400,
    subErrorCode: CoreErrorCodes.invalidValue,
    description:
      'A value of the request cannot be stored (a character the database does not accept, text that is too long, or not a value of its type)',
    params: [code],
  });
}

export function toFwError(err: unknown, logger: Logger, request: { path: string; method: string }): FwError {
  if (isFwError(err) && err.expose) {
    if (err.code >= 500) logger.error({ err, path: request.path, cause: err.cause }, err.description);
    return err;
  }
  const parsed =
    typeof err === 'object' && err !== null && !isFwError(err) ? fromParserError(err as HttpParserError) : undefined;
  if (parsed) return parsed;
  // The last line of defence of the input policy: never a 500 for a value the client sent.
  const refused = databaseInputError(err);
  if (refused) {
    logger.warn({ err, path: request.path, method: request.method }, 'the database refused a value of the request');
    return refused;
  }
  logger.error({ err, path: request.path, method: request.method }, 'unexpected error while handling request');
  return new FwError({ code: 500, subErrorCode: CoreErrorCodes.internal, description: 'Internal server error' });
}
