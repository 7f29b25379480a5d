// Where {{service}} records live. The service talks to this interface only, so the store can be
// swapped (database, memory, a test double) without touching the operations. Every call is scoped
// to a tenant: one tenant never reads or changes another's records.
import type { Create{{servicePascal}}Request, {{servicePascal}}Entity } from '{{scope}}/{{serviceKebab}}-api';

/** What op1 did: nothing (no such record), nothing (the quantity would go negative), or the change. */
export type AdjustOutcome =
  | { kind: 'absent' }
  | { kind: 'refused'; quantity: number }
  | { kind: 'adjusted'; previousQuantity: number; quantity: number };

export interface {{servicePascal}}Repository {
  /** Stores a new record under a fresh id and returns it. */
  create(tenant: string, request: Create{{servicePascal}}Request): Promise<{{servicePascal}}Entity>;
  get(tenant: string, id: string): Promise<{{servicePascal}}Entity | undefined>;
  /** Adds `delta` to the quantity in one step (no lost update between two callers). */
  adjust(tenant: string, id: string, delta: number): Promise<AdjustOutcome>;
  /** For /health-check/{{serviceKebab}}: can the store be reached? */
  ping(): Promise<void>;
  close(): Promise<void>;
}
