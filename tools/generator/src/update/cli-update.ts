/**
 * `fw-gen update [DIR]` and `fw-gen update --check [DIR]` on the command line. The configuration
 * recorded in the project is used unless `-c FILE` names another one.
 */
import type { CliEnv } from '../cli/cli-env';
import {
  checkProject,
  conflictAdvice,
  conflictCount,
  formatCheckReport,
  formatUpdateReport,
  updateProject,
} from './update';

/** @returns 0 up to date / updated cleanly; 1 conflicts left, or (--check) drift. */
export async function runUpdate(env: CliEnv, projectDir: string, check: boolean): Promise<number> {
  const options = {
    catalog: env.catalog,
    projectDir,
    config: env.args.config !== undefined ? env.config : undefined,
    force: env.args.force,
    dryRun: env.args.dryRun,
    progress: env.io.out,
  };
  if (check) {
    const report = await checkProject(options);
    formatCheckReport(report).forEach(env.io.out);
    return report.drift.length > 0 ? 1 : 0;
  }
  const report = await updateProject(options);
  formatUpdateReport(report, env.args.dryRun).forEach(env.io.out);
  if (conflictCount(report) > 0) {
    env.io.err(`fw-gen: ${conflictAdvice(report)}`);
    return 1;
  }
  return 0;
}
