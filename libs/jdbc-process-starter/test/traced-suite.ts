/**
 * The set-up of a suite that traces a fan-out in this test process: a test database, a local
 * OTLP/JSON receiver, the `OTEL_*` environment pointed at it (and `env` on top), and the SDK
 * started as a host starts it; all of it undone after the suite, the environment restored.
 */
import { startTelemetry, type Telemetry } from '@fw/telemetry-node';
import {
  createTestDatabase,
  startOtlpReceiver,
  type DatabaseTarget,
  type OtlpReceiver,
  type TestDatabase,
} from '@fw/test-support';

export interface TracedSuite {
  readonly testDb: TestDatabase;
  readonly receiver: OtlpReceiver;
  readonly telemetry: Telemetry;
}

/** Registers the suite's `beforeAll` / `afterAll`; read the parts inside the tests. */
export function useTracedSuite(target: DatabaseTarget, serviceName: string, env: Record<string, string>): TracedSuite {
  const parts: Partial<{ -readonly [K in keyof TracedSuite]: TracedSuite[K] }> = {};
  const saved = { ...process.env };
  beforeAll(async () => {
    parts.testDb = await createTestDatabase(target);
    parts.receiver = await startOtlpReceiver();
    Object.assign(process.env, {
      OTEL_EXPORTER_OTLP_ENDPOINT: parts.receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      ...env,
    });
    parts.telemetry = await startTelemetry({ serviceName });
  }, 120_000);
  afterAll(async () => {
    await parts.telemetry?.shutdown();
    process.env = saved;
    await parts.receiver?.close();
    await parts.testDb?.dispose();
  }, 60_000);
  const part = <K extends keyof TracedSuite>(key: K): TracedSuite[K] => {
    const value = parts[key];
    if (value === undefined) throw new Error(`traced suite: ${key} is not ready (its beforeAll failed)`);
    return value as TracedSuite[K];
  };
  return {
    get testDb() {
      return part('testDb');
    },
    get receiver() {
      return part('receiver');
    },
    get telemetry() {
      return part('telemetry');
    },
  };
}
