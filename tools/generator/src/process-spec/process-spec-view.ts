/**
 * What the fw-process-management templates see of a processSpec: every process with the names,
 * types and literals its files need, precomputed here because Mustache is logic-less.
 */
import { pascalCase } from '../render/names';
import type { FieldType, ProcessSpec, ProcessSpecProcess } from './process-spec';

const TS_TYPE: Record<FieldType, string> = {
  string: 'string',
  int: 'number',
  integer: 'number',
  long: 'number',
  boolean: 'boolean',
  double: 'number',
};
const SHAPE_KIND: Record<FieldType, string> = {
  string: 'string',
  int: 'integer',
  integer: 'integer',
  long: 'integer',
  boolean: 'boolean',
  double: 'number',
};
const SAMPLE_VALUE: Record<FieldType, unknown> = {
  string: 'sample',
  int: 1,
  integer: 1,
  long: 1,
  boolean: true,
  double: 1.5,
};

export interface ProcessView {
  [key: string]: unknown;
  processType: string;
  className: string;
}

/**
 * A successor's input is whatever its predecessor hands on (`predecessorArgs`), so its declared
 * fields are typed but optional; every other process requires all its fields.
 */
function isOptionalInput(p: ProcessSpecProcess): boolean {
  return p.predecessorProcessType !== undefined;
}

export function inputSchemaOf(p: ProcessSpecProcess): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [name, type] of Object.entries(p.fields))
    properties[name] = { type: SHAPE_KIND[type] === 'integer' ? 'integer' : SHAPE_KIND[type] };
  // fileRead children get their byte range from the splitter.
  if (p.implementation === 'fileRead')
    Object.assign(properties, { offset: { type: 'integer', minimum: 0 }, length: { type: 'integer', minimum: 0 } });
  return { type: 'object', required: isOptionalInput(p) ? [] : Object.keys(p.fields), properties };
}

/** The ProcessDef of @fw/process-api for one process (parents derived from `children`). */
export function definitionOf(p: ProcessSpecProcess, spec: ProcessSpec): Record<string, unknown> {
  const parent = spec.processes.find((q) => q.children.includes(p.processType));
  const def: Record<string, unknown> = { processType: p.processType, leaf: p.children.length === 0 };
  if (parent) def.parentProcessType = parent.processType;
  if (p.predecessorProcessType) {
    def.predecessorProcessType = p.predecessorProcessType;
    def.predecessorArgs = p.predecessorArgs ?? 'BOTH';
  }
  if (Object.keys(p.config).length > 0) def.config = p.config;
  def.inputSchema = inputSchemaOf(p);
  return def;
}

function fieldsView(p: ProcessSpecProcess): Record<string, unknown>[] {
  const optional = isOptionalInput(p);
  return Object.entries(p.fields).map(([name, type]) => ({
    name,
    type,
    tsType: TS_TYPE[type],
    shapeKind: `${SHAPE_KIND[type]}${optional ? '?' : ''}`,
    optionalMark: optional ? '?' : '',
  }));
}

function shapeLiteral(p: ProcessSpecProcess): string {
  const entries = fieldsView(p).map((f) => `${String(f.name)}: '${String(f.shapeKind)}'`);
  if (p.implementation === 'fileRead') entries.push("offset: 'integer?'", "length: 'integer?'");
  return `shape({ ${entries.join(', ')} })`;
}

function sampleArgs(p: ProcessSpecProcess): Record<string, unknown> {
  return Object.fromEntries(Object.entries(p.fields).map(([name, type]) => [name, SAMPLE_VALUE[type]]));
}

function processView(p: ProcessSpecProcess, spec: ProcessSpec): ProcessView {
  const className = pascalCase(p.processType);
  const leaf = p.children.length === 0;
  const parent = spec.processes.find((q) => q.children.includes(p.processType));
  const workers = leaf ? [`${className}Executor`] : [`${className}Splitter`, `${className}Aggregator`];
  return {
    processType: p.processType,
    className,
    inputType: p.inputType,
    description: p.description ?? `${p.processType} (${p.implementation})`,
    isLeaf: leaf,
    isRoot: !parent,
    hasParent: Boolean(parent),
    parentProcessType: parent?.processType ?? '',
    isCustom: p.implementation === 'custom',
    isFileSplit: p.implementation === 'fileSplit',
    isFileRead: p.implementation === 'fileRead',
    implementation: p.implementation,
    childType: p.children[0] ?? '',
    childTypesJson: JSON.stringify(p.children),
    hasPredecessor: Boolean(p.predecessorProcessType),
    predecessorProcessType: p.predecessorProcessType ?? '',
    predecessorArgs: p.predecessorArgs ?? (p.predecessorProcessType ? 'BOTH' : ''),
    fields: fieldsView(p),
    shapeLiteral: shapeLiteral(p),
    workerClasses: workers.join(', '),
    workerInstances: workers.map((w) => `new ${w}()`).join(', '),
    sampleArgsJson: JSON.stringify(sampleArgs(p)),
    chunkBytes: p.config.chunkBytes ?? '',
    // The splitter's default (1 MiB) when the config does not say.
    chunkSize: Number(p.config.chunkBytes ?? 1024 * 1024),
    childExtraFields: Object.keys(spec.processes.find((q) => q.processType === p.children[0])?.fields ?? {})
      .filter((name) => name !== 'path')
      .map((name) => ({ name })),
  };
}

/** The view of a processSpec: `processes`, the definitions and cron triggers as JSON text, flags. */
export function processSpecView(spec: ProcessSpec): Record<string, unknown> {
  const processes = spec.processes.map((p) => processView(p, spec));
  return {
    processes,
    rootProcesses: processes.filter((p) => p.isRoot),
    definitionsJson: JSON.stringify(
      spec.processes.map((p) => definitionOf(p, spec)),
      null,
      2,
    ),
    cronTriggersJson: JSON.stringify(spec.cronTriggers, null, 2),
    processSpecJson: JSON.stringify(spec, null, 2),
    hasCronTriggers: spec.cronTriggers.length > 0,
    hasFileProcesses: spec.processes.some((p) => p.implementation !== 'custom'),
  };
}
