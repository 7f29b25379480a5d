/**
 * The batch blueprint's input: a hierarchy JSON where each step nests its children as objects
 * (rather than naming them, as a processSpec does), with the unified `config` map and the
 * `predecessorProcessType` / `predecessorArgs` fields of 2.1.31 on any root step:
 *
 *     { "steps": [ { "processType": "nightly", "config": { "day": "today" },
 *                    "children": [ { "processType": "load-accounts", "fields": { "region": "string" } } ] },
 *                  { "processType": "report", "predecessorProcessType": "nightly", "predecessorArgs": "OUTPUT" } ] }
 *
 * It is flattened into a processSpec (input types default to `<Step>Input`, implementation custom)
 * and checked by the processSpec rules, so both blueprints refuse the same mistakes.
 */
import { GeneratorError, GeneratorErrorCodes } from '../errors';
import { parseProcessSpec } from '../process-spec/parse-process-spec';
import type { ProcessSpec } from '../process-spec/process-spec';
import { isObject } from '../process-spec/validate-structure';
import { pascalCase } from '../render/names';

const STEP_KEYS = new Set([
  'processType',
  'inputType',
  'fields',
  'config',
  'children',
  'predecessorProcessType',
  'predecessorArgs',
  'description',
  'implementation',
]);

function flatten(step: unknown, at: string, out: Record<string, unknown>[], problems: string[]): string | undefined {
  if (!isObject(step)) {
    problems.push(`${at}: a step must be an object`);
    return undefined;
  }
  for (const key of Object.keys(step))
    if (!STEP_KEYS.has(key)) problems.push(`${at}.${key}: unknown property (known: ${[...STEP_KEYS].join(', ')})`);
  const children = step.children === undefined ? [] : step.children;
  if (!Array.isArray(children)) problems.push(`${at}.children: must be an array of steps`);
  const entry: Record<string, unknown> = { ...step };
  if (entry.inputType === undefined && typeof step.processType === 'string')
    entry.inputType = `${pascalCase(step.processType)}Input`;
  out.push(entry);
  entry.children = Array.isArray(children)
    ? children
        .map((c, i) => flatten(c, `${at}.children[${i}]`, out, problems))
        .filter((c): c is string => c !== undefined)
    : [];
  return typeof step.processType === 'string' ? step.processType : undefined;
}

/** @throws GeneratorError SPEC_INVALID listing every problem (steps named by their place in the hierarchy). */
export function parseBatchHierarchy(raw: unknown, source = 'batchJson'): ProcessSpec {
  const problems: string[] = [];
  if (!isObject(raw) || !Array.isArray(raw.steps)) {
    throw new GeneratorError(GeneratorErrorCodes.SPEC_INVALID, `${source} is not valid; nothing was written`, [
      '(top level): a batch hierarchy is an object { steps: [ { processType, children: [...] } ], cronTriggers?: [...] }',
    ]);
  }
  for (const key of Object.keys(raw))
    if (key !== 'steps' && key !== 'cronTriggers')
      problems.push(`${key}: unknown property (known: steps, cronTriggers)`);
  const processes: Record<string, unknown>[] = [];
  raw.steps.forEach((s, i) => flatten(s, `steps[${i}]`, processes, problems));
  if (problems.length > 0)
    throw new GeneratorError(GeneratorErrorCodes.SPEC_INVALID, `${source} is not valid; nothing was written`, problems);
  return parseProcessSpec({ processes, cronTriggers: raw.cronTriggers }, source);
}
