/**
 * The processSpec of the fw-process-management blueprint: processes with typed fields,
 * children (parents derived), config, implementation and optional predecessor chaining, plus cron
 * triggers seeded disabled. Everything is checked here, before anything is rendered, so a spec
 * with a cycle or a dangling reference writes nothing.
 */
export const FIELD_TYPES = ['string', 'int', 'integer', 'long', 'boolean', 'double'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export const IMPLEMENTATIONS = ['custom', 'fileSplit', 'fileRead'] as const;
export type Implementation = (typeof IMPLEMENTATIONS)[number];
export const PREDECESSOR_ARGS = ['INPUT', 'OUTPUT', 'BOTH'] as const;
export type PredecessorArgs = (typeof PREDECESSOR_ARGS)[number];

export interface ProcessSpecProcess {
  processType: string;
  inputType: string;
  fields: Record<string, FieldType>;
  children: string[];
  config: Record<string, string>;
  implementation: Implementation;
  predecessorProcessType?: string;
  predecessorArgs?: PredecessorArgs;
  description?: string;
}

export interface CronTriggerSpec {
  name: string;
  cronExpression: string;
  timezone: string;
  processType: string;
  args: Record<string, unknown>;
  tenant: string;
}

export interface ProcessSpec {
  processes: ProcessSpecProcess[];
  cronTriggers: CronTriggerSpec[];
}

/** Process types: kebab-like names that are also safe as file names and npm-ish identifiers. */
export const PROCESS_TYPE = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
/** Input types become TypeScript interfaces. */
export const TYPE_NAME = /^[A-Z][A-Za-z0-9]{0,63}$/;
/** Field names become TypeScript properties and JSON Schema properties. */
export const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const CRON_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,127}$/;
/** The tenant pattern of @fw/core. */
export const TENANT = /^[A-Za-z0-9_.-]{1,128}$/;

/** The value of a field type: `int`, `integer` and `long` are whole numbers; `double` any finite number. */
export function valueMatchesType(type: FieldType, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'double':
      return typeof value === 'number' && Number.isFinite(value);
    default:
      return typeof value === 'number' && Number.isInteger(value);
  }
}
