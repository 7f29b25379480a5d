/**
 * What a call carries besides its input, from the binding (HTTP, in-process, MCP) through the
 * interceptors to the handler.
 */
import type { Logger } from '@fw/core';

/** What a handler and an interceptor know about the call besides its input. */
export interface CallContext {
  readonly service: string;
  readonly operation: string;
  /** Tenant of the call (`x-fw-tenant-id`), if any. */
  readonly tenant: string | undefined;
  /** Request headers, lower-cased (empty for in-process calls unless given). */
  readonly headers: Readonly<Record<string, string>>;
  /** Who calls, as set by a security interceptor (`ctx.principal = …`); undefined until then. */
  principal: Principal | undefined;
  /** Values interceptors pass on to later ones and to the handler. */
  readonly attributes: Map<string, unknown>;
  readonly logger: Logger;
}

/** An authenticated caller. */
export interface Principal {
  id: string;
  roles?: readonly string[];
  [claim: string]: unknown;
}
