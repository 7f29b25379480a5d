/**
 * `fw-check-mappers`: checks a folder of MyBatis mapper XML before a migration, without a host,
 * a config or a database. Prints one line per statement and a summary; exit status 0 when every
 * statement loads, 1 when any does not, 2 for a usage error (nothing to check).
 */
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { everythingLoads, reportLines, summaryLine } from './check-report';
import { checkMapperFiles } from './mapper-check';
import { MapperFilesError, findMapperFiles } from './mapper-files';

export const CHECK_MAPPERS_USAGE = `usage: fw-check-mappers [--problems] <folder | file | 'glob'>...

  Loads every mapper XML file under the folders (recursively), the files and the quoted glob
  patterns given (e.g. 'mappers/**/*.xml'), as the named query service would, and prints one
  line per statement: file:line: element namespace.id: loads | refused by design: why |
  unsupported: why | invalid: why. Exit status: 0 when every statement loads, 1 when any does
  not, 2 for a usage error.

  --problems  print only the statements (and files) that do not load; the summary counts all
  --help      this text`;

/** Where the command writes; the real process passes console.log and console.error. */
export interface CheckMappersOutput {
  out(line: string): void;
  error(line: string): void;
}

/** `file` relative to `cwd` when it lies under it, so lines are short and clickable. */
function displayName(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

/**
 * Runs the command.
 *
 * @returns the exit status.
 * @example
 * process.exitCode = await checkMappersMain(['mappers'], { out: console.log, error: console.error });
 */
export async function checkMappersMain(
  argv: readonly string[],
  output: CheckMappersOutput,
  cwd = process.cwd(),
): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    output.out(CHECK_MAPPERS_USAGE);
    return 0;
  }
  const onlyProblems = argv.includes('--problems');
  const targets = argv.filter((arg) => arg !== '--problems');
  const unknown = targets.find((arg) => arg.startsWith('--'));
  if (unknown !== undefined || targets.length === 0) {
    output.error(
      unknown === undefined
        ? 'fw-check-mappers: give a folder, file or glob of mapper XML'
        : `fw-check-mappers: unknown option ${unknown}`,
    );
    output.error(CHECK_MAPPERS_USAGE);
    return 2;
  }
  const started = performance.now();
  let files: string[];
  try {
    files = await findMapperFiles(targets, cwd);
  } catch (error) {
    if (!(error instanceof MapperFilesError)) throw error;
    output.error(`fw-check-mappers: ${error.message}`);
    return 2;
  }
  const report = await checkMapperFiles(files.map((file) => [file, displayName(file, cwd)] as const));
  for (const line of reportLines(report, onlyProblems)) output.out(line);
  output.out(summaryLine(report, performance.now() - started));
  return everythingLoads(report) ? 0 : 1;
}
