/**
 * Answers to a blueprint's prompts: defaults (which may refer to earlier answers and to the
 * configuration, `${ecosystem}Service`), visibility (`visibleWhen`), and validation by type,
 * validValues and format. Problems are collected for every field at once so one run shows them all.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { GeneratorConfig } from '../config/generator-config';
import { GeneratorError, GeneratorErrorCodes } from '../errors';
import type { AnswerValue, BlueprintDescriptor, InputField } from './descriptor';

export type Answers = Record<string, AnswerValue>;

export const SAFE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** `${name}` in a default: an earlier answer, else a configuration value, else left empty. */
export function interpolate(template: string, answers: Answers, config: GeneratorConfig): string {
  return template.replace(/\$\{([A-Za-z][A-Za-z0-9_]*)\}/g, (_m, key: string) => {
    const value = key in answers ? answers[key] : (config as unknown as Record<string, unknown>)[key];
    return value === undefined || value === null ? '' : String(value);
  });
}

/** The default of a field given the answers so far. */
export function defaultOf(field: InputField, answers: Answers, config: GeneratorConfig): AnswerValue | undefined {
  const d = field.defaultValue;
  if (typeof d === 'string') return interpolate(d, answers, config);
  if (d === undefined && field.type === 'boolean') return false;
  if (d === undefined && field.type === 'enum') return field.validValues?.[0];
  return d;
}

/** Whether a field is asked, given the answers to earlier fields. */
export function isVisible(field: InputField, answers: Answers): boolean {
  return Object.entries(field.visibleWhen ?? {}).every(([key, expected]) => String(answers[key]) === String(expected));
}

/** Accepts the usual spellings of yes and no from files and prompts (`y`, `n`, `true`, `false`). */
export function coerceBoolean(value: AnswerValue): AnswerValue {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['y', 'yes', 'true'].includes(v)) return true;
  if (['n', 'no', 'false'].includes(v)) return false;
  return value;
}

function checkString(field: InputField, value: string, baseDir: string): string | undefined {
  if (CONTROL.test(value)) return `${field.name}: contains a control character`;
  if (field.format === 'name' && !SAFE_NAME.test(value))
    return `${field.name}: '${value}' is not a safe name (a letter, then letters, digits, '-' or '_', at most 64)`;
  if (field.format === 'version' && !SEMVER.test(value)) return `${field.name}: '${value}' is not a version like 1.0.0`;
  if (field.type === 'file') {
    const full = path.resolve(baseDir, value);
    if (!existsSync(full) || !statSync(full).isFile()) return `${field.name}: file ${full} does not exist`;
  }
  if (value.trim() === '' && field.type !== 'json') return `${field.name}: must not be empty`;
  return undefined;
}

/** The problem with one answer (type, validValues, format, file exists), or undefined. */
export function checkField(field: InputField, value: AnswerValue | undefined, baseDir: string): string | undefined {
  if (value === undefined || value === null) return `${field.name}: missing (${field.description})`;
  switch (field.type) {
    case 'boolean':
      return typeof value === 'boolean'
        ? undefined
        : `${field.name}: must be true or false, got ${JSON.stringify(value)}`;
    case 'enum':
      return typeof value === 'string' && field.validValues?.includes(value)
        ? undefined
        : `${field.name}: must be one of ${field.validValues?.join(', ')}, got ${JSON.stringify(value)}`;
    case 'json':
      return typeof value === 'object' ? undefined : `${field.name}: must be a JSON object or array`;
    case 'file':
      // A path, or (from an input file or the portal) the document itself.
      if (typeof value === 'object') return undefined;
      return typeof value === 'string' ? checkString(field, value, baseDir) : `${field.name}: must be a file path`;
    default:
      if (typeof value !== 'string') return `${field.name}: must be a string, got ${JSON.stringify(value)}`;
      if (field.validValues && !field.validValues.includes(value))
        return `${field.name}: must be one of ${field.validValues.join(', ')}, got '${value}'`;
      return checkString(field, value, baseDir);
  }
}

/**
 * Completes and checks answers: defaults for visible fields left out, hidden fields dropped,
 * unknown keys refused (a typo in an input file must not be silently ignored).
 * @param baseDir what relative file paths are relative to (the input file's folder).
 * @throws GeneratorError INPUT_INVALID listing every problem.
 */
export function resolveAnswers(
  descriptor: BlueprintDescriptor,
  given: Answers,
  config: GeneratorConfig,
  baseDir: string,
): Answers {
  const problems: string[] = [];
  const known = new Set(descriptor.inputFields.map((f) => f.name));
  for (const key of Object.keys(given))
    if (!known.has(key))
      problems.push(`${key}: not an input of blueprint ${descriptor.name} (inputs: ${[...known].join(', ')})`);
  const answers: Answers = {};
  for (const field of descriptor.inputFields) {
    if (!isVisible(field, answers)) continue;
    let value = Object.prototype.hasOwnProperty.call(given, field.name)
      ? given[field.name]
      : defaultOf(field, answers, config);
    if (field.type === 'boolean' && value !== undefined) value = coerceBoolean(value);
    const problem = checkField(field, value, baseDir);
    if (problem) problems.push(problem);
    else answers[field.name] = value as AnswerValue;
  }
  if (problems.length > 0)
    throw new GeneratorError(
      GeneratorErrorCodes.INPUT_INVALID,
      `the answers for blueprint ${descriptor.name} are not valid`,
      problems,
    );
  return answers;
}

/** The document of a `file` or `json` field: parsed from the file it names, or the inline value. */
export function readDocument(field: InputField, value: AnswerValue, baseDir: string): unknown {
  if (typeof value !== 'string') return value;
  if (field.type === 'json') return JSON.parse(value) as unknown;
  const full = path.resolve(baseDir, value);
  const text = readFileSync(full, 'utf8');
  if (field.format === 'processSpec' || field.format === 'batchHierarchy' || full.endsWith('.json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      throw new GeneratorError(
        GeneratorErrorCodes.INPUT_INVALID,
        `${field.name}: ${full} is not valid JSON (${(err as Error).message})`,
      );
    }
  }
  return text;
}

/** A sample input: every field with its default, hidden ones included so the file shows every option. */
export function sampleAnswers(descriptor: BlueprintDescriptor, config: GeneratorConfig): Answers {
  const answers: Answers = {};
  for (const field of descriptor.inputFields) {
    const value = defaultOf(field, answers, config);
    answers[field.name] = value === undefined ? '' : value;
  }
  return answers;
}
