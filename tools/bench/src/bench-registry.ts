import type { BenchRunner } from './bench-types';
import { engineBenchRunner } from './engine-bench';
import { fanoutBench } from './fanout-bench';
import { fairnessBench } from './fairness/fairness-bench';
import { graphileBench } from './graphile/graphile-fanout-bench';
import { historyBench } from './history/history-bench';
import { queryBench } from './query/query-bench';
import { queryScaleBench } from './query-scale/query-scale-bench';
import { startupBench } from './startup/startup-bench';
import { serviceBench } from './service/service-bench';
import { adminUiBench } from './admin-ui/admin-ui-bench';
import { dashboardBench } from './dashboard/dashboard-bench';
import { generatorBench } from './generator/generator-bench';
import { bullmqBench, bullmqPostgresBench } from './bullmq/bullmq-flow-bench';
import { pgBossBench } from './pgboss/pgboss-flow-bench';
import { compareBench } from './compare/compare-bench';
import { telemetryBench } from './telemetry/telemetry-bench';

/**
 * Every benchmark of `npm run bench -- <name>`. Later ones (`engine`, `fanout`) are added here
 * with their own folder under src/.
 */
export const BENCHMARKS: Readonly<Record<string, BenchRunner>> = {
  query: queryBench,
  'query-scale': queryScaleBench,
  engine: engineBenchRunner,
  fanout: fanoutBench,
  fairness: fairnessBench,
  graphile: graphileBench,
  history: historyBench,
  bullmq: bullmqBench,
  'bullmq-pg': bullmqPostgresBench,
  pgboss: pgBossBench,
  compare: compareBench,
  telemetry: telemetryBench,
  startup: startupBench,
  service: serviceBench,
  'admin-ui': adminUiBench,
  dashboard: dashboardBench,
  generator: generatorBench,
};
