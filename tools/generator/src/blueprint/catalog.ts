/**
 * The blueprint catalogue: the built-in blueprints shipped in this package (`blueprints/`) plus any
 * folders given with `--blueprints DIR`. A folder counts as a blueprint when it holds
 * `META-INF/blueprint.json`; `DIR` may be one blueprint or a folder of them. Later folders win over
 * earlier ones, so a team can override a built-in blueprint by name.
 */
import Ajv, { type ErrorObject } from 'ajv';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { GeneratorError, GeneratorErrorCodes } from '../errors';
import { DESCRIPTOR_SCHEMA, type BlueprintDescriptor } from './descriptor';

export const DESCRIPTOR_PATH = path.join('META-INF', 'blueprint.json');

/** Where the built-in blueprints live: next to `dist/` in the package, next to `src/` in the checkout. */
export const BUILTIN_BLUEPRINTS_DIR = path.resolve(__dirname, '../../blueprints');

export interface Blueprint {
  readonly descriptor: BlueprintDescriptor;
  /** The blueprint folder: the template tree plus `META-INF/`. */
  readonly dir: string;
  /** `descriptor.version`, or `0.1.0`. */
  readonly version: string;
}

export interface BlueprintCatalog {
  list(): Blueprint[];
  /** @throws GeneratorError BLUEPRINT_NOT_FOUND naming the blueprints there are. */
  get(name: string): Blueprint;
}

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
const validateDescriptor = ajv.compile(DESCRIPTOR_SCHEMA);

function describeSchemaError(e: ErrorObject): string {
  const where = e.instancePath === '' ? '(top level)' : e.instancePath.slice(1).replace(/\//g, '.');
  if (e.keyword === 'additionalProperties')
    return `${where}: unknown property '${String(e.params.additionalProperty)}'`;
  if (e.keyword === 'required') return `${where}: missing required property '${String(e.params.missingProperty)}'`;
  if (e.keyword === 'enum') return `${where}: must be one of ${JSON.stringify(e.params.allowedValues)}`;
  return `${where}: ${e.message ?? 'is invalid'}`;
}

/** Checks rules the schema cannot say: unique field names, enums with valid values, hook inside the folder. */
function crossCheck(d: BlueprintDescriptor, dir: string): string[] {
  const problems: string[] = [];
  if (d.name !== path.basename(dir))
    problems.push(`name: '${d.name}' must be the blueprint's folder name '${path.basename(dir)}'`);
  const seen = new Set<string>();
  d.inputFields.forEach((f, i) => {
    if (seen.has(f.name)) problems.push(`inputFields.${i}.name: duplicate field '${f.name}'`);
    seen.add(f.name);
    if (f.type === 'enum' && !f.validValues)
      problems.push(`inputFields.${i}.validValues: an enum field needs validValues`);
    for (const key of Object.keys(f.visibleWhen ?? {})) {
      if (!d.inputFields.slice(0, i).some((g) => g.name === key))
        problems.push(`inputFields.${i}.visibleWhen: '${key}' is not an earlier field`);
    }
    if (f.sample !== undefined && !existsSync(insideBlueprint(dir, f.sample)))
      problems.push(`inputFields.${i}.sample: ${f.sample} does not exist in the blueprint`);
  });
  if (d.initHook && !existsSync(insideBlueprint(dir, d.initHook.module)))
    problems.push(`initHook.module: ${d.initHook.module} does not exist in the blueprint`);
  return problems;
}

/** A path named by a descriptor, refused when it leaves the blueprint folder. */
export function insideBlueprint(dir: string, relative: string): string {
  const full = path.resolve(dir, relative);
  if (full !== dir && !full.startsWith(dir + path.sep)) {
    throw new GeneratorError(GeneratorErrorCodes.PATH_OUTSIDE, `${relative} leaves the blueprint folder ${dir}`);
  }
  return full;
}

/** Reads and validates one blueprint folder. @throws GeneratorError DESCRIPTOR_INVALID naming file and field. */
export function loadBlueprint(dir: string): Blueprint {
  const file = path.join(dir, DESCRIPTOR_PATH);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new GeneratorError(
      GeneratorErrorCodes.DESCRIPTOR_INVALID,
      `${file}: not readable JSON (${(err as Error).message})`,
    );
  }
  if (!validateDescriptor(raw)) {
    throw new GeneratorError(
      GeneratorErrorCodes.DESCRIPTOR_INVALID,
      `${file} is not a valid blueprint descriptor`,
      (validateDescriptor.errors ?? []).map(describeSchemaError),
    );
  }
  const descriptor = raw as unknown as BlueprintDescriptor;
  const problems = crossCheck(descriptor, dir);
  if (problems.length > 0)
    throw new GeneratorError(
      GeneratorErrorCodes.DESCRIPTOR_INVALID,
      `${file} is not a valid blueprint descriptor`,
      problems,
    );
  return { descriptor, dir, version: descriptor.version ?? '0.1.0' };
}

function isBlueprintDir(dir: string): boolean {
  return existsSync(path.join(dir, DESCRIPTOR_PATH));
}

function blueprintDirsIn(root: string): string[] {
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new GeneratorError(GeneratorErrorCodes.BLUEPRINT_NOT_FOUND, `blueprint folder ${root} does not exist`);
  }
  if (isBlueprintDir(root)) return [root];
  return readdirSync(root)
    .sort()
    .map((entry) => path.join(root, entry))
    .filter((dir) => statSync(dir).isDirectory() && isBlueprintDir(dir));
}

/**
 * @param extraDirs `--blueprints` folders, each a blueprint or a folder of blueprints.
 * @param includeBuiltins false only in tests that want a catalogue of their own blueprints.
 */
export function makeBlueprintCatalog(extraDirs: readonly string[] = [], includeBuiltins = true): BlueprintCatalog {
  const roots = [...(includeBuiltins ? [BUILTIN_BLUEPRINTS_DIR] : []), ...extraDirs.map((d) => path.resolve(d))];
  const dirs = new Map<string, string>();
  for (const root of roots) for (const dir of blueprintDirsIn(root)) dirs.set(path.basename(dir), dir);
  // Loaded lazily: one broken blueprint must not stop the others from being listed or used.
  const loaded = new Map<string, Blueprint>();
  const load = (name: string): Blueprint => {
    const cached = loaded.get(name);
    if (cached) return cached;
    const dir = dirs.get(name);
    if (!dir) {
      throw new GeneratorError(
        GeneratorErrorCodes.BLUEPRINT_NOT_FOUND,
        `no blueprint named '${name}'; there are: ${[...dirs.keys()].sort().join(', ') || 'none'} (fw-gen --list)`,
      );
    }
    const blueprint = loadBlueprint(dir);
    loaded.set(name, blueprint);
    return blueprint;
  };
  return {
    list: () => [...dirs.keys()].sort().map(load),
    get: load,
  };
}
