export { makeInVmProcessStarter } from './starter/invm-process-starter';
export type {
  InVmProcessStarter,
  InVmProcessStarterOptions,
  InVmStarterStats,
  WorkerDispatcher,
} from './starter/invm-process-starter';
