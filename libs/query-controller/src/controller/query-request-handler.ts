import { assertNoControlCharacters, errorEnvelope, type FwError, TENANT_HEADER, toFwError } from '@fw/core';
import { type SearchAnswer, type SearchContext, serializeSearchResponse } from '@fw/query-core';
import express, { type Request } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isPlainJsonRequest, parseBodyLimit, readJsonBody } from './json-body-reader';
import type { QueryAuthorizer, QueryRequestHandler, QueryRequestHandlerOptions } from './query-controller-types';
import { timeQuery } from './query-timing';
import { callerFromAuthorization, sendAnswer, wantsNdjson, writeNdjson } from './streamed-answer';

/**
 * `/q/<name>` with a name express would hand over undecoded (no `%`, no further `/`), and an
 * optional query string. Other spellings (`/Q/...`, a trailing `/`, encoded names) go to express,
 * whose router decides them.
 */
const SEARCH_PATH = /^\/q\/([A-Za-z0-9_.~-]+)(?:\?|$)/;

/** The tenant header as the router reads it: trimmed, empty counts as absent. */
function tenantOf(req: IncomingMessage): string | undefined {
  const raw = req.headers[TENANT_HEADER];
  if (typeof raw !== 'string') return undefined;
  const trimmed = raw.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Writes JSON text with the headers express's `res.status(code).json(value)` sends. */
function sendJson(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/**
 * Gives an authorizer the express `Request` it is written against: node's request with the
 * app's request prototype (`req.header()`, `req.query`, `req.ip`…), `params` and `body`. Only done
 * when an authorizer is called, so searches without one never pay for it.
 */
function expressRequestOf(
  req: IncomingMessage,
  res: ServerResponse,
  prototype: object,
  queryName: string,
  body: unknown,
): Request {
  if (typeof (req as Partial<Request>).header !== 'function') Object.setPrototypeOf(req, prototype);
  return Object.assign(req, { params: { queryName }, body, res }) as unknown as Request;
}

/**
 * `POST /q/{queryName}` on plain node:http, for hosts where the express stack (request/response
 * setup, router walk, body-parser, AsyncLocalStorage tenant context) is a large share of a search's
 * cost. It reads the JSON body itself, takes the tenant from `x-fw-tenant-id` and passes it to the
 * service explicitly, and writes the envelope in one piece of text (the definition's column
 * metadata serialized once, not per search). Status codes and bodies,
 * errors included, are those of {@link makeQueryRouter} behind `express.json()` and
 * `makeErrorMiddleware`.
 *
 * Requests it does not take on — another method or path, `GET /q…`, a content type other than
 * UTF-8 `application/json`, a compressed body, no body at all — go to `next()` untouched, so mount
 * it in front of an express app that has the router and the error middleware:
 *
 * Unlike the router it does not log a missing authorizer: a host mounts the router too (for the
 * GET routes), which logs that once.
 *
 * @example
 * const fast = makeQueryRequestHandler({ queryService, logger });
 * const server = http.createServer((req, res) => fast(req, res, () => app(req, res)));
 */
export function makeQueryRequestHandler(options: QueryRequestHandlerOptions): QueryRequestHandler {
  const { queryService, authorizer, logger } = options;
  const limit = parseBodyLimit(options.bodyLimit ?? '1mb');
  let prototype: object | undefined;
  const requestPrototype = (): object => (prototype ??= (options.app ?? express()).request);

  const callerOf = options.callerIdentity ?? callerFromAuthorization;
  const contextOf = (
    req: IncomingMessage,
    res: ServerResponse,
    queryName: string,
    body: unknown,
    allow: QueryAuthorizer | undefined,
  ): SearchContext => {
    const context: SearchContext = { tenantId: tenantOf(req) };
    if (allow)
      context.authorize = (acls) => allow(expressRequestOf(req, res, requestPrototype(), queryName, body), acls);
    return context;
  };
  const answer = async (
    req: IncomingMessage,
    res: ServerResponse,
    queryName: string,
    body: unknown,
  ): Promise<SearchAnswer> => {
    const context = contextOf(req, res, queryName, body, authorizer);
    if (queryService.answer) return queryService.answer(queryName, body, { ...context, callerId: callerOf(req) });
    return { json: serializeSearchResponse(await queryService.search(queryName, body, context)), cached: false };
  };

  /** The answer, or the rows as NDJSON when asked for and the service streams; resolves once written. */
  const search = async (req: IncomingMessage, res: ServerResponse, queryName: string, body: unknown): Promise<void> => {
    const stream = queryService.stream;
    if (stream && wantsNdjson(req)) {
      await writeNdjson(
        req,
        res,
        await stream(queryName, body, contextOf(req, res, queryName, body, authorizer)),
        logger,
      );
      return;
    }
    sendAnswer(req, res, await answer(req, res, queryName, body));
  };

  const fail = (req: IncomingMessage, res: ServerResponse, err: unknown) => {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const error: FwError = toFwError(err, logger, {
      path: query === -1 ? url : url.slice(0, query),
      method: req.method ?? 'POST',
    });
    sendJson(res, error.code, JSON.stringify(errorEnvelope(error)));
  };

  return (req, res, next) => {
    const match = req.method === 'POST' ? SEARCH_PATH.exec(req.url ?? '') : null;
    if (!match || !isPlainJsonRequest(req.headers)) {
      next();
      return;
    }
    const queryName = match[1];
    readJsonBody(req, limit, (error, body) => {
      if (error) {
        fail(req, res, error);
        return;
      }
      // The input policy of every fw entry point (no control characters), as on the express path.
      try {
        assertNoControlCharacters(body);
      } catch (refused) {
        fail(req, res, refused);
        return;
      }
      timeQuery(options.metrics, { tenant: tenantOf(req), query: queryName }, () =>
        search(req, res, queryName, body),
      ).catch((err: unknown) => fail(req, res, err));
    });
  };
}
