/**
 * The Mustache view of a generation: the configuration, the answers (with their name cases), the
 * dependency specifiers of the @fw packages (from `packageSource`), the versions of the third-party
 * packages generated projects use, and what each formatted document (a processSpec, a batch
 * hierarchy) contributes.
 */
import * as path from 'node:path';
import type { Answers } from '../blueprint/answers';
import { FW_PACKAGES_VERSION, type GeneratorConfig } from '../config/generator-config';
import { camelCase, constantCase, kebabCase, pascalCase } from './names';
import type { View } from './paths';

/** The @fw packages a generated project may depend on, by their view key. */
export const FW_PACKAGES = [
  'core',
  'stm',
  'process-api',
  'process-outbox',
  'leased-queue',
  'process-service',
  'process-utils',
  'jdbc-process-starter',
  'process-management',
  'migrate',
  'trigger',
  'service',
  'workflow',
  'query-core',
  'query-controller',
  'admin-ui',
  'generator',
  'telemetry',
] as const;

/**
 * Third-party ranges of generated projects: the ones this workspace is built and tested with, so a
 * generated project gets what the framework was proven on.
 */
export const THIRD_PARTY_VERSIONS = {
  typescript: '^5.9.3',
  typesNode: '^20.19.43',
  pglite: '^0.5.11',
  express: '^5.1.0',
  typesExpress: '^5.0.6',
  kysely: '~0.28.18',
  pg: '^8.16.3',
  typesPg: '^8.15.0',
  jose: '^6.1.0',
  mcpSdk: '^1.32.2',
  supertest: '^7.1.0',
  typesSupertest: '^7.2.1',
} as const;

/** `^0.1.0` from the registry, or `file:<folder>/fw-core-0.1.0.tgz` from packed tarballs. */
export function fwDependency(name: string, config: GeneratorConfig): string {
  if (config.packageSource.startsWith('local:')) {
    const dir = config.packageSource.slice('local:'.length);
    return `file:${path.join(dir, `fw-${name}-${FW_PACKAGES_VERSION}.tgz`)}`;
  }
  return `^${FW_PACKAGES_VERSION}`;
}

function nameCases(answers: Answers): View {
  const out: View = {};
  for (const [key, value] of Object.entries(answers)) {
    if (typeof value !== 'string') continue;
    out[`${key}Pascal`] = pascalCase(value);
    out[`${key}Camel`] = camelCase(value);
    out[`${key}Kebab`] = kebabCase(value);
    out[`${key}Constant`] = constantCase(value);
    // Mustache cannot compare: `{{#definitionSourceIsDatabase}}` stands for definitionSource = database.
    if (/^[A-Za-z][A-Za-z0-9_-]{0,39}$/.test(value)) out[`${key}Is${pascalCase(value)}`] = true;
  }
  return out;
}

export interface ViewInput {
  config: GeneratorConfig;
  answers: Answers;
  blueprint: { name: string; version: string };
  /** Views contributed by formatted documents (processSpec, batchHierarchy). */
  documentViews: View[];
}

export function buildView(input: ViewInput): View {
  const { config, answers } = input;
  const fwDeps: Record<string, string> = {};
  for (const name of FW_PACKAGES) fwDeps[camelCase(name)] = fwDependency(name, config);
  const scalars = Object.fromEntries(Object.entries(answers).filter(([, v]) => typeof v !== 'object' || v === null));
  return {
    ...config,
    scope: `@${config.package}`,
    fwPackagesVersion: FW_PACKAGES_VERSION,
    fwDeps,
    versions: THIRD_PARTY_VERSIONS,
    blueprintName: input.blueprint.name,
    blueprintVersion: input.blueprint.version,
    ...scalars,
    ...nameCases(answers),
    ...Object.assign({}, ...input.documentViews),
  };
}
