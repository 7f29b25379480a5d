/**
 * The HTTP forms of a search answer besides plain JSON: an NDJSON stream of rows, and the
 * conditional (ETag / If-None-Match) answer of a query whose answers are cached. Shared by the
 * express router and the node:http fast path, so both answer byte for byte alike.
 */
import { errorEnvelope, type Logger, toFwError } from '@fw/core';
import type { SearchAnswer, SearchStream } from '@fw/query-core';
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The media type of a streamed answer: one JSON document per line. */
export const NDJSON_TYPE = 'application/x-ndjson';

/** True when the request asks for the rows as a stream (`Accept: application/x-ndjson`). */
export function wantsNdjson(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  return typeof accept === 'string' && accept.toLowerCase().includes(NDJSON_TYPE);
}

/**
 * The default caller identity for the answer cache: a digest of the `Authorization` header, so
 * two credentials never share a cached answer (none: every anonymous caller is one caller).
 */
export function callerFromAuthorization(req: IncomingMessage): string | undefined {
  const authorization = req.headers.authorization;
  return authorization ? createHash('sha256').update(authorization).digest('base64url') : undefined;
}

/** True when `If-None-Match` names `etag` (or is `*`); weak tags compare by their opaque part. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/**
 * Writes a search answer: the envelope around its JSON text, with `ETag` and `Cache-Control`
 * when the query caches its answers; `304 Not Modified` (no body) when `If-None-Match` already
 * names that tag.
 */
export function sendAnswer(req: IncomingMessage, res: ServerResponse, answer: SearchAnswer): void {
  if (res.headersSent) return;
  const headers: Record<string, string | number> = {};
  if (answer.etag) {
    headers.ETag = answer.etag;
    headers['Cache-Control'] = `private, max-age=${answer.maxAgeSeconds ?? 0}`;
    if (matches(req.headers['if-none-match'], answer.etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
  }
  const text = `{"success":true,"code":200,"payload":${answer.json}}`;
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Resolves when the response can take more (`drain`) or is gone (`close`). */
function writable(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Streams the rows as NDJSON: one row object per line, then `{"_summary":{"rows":n,"truncated":b}}`.
 * A batch is read from the database only once the previous one is written out (backpressure);
 * a client that goes away closes the stream, which cancels the running statement and frees the
 * connection. A failure after the first line ends the stream with one
 * `{"_error":{…envelope…}}` line instead of the summary.
 */
export async function writeNdjson(
  req: IncomingMessage,
  res: ServerResponse,
  stream: SearchStream,
  logger: Logger,
): Promise<void> {
  let gone = false;
  const onClose = () => {
    if (res.writableFinished) return;
    gone = true;
    void stream.close();
  };
  res.on('close', onClose);
  res.writeHead(200, {
    'Content-Type': `${NDJSON_TYPE}; charset=utf-8`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  try {
    for (let batch = await stream.next(); batch && !gone; batch = await stream.next()) {
      let text = '';
      for (const row of batch) text += `${JSON.stringify(row)}\n`;
      if (!res.write(text) && !gone) await writable(res);
    }
    if (!gone) res.end(`${JSON.stringify({ _summary: stream.summary() })}\n`);
  } catch (err) {
    if (!gone) {
      const url = req.url ?? '';
      const error = toFwError(err, logger, { path: url.split('?')[0], method: req.method ?? 'POST' });
      res.end(`${JSON.stringify({ _error: errorEnvelope(error) })}\n`);
    }
  } finally {
    res.off('close', onClose);
    await stream.close();
  }
}
