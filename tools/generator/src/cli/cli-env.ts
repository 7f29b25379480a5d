/**
 * What the modes of `fw-gen` (generation, interactive prompts, update) are given: the terminal,
 * the prompts and the parsed command line, in a module of their own so that each mode can take
 * them without importing the command line itself.
 */
import type { BlueprintCatalog } from '../blueprint/catalog';
import type { GeneratorConfig } from '../config/generator-config';
import type { CliArgs } from './args';

export interface Choice {
  name: string;
  value: string;
  description?: string;
}

/** The three prompt kinds used; tests give scripted ones (see test/cli-interactive.test.ts). */
export interface PromptApi {
  select(config: { message: string; choices: Choice[]; default?: string }): Promise<string>;
  input(config: { message: string; default?: string; validate?: (value: string) => string | true }): Promise<string>;
  confirm(config: { message: string; default?: boolean }): Promise<boolean>;
}

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  cwd: string;
  /** The prompts of interactive mode (default: @inquirer/prompts on the terminal). */
  prompts?: PromptApi;
  /** Starts the portal and resolves when it stops (default: the real server). */
  portal?: (options: {
    port: number;
    host: string;
    catalog: BlueprintCatalog;
    config: GeneratorConfig;
    out: (line: string) => void;
  }) => Promise<void>;
}

/** One run of the command line: its arguments, its terminal, the catalogue and configuration it uses. */
export interface CliEnv {
  args: CliArgs;
  io: CliIo;
  catalog: BlueprintCatalog;
  config: GeneratorConfig;
  configSource: string;
}
