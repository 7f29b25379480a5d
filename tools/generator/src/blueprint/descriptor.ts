/**
 * The blueprint descriptor, `META-INF/blueprint.json`, and its JSON Schema. The schema is strict
 * (unknown properties refused) so a typo in a descriptor is an error naming the field, not a
 * silently ignored setting.
 */

export type InputFieldType = 'string' | 'boolean' | 'enum' | 'file' | 'json';

/**
 * Extra rules of a field. `name`: a safe name (letters, digits, `-`, `_`; starts with a letter),
 * because it ends up in file names, package names and identifiers. `version`: semver. `path`: a
 * folder or file path. `processSpec` / `batchHierarchy`: a JSON document checked by its own rules.
 * `serviceDependencies`: the `"<package>#<export>"` list of the services a host composes.
 * `statesXml`: a states XML of @fw/stm, checked with the line of each problem.
 */
export type InputFieldFormat =
  'name' | 'version' | 'path' | 'processSpec' | 'batchHierarchy' | 'serviceDependencies' | 'statesXml';

export type AnswerValue = string | boolean | number | null | AnswerValue[] | { [key: string]: AnswerValue };

/** One `compose` entry (fw-ecosystem): another blueprint generated into a folder of this project (see compose/compose.ts). */
export interface ComposeEntry {
  blueprint: string;
  /** Where the project goes inside the composing project; may refer to answers (`${service}`). */
  folder: string;
  /** Composed only when every listed answer has the listed value. */
  when?: Record<string, string | boolean>;
  /** Answers of the composed blueprint; strings (also inside arrays) may refer to answers. */
  answers?: Record<string, AnswerValue>;
}

export interface InputField {
  name: string;
  type: InputFieldType;
  description: string;
  /** May refer to other inputs and to the configuration: `${ecosystem}Service`, `${version}`. */
  defaultValue?: AnswerValue;
  validValues?: string[];
  /** Asked (and validated) only when every listed input has the listed value. */
  visibleWhen?: Record<string, string | boolean>;
  format?: InputFieldFormat;
  /** For `file` fields: a file inside the blueprint folder that `-g … -o` copies next to the sample. */
  sample?: string;
}

export interface InitHookDescriptor {
  /** A JavaScript module inside the blueprint folder (`META-INF/init.cjs`), run with node in the staging folder. */
  module: string;
  /** Killed after this long; the generation is then refused. Default 30 000. */
  timeoutMillis?: number;
}

export interface BlueprintDescriptor {
  name: string;
  description: string;
  /** The blueprint's own version, recorded in `.fw-gen.json`. Default `0.1.0`. */
  version?: string;
  /** Oldest framework version (configured `fwVersion`) the generated code runs on. */
  sinceVersion?: string;
  initHook?: InitHookDescriptor;
  inputFields: InputField[];
  /** Path prefixes or `*.ext` suffixes (relative to the blueprint folder) copied without rendering. */
  verbatim?: string[];
  /**
   * Render the template tree of that blueprint instead of this folder's own (a blueprint that
   * differs from another only in its prompts, such as batch and fw-process-management).
   */
  templatesOf?: string;
  /** Extra view values; strings may refer to answers and configuration (`"application": "${batch}"`). */
  view?: Record<string, AnswerValue>;
  /**
   * Other blueprints generated (each in isolation) into this one's staging folder, which becomes
   * their npm-workspaces root (fw-ecosystem; see src/compose/compose.ts).
   */
  compose?: ComposeEntry[];
}

const SEMVER = '^\\d+\\.\\d+\\.\\d+(?:-[0-9A-Za-z.-]+)?$';
const SAFE_NAME = '^[A-Za-z][A-Za-z0-9_-]{0,63}$';

export const DESCRIPTOR_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'description', 'inputFields'],
  properties: {
    name: { type: 'string', pattern: SAFE_NAME },
    description: { type: 'string', minLength: 1 },
    version: { type: 'string', pattern: SEMVER },
    sinceVersion: { type: 'string', pattern: SEMVER },
    initHook: {
      type: 'object',
      additionalProperties: false,
      required: ['module'],
      properties: {
        module: { type: 'string', minLength: 1 },
        timeoutMillis: { type: 'integer', minimum: 1, maximum: 600000 },
      },
    },
    verbatim: { type: 'array', items: { type: 'string', minLength: 1 } },
    templatesOf: { type: 'string', pattern: SAFE_NAME },
    view: { type: 'object' },
    compose: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['blueprint', 'folder'],
        properties: {
          blueprint: { type: 'string', pattern: SAFE_NAME },
          folder: { type: 'string', minLength: 1 },
          when: { type: 'object', additionalProperties: { type: ['string', 'boolean'] } },
          answers: { type: 'object' },
        },
      },
    },
    inputFields: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'type', 'description'],
        properties: {
          name: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' },
          type: { enum: ['string', 'boolean', 'enum', 'file', 'json'] },
          description: { type: 'string', minLength: 1 },
          defaultValue: {},
          validValues: { type: 'array', minItems: 1, items: { type: 'string' } },
          visibleWhen: { type: 'object', additionalProperties: { type: ['string', 'boolean'] } },
          format: {
            enum: ['name', 'version', 'path', 'processSpec', 'batchHierarchy', 'serviceDependencies', 'statesXml'],
          },
          sample: { type: 'string', minLength: 1 },
        },
      },
    },
  },
} as const;
