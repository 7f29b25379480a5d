import type { Answers } from '../blueprint/answers';
import type { Blueprint, BlueprintCatalog } from '../blueprint/catalog';
import type { GeneratorConfig } from '../config/generator-config';
import type { View } from '../render/paths';

export interface GenerationRequest {
  blueprint: string;
  /** Answers as given (an input file, the prompts, the portal); defaults fill the rest. */
  answers: Answers;
  /** What relative file answers are relative to (the input file's folder). Default `cwd`. */
  baseDir?: string;
  /** What a relative destination is relative to. Default `process.cwd()`. */
  cwd?: string;
  /** Overrides the `destFolder` answer. */
  destination?: string;
  /** Write into an existing non-empty destination (files of the blueprint overwrite, others stay). */
  force?: boolean;
  /** Render and run the hook in staging, print the tree, write nothing at the destination. */
  dryRun?: boolean;
}

/** What the processors build up, step by step. */
export interface GenerationContext {
  readonly request: GenerationRequest;
  readonly config: GeneratorConfig;
  readonly catalog: BlueprintCatalog;
  /**
   * Runs a whole generation of another blueprint through the default chain (the `compose`
   * entries of fw-ecosystem), with this generation's catalogue and configuration.
   */
  readonly generateComposed: (request: GenerationRequest) => Promise<GenerationResult>;
  blueprint?: Blueprint;
  answers?: Answers;
  /** Parsed documents of `file`/`json` fields (normalised when they have a format). */
  documents: Record<string, unknown>;
  view?: View;
  destination?: string;
  /** The staging folder (removed at the end, whatever happens). */
  stagingRoot?: string;
  /** The rendered tree inside stagingRoot. */
  stagingDir?: string;
  files?: string[];
}

export interface GenerationResult {
  blueprint: string;
  blueprintVersion: string;
  destination: string;
  files: string[];
  dryRun: boolean;
  millis: number;
}

/** One step of the chain; `run` returns the detail of its progress line. */
export interface Processor {
  readonly name: string;
  run(ctx: GenerationContext): Promise<string>;
}

/** The record of a generation written to `.fw-gen.json`: enough to generate the same bytes again. */
export interface GenerationRecord {
  generator: string;
  generatorVersion: string;
  blueprint: string;
  blueprintVersion: string;
  config: GeneratorConfig;
  answers: Answers;
  documents: Record<string, unknown>;
}

export const RECORD_FILE = '.fw-gen.json';
