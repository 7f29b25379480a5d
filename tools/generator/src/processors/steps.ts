/**
 * The processor chain: load blueprint → version gate → input validation → render
 * into staging → init hook → move into place. Every step before the last touches only the staging
 * folder, so a failure anywhere leaves the destination exactly as it was.
 */
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { interpolate, readDocument, resolveAnswers } from '../blueprint/answers';
import { insideBlueprint } from '../blueprint/catalog';
import { composeProjects } from '../compose/compose';
import { compareVersions, FW_PACKAGES_VERSION } from '../config/generator-config';
import { GeneratorError, GeneratorErrorCodes } from '../errors';
import { listFiles, renderTree } from '../render/render-tree';
import { buildView } from '../render/view';
import { RECORD_FILE, type GenerationContext, type GenerationRecord, type Processor } from './context';
import { DOCUMENT_FORMATS } from './formats';
import { DEFAULT_HOOK_TIMEOUT_MILLIS, runInitHook } from './init-hook';
import { moveIntoPlace } from './move';
import { addBaseToStagedRecord } from '../update/record';

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`internal: ${what} is not set by an earlier step`);
  return value;
}

export const loadStep: Processor = {
  name: 'load blueprint',
  async run(ctx) {
    ctx.blueprint = ctx.catalog.get(ctx.request.blueprint);
    return `${ctx.blueprint.descriptor.name} ${ctx.blueprint.version} (${ctx.blueprint.dir})`;
  },
};

export const versionGateStep: Processor = {
  name: 'version gate',
  async run(ctx) {
    const since = need(ctx.blueprint, 'blueprint').descriptor.sinceVersion;
    if (since === undefined) return `no sinceVersion; fwVersion ${ctx.config.fwVersion}`;
    if (compareVersions(since, ctx.config.fwVersion) > 0) {
      throw new GeneratorError(
        GeneratorErrorCodes.VERSION_GATE,
        `blueprint ${ctx.request.blueprint} needs framework ${since} or newer, the configuration says fwVersion ${ctx.config.fwVersion}: raise fwVersion in the generator configuration (fw-gen -e) or pick another blueprint`,
      );
    }
    return `sinceVersion ${since} <= fwVersion ${ctx.config.fwVersion}`;
  },
};

function destinationOf(ctx: GenerationContext): string {
  const cwd = ctx.request.cwd ?? process.cwd();
  const answer = ctx.answers?.destFolder;
  const chosen =
    ctx.request.destination ??
    (typeof answer === 'string' ? answer : path.join(ctx.config.destFolder, ctx.request.blueprint));
  return path.resolve(cwd, chosen);
}

function checkDestination(destination: string, force: boolean): void {
  if (!existsSync(destination)) return;
  if (!statSync(destination).isDirectory())
    throw new GeneratorError(
      GeneratorErrorCodes.DESTINATION_NOT_EMPTY,
      `destination ${destination} is a file: choose another destFolder`,
    );
  if (readdirSync(destination).length > 0 && !force) {
    throw new GeneratorError(
      GeneratorErrorCodes.DESTINATION_NOT_EMPTY,
      `destination ${destination} is not empty: choose another destFolder, empty it, or give --force to write over it`,
    );
  }
}

function parseDocuments(ctx: GenerationContext, baseDir: string): void {
  const descriptor = need(ctx.blueprint, 'blueprint').descriptor;
  const answers = need(ctx.answers, 'answers');
  for (const field of descriptor.inputFields) {
    if (!(field.name in answers) || (field.type !== 'file' && field.type !== 'json')) continue;
    const raw = readDocument(field, answers[field.name], baseDir);
    const format = field.format ? DOCUMENT_FORMATS[field.format] : undefined;
    ctx.documents[field.name] = format
      ? format.parse(
          raw,
          `${field.name} (${typeof answers[field.name] === 'string' ? String(answers[field.name]) : 'inline'})`,
        )
      : raw;
  }
}

