/**
 * The answers' TypeScript types are read from their JSON Schemas: these checks fail at
 * `npm run typecheck` when the derivation stops matching what the schemas say (a required field
 * turning optional, null lost from a nullable field, an enum widened to string).
 */
import type { TriggerExecution } from '@fw/trigger';
import { TRIGGER_WIRE_SCHEMAS, WIRE_UUID_PATTERN } from '@fw/trigger';
import { UUID_PATTERN } from '@fw/process-service';
import type { CallerWire, CrontabWire, ExecutionRecord, ProcessDefWire, TraceNodeWire, WireShape } from '../src';
import { ADMIN_API_SCHEMAS } from '../src';

/** True when A and B are the same type (not merely assignable one way). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const crontabIsExact: Same<
  CrontabWire,
  {
    id: string;
    tenant: string;
    name: string;
    cronExpression: string;
    timezone: string;
    enabled: boolean;
    payload: { processDefName: string; args?: Record<string, unknown>; description?: string };
    createdAt: string;
    updatedAt: string;
    lastFiredAt: string | null;
    lastScheduledTime: string | null;
  }
> = true;
const callerRoleIsNullableEnum: Same<CallerWire['role'], 'viewer' | 'operator' | 'admin' | null> = true;
const optionalDefinitionFields: Same<ProcessDefWire['priority'], number | undefined> = true;
const estimatedTotal: Same<WireShape<'ProcessPage'>['totalElementsEstimated'], true | undefined> = true;
const traceKinds: Same<TraceNodeWire['kind'], 'TRIGGER' | 'PROCESS' | 'COMPLETION'> = true;
// The trigger layer's record is the port's record: the same schema, plus the stored stack.
const executionRecord: Same<Omit<TriggerExecution, 'failureStack'>, Omit<ExecutionRecord, 'failureStack'>> = true;

describe('wire types derived from the answer schemas', () => {
  it('hold (checked by the compiler)', () => {
    expect([
      crontabIsExact,
      callerRoleIsNullableEnum,
      optionalDefinitionFields,
      estimatedTotal,
      traceKinds,
      executionRecord,
    ]).toEqual([true, true, true, true, true, true]);
  });

  it('publish the trigger layer’s schemas unchanged in the OpenAPI components', () => {
    for (const [name, schema] of Object.entries(TRIGGER_WIRE_SCHEMAS)) expect(ADMIN_API_SCHEMAS[name]).toBe(schema);
  });

  it('check ids with the same UUID pattern as the rest of the API', () => {
    expect(WIRE_UUID_PATTERN).toBe(UUID_PATTERN);
  });
});
