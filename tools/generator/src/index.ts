// Public entry point of @fw/generator: the engine (catalogue, processor chain), the CLI and the
// processSpec rules, for tools that generate in-process (the portal, benchmarks, other CLIs).
// Every export is listed explicitly.
export { GeneratorError, GeneratorErrorCodes, isGeneratorError, exitCodeOf } from './errors';
export type { GeneratorErrorCode } from './errors';
export { makeBlueprintCatalog, loadBlueprint, BUILTIN_BLUEPRINTS_DIR, DESCRIPTOR_PATH } from './blueprint/catalog';
export type { Blueprint, BlueprintCatalog } from './blueprint/catalog';
export type {
  BlueprintDescriptor,
  InputField,
  InputFieldType,
  InputFieldFormat,
  InitHookDescriptor,
  AnswerValue,
} from './blueprint/descriptor';
export { resolveAnswers, sampleAnswers, defaultOf, isVisible, interpolate } from './blueprint/answers';
export type { Answers } from './blueprint/answers';
export {
  DEFAULT_CONFIG,
  DEFAULT_CONFIG_FILE,
  FW_PACKAGES_VERSION,
  loadConfig,
  parseConfig,
  emitConfig,
  compareVersions,
} from './config/generator-config';
export type { GeneratorConfig } from './config/generator-config';
export { makeGenerator } from './processors/generator';
export type { Generator, GeneratorOptions } from './processors/generator';
export {
  PROCESSORS,
  loadStep,
  versionGateStep,
  inputValidationStep,
  stagingStep,
  initHookStep,
  moveStep,
} from './processors/steps';
export { RECORD_FILE } from './processors/context';
export type {
  GenerationRequest,
  GenerationResult,
  GenerationContext,
  GenerationRecord,
  Processor,
} from './processors/context';
export { renderTree, listFiles, formatTree, isBinary } from './render/render-tree';
export { renderSegment } from './render/paths';
export { pascalCase, camelCase, kebabCase, constantCase } from './render/names';
export { parseProcessSpec, processSpecProblems } from './process-spec/parse-process-spec';
export type {
  ProcessSpec,
  ProcessSpecProcess,
  CronTriggerSpec,
  FieldType,
  Implementation,
} from './process-spec/process-spec';
export { parseBatchHierarchy } from './batch/batch-hierarchy';
export { runCli } from './cli/cli';
export type { CliIo } from './cli/cli-env';
export { USAGE, parseArgs } from './cli/args';
export type { PromptApi } from './cli/cli-env';
export { writeSampleInput, readInputFile } from './cli/input-file';
export { runPortal } from './portal/portal-server';
export { updateProject, checkProject, formatUpdateReport, formatCheckReport } from './update/update';
export type { UpdateOptions, UpdateReport, CheckReport } from './update/update';
export type { FileOutcome, UpdateStatus } from './update/plan';
export type { MergePort, MergeResult, MergeLabels, WorkTreePort, WorkTreeState } from './update/git';
