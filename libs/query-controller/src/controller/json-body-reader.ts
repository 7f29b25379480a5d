/**
 * Reads a JSON request body straight from node:http, with the same outcomes as `express.json()`
 * (body-parser 2, strict mode) for the requests the fast path takes on: an empty body is `{}`,
 * only an object or array is accepted at the top level, a UTF-8 byte order mark is dropped, a
 * body over the limit is drained and answered 413 FW413, anything unparsable 400 FW400.
 */
import { type FwError, malformedJsonError, payloadTooLargeError } from '@fw/core';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

const UNITS: Readonly<Record<string, number>> = {
  b: 1,
  kb: 1024,
  mb: 1024 ** 2,
  gb: 1024 ** 3,
  tb: 1024 ** 4,
  pb: 1024 ** 5,
};
const LIMIT_TEXT = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb|tb|pb)?$/i;

/**
 * A body limit in bytes: a number, or text like `express.json`'s `limit` (`'1mb'`, `'100kb'`,
 * `'2048'`; units are powers of 1024, as in the `bytes` package body-parser uses).
 *
 * @throws Error on anything else, so a bad setting fails at startup.
 */
export function parseBodyLimit(limit: number | string): number {
  if (typeof limit === 'number') {
    if (!Number.isFinite(limit) || limit < 0) throw new Error(`body limit ${limit} is not a byte count`);
    return Math.floor(limit);
  }
  const match = LIMIT_TEXT.exec(limit.trim());
  if (!match) throw new Error(`body limit '${limit}' is not a size such as '1mb' or '100kb'`);
  return Math.floor(Number(match[1]) * UNITS[(match[2] ?? 'b').toLowerCase()]);
}

/** `application/json`, alone or with `charset=utf-8`: the only types this reader takes on. */
const PLAIN_JSON = /^application\/json\s*(?:;\s*charset\s*=\s*(?:utf-8|"utf-8")\s*)?$/i;

/**
 * Whether the reader handles a request exactly like `express.json()` plus the controller's 415
 * check would: a UTF-8 JSON content type, no content coding, and a body announced by
 * Content-Length or Transfer-Encoding (without either, express answers 415). Anything else is
 * left to express, so its rarer paths (other charsets, gzip bodies…) keep their own answers.
 */
export function isPlainJsonRequest(headers: IncomingHttpHeaders): boolean {
  const type = headers['content-type'];
  if (type === undefined || !PLAIN_JSON.test(type)) return false;
  const coding = headers['content-encoding'];
  if (coding !== undefined && coding.toLowerCase() !== 'identity') return false;
  const length = headers['content-length'];
  return (
    headers['transfer-encoding'] !== undefined ||
    (length !== undefined && length !== '' && !Number.isNaN(Number(length)))
  );
}

const WHITESPACE = /^[ \t\n\r]*([^ \t\n\r]|$)/;

/** body-parser's strict JSON parse. */
export function parseJsonText(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.length === 0) return {};
  const first = body[0] === '{' || body[0] === '[' ? body[0] : WHITESPACE.exec(body)?.[1];
  if (first !== '{' && first !== '[') throw malformedJsonError();
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw malformedJsonError();
  }
}

/**
 * Reads and parses the body, then calls `done` once with the value or the FwError to answer.
 * A body over `limit` bytes is read off to the end before `done` (like body-parser), so the
 * keep-alive connection stays usable. A request aborted by the client never calls `done`.
 */
export function readJsonBody(
  req: IncomingMessage,
  limit: number,
  done: (error: FwError | undefined, body: unknown) => void,
): void {
  const declared = Number(req.headers['content-length']);
  let tooLarge = declared > limit;
  let received = 0;
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  req.on('data', (chunk: Buffer) => {
    if (tooLarge) return;
    received += chunk.length;
    if (received > limit) {
      tooLarge = true;
      first = undefined;
      more = undefined;
    } else if (first === undefined) first = chunk;
    else (more ??= [first]).push(chunk);
  });
  req.on('end', () => {
    if (tooLarge) {
      done(payloadTooLargeError(), undefined);
      return;
    }
    const bytes = more ? Buffer.concat(more, received) : first;
    let body: unknown;
    try {
      body = parseJsonText(bytes ? bytes.toString('utf8') : '');
    } catch (err) {
      done(err as FwError, undefined);
      return;
    }
    done(undefined, body);
  });
  // An aborted upload: node closes the socket; nothing is left to answer.
  req.on('error', () => undefined);
}