export const inputValidationStep: Processor = {
  name: 'input validation',
  async run(ctx) {
    const blueprint = need(ctx.blueprint, 'blueprint');
    const cwd = ctx.request.cwd ?? process.cwd();
    const baseDir = ctx.request.baseDir ?? cwd;
    ctx.answers = resolveAnswers(blueprint.descriptor, ctx.request.answers, ctx.config, baseDir);
    parseDocuments(ctx, baseDir);
    if (ctx.config.packageSource.startsWith('local:') && !existsSync(ctx.config.packageSource.slice('local:'.length))) {
      throw new GeneratorError(
        GeneratorErrorCodes.CONFIG_INVALID,
        `packageSource ${ctx.config.packageSource}: the folder does not exist (pack the @fw packages there, or use registry)`,
      );
    }
    ctx.destination = destinationOf(ctx);
    checkDestination(ctx.destination, ctx.request.force === true);
    const documentViews = blueprint.descriptor.inputFields
      .filter((f) => f.format && DOCUMENT_FORMATS[f.format] && f.name in ctx.documents)
      .map((f) => DOCUMENT_FORMATS[f.format!]!.view(ctx.documents[f.name]));
    // Aliases and constants of the descriptor's `view` get the name cases of answers too.
    const extra = Object.fromEntries(
      Object.entries(blueprint.descriptor.view ?? {}).map(([k, v]) => [
        k,
        typeof v === 'string' ? interpolate(v, ctx.answers!, ctx.config) : v,
      ]),
    );
    ctx.view = buildView({
      config: ctx.config,
      answers: { ...extra, ...ctx.answers },
      blueprint: { name: blueprint.descriptor.name, version: blueprint.version },
      documentViews,
    });
    return `${Object.keys(ctx.answers).length} answers valid${Object.keys(ctx.documents).length ? `, documents ${Object.keys(ctx.documents).join(', ')} valid` : ''}`;
  },
};

function recordOf(ctx: GenerationContext): GenerationRecord {
  const blueprint = need(ctx.blueprint, 'blueprint');
  return {
    generator: '@fw/generator',
    generatorVersion: FW_PACKAGES_VERSION,
    blueprint: blueprint.descriptor.name,
    blueprintVersion: blueprint.version,
    config: ctx.config,
    answers: need(ctx.answers, 'answers'),
    documents: ctx.documents,
  };
}

export const stagingStep: Processor = {
  name: 'render into staging',
  async run(ctx) {
    const blueprint = need(ctx.blueprint, 'blueprint');
    ctx.stagingRoot = mkdtempSync(path.join(tmpdir(), 'fw-gen-'));
    ctx.stagingDir = path.join(ctx.stagingRoot, 'out');
    const templates = blueprint.descriptor.templatesOf ? ctx.catalog.get(blueprint.descriptor.templatesOf) : blueprint;
    const { files } = renderTree({
      sourceDir: templates.dir,
      targetDir: ctx.stagingDir,
      view: need(ctx.view, 'view'),
      verbatim: templates.descriptor.verbatim,
    });
    const composed = blueprint.descriptor.compose
      ? await composeProjects(ctx, blueprint.descriptor.compose, ctx.stagingDir, need(ctx.answers, 'answers'))
      : [];
    writeFileSync(path.join(ctx.stagingDir, RECORD_FILE), `${JSON.stringify(recordOf(ctx), null, 2)}\n`);
    return `${files.length + 1} files in ${ctx.stagingDir}${composed.length ? `, composed ${composed.join(', ')}` : ''}`;
  },
};

export const initHookStep: Processor = {
  name: 'init hook',
  async run(ctx) {
    const blueprint = need(ctx.blueprint, 'blueprint');
    const hook = blueprint.descriptor.initHook;
    if (!hook) return 'none';
    const output = await runInitHook({
      module: insideBlueprint(blueprint.dir, hook.module),
      cwd: need(ctx.stagingDir, 'staging folder'),
      context: { ...recordOf(ctx), destination: ctx.destination, blueprintDir: blueprint.dir },
      contextFile: path.join(need(ctx.stagingRoot, 'staging root'), 'context.json'),
      timeoutMillis: hook.timeoutMillis ?? DEFAULT_HOOK_TIMEOUT_MILLIS,
    });
    return `${hook.module} done: ${output}`;
  },
};

export const moveStep: Processor = {
  name: 'move into place',
  async run(ctx) {
    const staged = need(ctx.stagingDir, 'staging folder');
    // After the hook, so the record's base is exactly what lands in the project (fw-gen update merges from it).
    addBaseToStagedRecord(staged);
    ctx.files = listFiles(staged);
    if (ctx.request.dryRun) return `dry run: ${ctx.files.length} files would be written to ${ctx.destination}`;
    const destination = need(ctx.destination, 'destination');
    checkDestination(destination, ctx.request.force === true);
    moveIntoPlace(staged, destination);
    return `${ctx.files.length} files written to ${destination}`;
  },
};

export const PROCESSORS: readonly Processor[] = [
  loadStep,
  versionGateStep,
  inputValidationStep,
  stagingStep,
  initHookStep,
  moveStep,
];
