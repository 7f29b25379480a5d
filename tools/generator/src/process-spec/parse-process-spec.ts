import { GeneratorError, GeneratorErrorCodes } from '../errors';
import type { ProcessSpec, ProcessSpecProcess } from './process-spec';
import { checkCronTriggers } from './validate-cron';
import { checkGraph } from './validate-graph';
import { checkProcess, isObject } from './validate-structure';

/** Every problem of a processSpec document, empty when it is valid. */
export function processSpecProblems(raw: unknown): { spec: ProcessSpec; problems: string[] } {
  const problems: string[] = [];
  if (!isObject(raw))
    return {
      spec: { processes: [], cronTriggers: [] },
      problems: ['(top level): a processSpec is an object { processes: [...], cronTriggers: [...] }'],
    };
  for (const key of Object.keys(raw))
    if (key !== 'processes' && key !== 'cronTriggers')
      problems.push(`${key}: unknown property (known: processes, cronTriggers)`);
  if (!Array.isArray(raw.processes)) {
    problems.push('processes: must be an array');
    return { spec: { processes: [], cronTriggers: [] }, problems };
  }
  const processes = raw.processes
    .map((p, i) => checkProcess(p, i, problems))
    .filter((p): p is ProcessSpecProcess => p !== undefined);
  // Graph rules only make sense on well-formed entries; shape problems are reported first.
  if (problems.length === 0) checkGraph(processes, problems);
  const cronTriggers = checkCronTriggers(raw.cronTriggers, processes, problems);
  return { spec: { processes, cronTriggers }, problems };
}

/**
 * Checks a processSpec and returns it normalised (defaults filled in).
 * @throws GeneratorError SPEC_INVALID listing every problem (cycles named, references, names, cron).
 */
export function parseProcessSpec(raw: unknown, source = 'processSpec'): ProcessSpec {
  const { spec, problems } = processSpecProblems(raw);
  if (problems.length > 0)
    throw new GeneratorError(GeneratorErrorCodes.SPEC_INVALID, `${source} is not valid; nothing was written`, problems);
  return spec;
}
