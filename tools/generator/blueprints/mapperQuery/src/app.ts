// The HTTP face: the query controller of @fw/query-controller (POST /q/<name>, GET /q,
// GET /q/<name>) with the framework's JSON body rules and error envelopes{{#security}}, behind a
// bearer JWT check{{/security}}.
import type { Logger } from '@fw/core';
import { makeErrorMiddleware, makeNotFoundHandler } from '@fw/core/http';
import type { QueryService } from '@fw/query-core';
import { makeQueryRouter, type QueryAuthorizer } from '@fw/query-controller';
import express, { type Express } from 'express';
{{#security}}
import { makeBearerAuth, rolesOf, type BearerAuthOptions } from './bearer-auth';
{{/security}}

export interface QueryAppOptions {
  queryService: QueryService;
  logger: Logger;
{{#security}}
  /** How tokens are checked (secret, optional issuer and audience). */
  auth: BearerAuthOptions;
{{/security}}
}

{{#security}}
/** A query's acls are roles: the caller needs one of them in the token's `roles` claim. */
const authorizer: QueryAuthorizer = (req, acls) => acls.length === 0 || rolesOf(req).some((role) => acls.includes(role));
{{/security}}
{{^security}}
/** Without authentication nobody has a role, so a query that declares acls is refused (403). */
const authorizer: QueryAuthorizer = (_req, acls) => acls.length === 0;
{{/security}}

export function makeQueryApp(options: QueryAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
{{#security}}
  app.use('/q', makeBearerAuth(options.auth));
{{/security}}
  app.use(express.json({ limit: '1mb' }));
  app.use(makeQueryRouter({ queryService: options.queryService, logger: options.logger, authorizer }));
  app.use(makeNotFoundHandler(), makeErrorMiddleware(options.logger));
  return app;
}
