/** Options of the process manager's calls, apart so its parts can name them without importing the manager. */

export interface ProcessCallOptions {
  /**
   * Tenant of the call. Create: stored as the process tenant. Other calls: a process of another
   * tenant answers 404. Default: the current request context's tenant (`x-fw-tenant-id`).
   */
  tenant?: string | null;
}

export interface CreateProcessOptions extends ProcessCallOptions {
  /** Used when the dto has no `triggerId` (for example header `x-fw-trigger-id`). */
  triggerId?: string | null;
  /**
   * Refuse a type that is only a child (`parentProcessType`) with 400 P009. The HTTP entry points
   * (`POST /process`, the administration API's triggers and crontabs) set it; in-process callers
   * (tests, tools running one step of a tree) may still create such a process on its own.
   */
  refuseChildOnlyTypes?: boolean;
}
