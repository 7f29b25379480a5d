import type { RequestHandler } from 'express';
import { assertNoControlCharacters } from './input-policy';

/**
 * Express middleware of the input policy (see `input-policy.ts`): mount it after the JSON body
 * parser; a request whose body or query carries a control character goes to the error handler
 * as 400 `FW400C` naming the field.
 */
export function rejectControlCharacters(): RequestHandler {
  return (req, _res, next) => {
    try {
      assertNoControlCharacters(req.body, req.query as Record<string, unknown>);
      next();
    } catch (err) {
      next(err);
    }
  };
}
