/**
 * Shape checks of a processSpec document (types of every member, safe names, known values). The
 * graph rules (cycles, dangling references) are in ./validate-graph, cron in ./validate-cron.
 */
import {
  FIELD_NAME,
  FIELD_TYPES,
  IMPLEMENTATIONS,
  PREDECESSOR_ARGS,
  PROCESS_TYPE,
  TYPE_NAME,
  type FieldType,
  type ProcessSpecProcess,
} from './process-spec';

type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const PROCESS_KEYS = new Set([
  'processType',
  'inputType',
  'fields',
  'children',
  'config',
  'implementation',
  'predecessorProcessType',
  'predecessorArgs',
  'description',
]);

function checkFields(raw: unknown, at: string, problems: string[]): Record<string, FieldType> {
  if (raw === undefined) return {};
  if (!isObject(raw)) {
    problems.push(`${at}.fields: must be an object of field name to type`);
    return {};
  }
  const fields: Record<string, FieldType> = {};
  for (const [name, type] of Object.entries(raw)) {
    if (!FIELD_NAME.test(name))
      problems.push(
        `${at}.fields.${name}: '${name}' is not a safe field name (letters, digits, '_'; not starting with a digit)`,
      );
    else if (typeof type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(type))
      problems.push(`${at}.fields.${name}: type ${JSON.stringify(type)} is not one of ${FIELD_TYPES.join(', ')}`);
    else fields[name] = type as FieldType;
  }
  return fields;
}

function checkStringList(raw: unknown, at: string, problems: string[]): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.some((c) => typeof c !== 'string')) {
    problems.push(`${at}: must be an array of process types`);
    return [];
  }
  const list = raw as string[];
  const dup = list.find((c, i) => list.indexOf(c) !== i);
  if (dup !== undefined) problems.push(`${at}: '${dup}' is listed twice`);
  return list;
}

function checkConfig(raw: unknown, at: string, problems: string[]): Record<string, string> {
  if (raw === undefined) return {};
  if (!isObject(raw) || Object.values(raw).some((v) => typeof v !== 'string')) {
    problems.push(`${at}.config: must be an object of string to string`);
    return {};
  }
  return raw as Record<string, string>;
}

function optionalString(p: Json, key: string, at: string, problems: string[]): string | undefined {
  const v = p[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') problems.push(`${at}.${key}: must be a string`);
  return typeof v === 'string' ? v : undefined;
}

/** One process entry, normalised (defaults filled in); problems are appended. */
export function checkProcess(p: unknown, i: number, problems: string[]): ProcessSpecProcess | undefined {
  const at = `processes[${i}]`;
  if (!isObject(p)) {
    problems.push(`${at}: must be an object`);
    return undefined;
  }
  for (const key of Object.keys(p))
    if (!PROCESS_KEYS.has(key))
      problems.push(`${at}.${key}: unknown property (known: ${[...PROCESS_KEYS].join(', ')})`);
  const processType = typeof p.processType === 'string' ? p.processType : '';
  if (!PROCESS_TYPE.test(processType))
    problems.push(
      `${at}.processType: ${JSON.stringify(p.processType ?? null)} is not a safe process type (lower-case words joined by '-', like file-import)`,
    );
  const inputType = typeof p.inputType === 'string' ? p.inputType : '';
  if (!TYPE_NAME.test(inputType))
    problems.push(
      `${at}.inputType: ${JSON.stringify(p.inputType ?? null)} is not a safe type name (PascalCase, like FileImportInput)`,
    );
  const implementation = p.implementation === undefined ? 'custom' : p.implementation;
  if (typeof implementation !== 'string' || !(IMPLEMENTATIONS as readonly string[]).includes(implementation))
    problems.push(
      `${at}.implementation: ${JSON.stringify(implementation)} is not one of ${IMPLEMENTATIONS.join(', ')}`,
    );
  const predecessorArgs = optionalString(p, 'predecessorArgs', at, problems);
  if (predecessorArgs !== undefined && !(PREDECESSOR_ARGS as readonly string[]).includes(predecessorArgs))
    problems.push(`${at}.predecessorArgs: '${predecessorArgs}' is not one of ${PREDECESSOR_ARGS.join(', ')}`);
  return {
    processType,
    inputType,
    fields: checkFields(p.fields, at, problems),
    children: checkStringList(p.children, `${at}.children`, problems),
    config: checkConfig(p.config, at, problems),
    implementation: implementation as ProcessSpecProcess['implementation'],
    predecessorProcessType: optionalString(p, 'predecessorProcessType', at, problems),
    predecessorArgs: predecessorArgs as ProcessSpecProcess['predecessorArgs'],
    description: optionalString(p, 'description', at, problems),
  };
}
