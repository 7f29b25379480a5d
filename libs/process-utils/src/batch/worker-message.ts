/**
 * Reads a worker message (a WorkerDto object, or its JSON text as a queue would carry it) without
 * trusting it: the batch service must report a failure for every message it can attribute to a
 * process, and can only refuse the ones it cannot.
 */
import { WorkerType, type SubProcessResult, type WorkerDto } from '@fw/process-api';
import { WorkerFailureKinds, type WorkerFailure } from '../errors/worker-failure';

/** A message read as far as it could be. */
export type ReadMessage =
  | { ok: true; worker: WorkerDto }
  /** Attributable: the failure is reported to `processId` with the error event of `workerType`. */
  | { ok: false; processId: string; workerType: WorkerType; tenant: string | null; failure: WorkerFailure }
  /** Not attributable to a process (no process id or no worker type): nothing can be reported. */
  | { ok: false; processId?: string; workerType?: undefined; tenant: string | null; failure: WorkerFailure };

const WORKER_TYPES: readonly string[] = Object.values(WorkerType);

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function isResultList(value: unknown): value is SubProcessResult[] {
  return (
    Array.isArray(value) &&
    value.every(
      (r) => typeof r === 'object' && r !== null && typeof (r as { processId?: unknown }).processId === 'string',
    )
  );
}

/** The message as an object with the fields a failure report needs, or why it cannot be reported. */
type Envelope =
  | { ok: true; m: Record<string, unknown>; processId: string; workerType: WorkerType; tenant: string | null }
  | { ok: false; read: ReadMessage };

/** Parses the message and reads the process id, worker type and tenant a failure is reported with. */
function readEnvelope(message: unknown): Envelope {
  let raw = message;
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw) as unknown;
    } catch (err) {
      return {
        ok: false,
        read: {
          ok: false,
          tenant: null,
          failure: {
            kind: WorkerFailureKinds.malformedPayload,
            message: 'worker message is not valid JSON',
            cause: err,
          },
        },
      };
    }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return {
      ok: false,
      read: {
        ok: false,
        tenant: null,
        failure: { kind: WorkerFailureKinds.malformedPayload, message: 'worker message must be a JSON object' },
      },
    };
  }
  const m = raw as Record<string, unknown>;
  const processId = str(m.processId) ?? undefined;
  const tenant = str(m.tenant);
  const workerType =
    typeof m.workerType === 'string' && WORKER_TYPES.includes(m.workerType) ? (m.workerType as WorkerType) : undefined;
  if (processId === undefined) {
    return {
      ok: false,
      read: {
        ok: false,
        tenant,
        failure: {
          kind: WorkerFailureKinds.malformedPayload,
          message: "worker message has no 'processId'",
          field: 'processId',
        },
      },
    };
  }
  if (workerType === undefined) {
    return {
      ok: false,
      read: {
        ok: false,
        processId,
        tenant,
        failure: {
          kind: WorkerFailureKinds.missingPayloadType,
          message: `worker message has no valid 'workerType' (got ${JSON.stringify(m.workerType)})`,
          field: 'workerType',
        },
      },
    };
  }
  return { ok: true, m, processId, workerType, tenant };
}

/** Parses and checks the envelope fields of a worker message; the input itself is checked by the worker. */
export function readWorkerMessage(message: unknown): ReadMessage {
  const envelope = readEnvelope(message);
  if (!envelope.ok) return envelope.read;
  const { m, processId, workerType, tenant } = envelope;
  const fail = (kind: WorkerFailure['kind'], message: string, field: string): ReadMessage => ({
    ok: false,
    processId,
    workerType,
    tenant,
    failure: { kind, message, field },
  });
  const processType = str(m.processType);
  if (processType === null)
    return fail(WorkerFailureKinds.missingPayloadType, "worker message has no 'processType'", 'processType');
  if (m.config !== undefined && m.config !== null && (typeof m.config !== 'object' || Array.isArray(m.config))) {
    return fail(WorkerFailureKinds.incompatibleFieldType, "'config' must be an object of strings", 'config');
  }
  const config: Record<string, string> = {};
  for (const [key, value] of Object.entries((m.config as Record<string, unknown> | null | undefined) ?? {})) {
    if (typeof value !== 'string')
      return fail(WorkerFailureKinds.incompatibleFieldType, `'config.${key}' must be a string`, `config.${key}`);
    config[key] = value;
  }
  if (m.subProcessResults !== undefined && m.subProcessResults !== null && !isResultList(m.subProcessResults)) {
    return fail(
      WorkerFailureKinds.incompatibleFieldType,
      "'subProcessResults' must be a list of child results",
      'subProcessResults',
    );
  }
  const worker: WorkerDto = {
    processId,
    processType,
    workerType,
    tenant,
    triggerId: str(m.triggerId),
    parentId: str(m.parentId),
    input: m.input === undefined ? null : m.input,
    config,
  };
  if (isResultList(m.subProcessResults)) worker.subProcessResults = m.subProcessResults;
  return { ok: true, worker };
}
