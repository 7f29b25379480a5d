/**
 * Input files of `-f` and `-g … -o`: `{ "blueprint": "<name>", "answers": { … } }`. Relative file
 * answers (a processSpec) are relative to the input file's folder, so a folder with the input file
 * and its documents can be moved as a whole.
 */
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { sampleAnswers, type Answers } from '../blueprint/answers';
import { insideBlueprint, type Blueprint } from '../blueprint/catalog';
import type { GeneratorConfig } from '../config/generator-config';
import { GeneratorError, GeneratorErrorCodes } from '../errors';
import { isObject } from '../process-spec/validate-structure';

export interface InputFile {
  blueprint: string;
  answers: Answers;
}

/** @throws GeneratorError INPUT_INVALID when the file is not readable or not of that shape. */
export function readInputFile(file: string): InputFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new GeneratorError(
      GeneratorErrorCodes.INPUT_INVALID,
      `${file}: not readable JSON (${(err as Error).message}); write one with fw-gen -g <blueprint> -o ${path.basename(file)}`,
    );
  }
  if (!isObject(raw) || typeof raw.blueprint !== 'string' || !isObject(raw.answers)) {
    throw new GeneratorError(
      GeneratorErrorCodes.INPUT_INVALID,
      `${file}: an input file is { "blueprint": "<name>", "answers": { … } }; write one with fw-gen -g <blueprint> -o ${path.basename(file)}`,
    );
  }
  return { blueprint: raw.blueprint, answers: raw.answers as Answers };
}

/**
 * Writes the sample input of a blueprint and, for file fields with a `sample`, the sample document
 * next to it under the field's default name, so the sample generates as written.
 * @returns the files written.
 */
export function writeSampleInput(
  blueprint: Blueprint,
  config: GeneratorConfig,
  output: string,
  force: boolean,
): string[] {
  if (existsSync(output) && !force)
    throw new GeneratorError(
      GeneratorErrorCodes.DESTINATION_NOT_EMPTY,
      `${output} exists: choose another file, or give --force to overwrite it`,
    );
  const answers = sampleAnswers(blueprint.descriptor, config);
  const written = [output];
  for (const field of blueprint.descriptor.inputFields) {
    const value = answers[field.name];
    if (field.type !== 'file' || !field.sample || typeof value !== 'string') continue;
    const target = path.resolve(path.dirname(output), value);
    if (!existsSync(target) || force) {
      copyFileSync(insideBlueprint(blueprint.dir, field.sample), target);
      written.push(target);
    }
  }
  writeFileSync(output, `${JSON.stringify({ blueprint: blueprint.descriptor.name, answers }, null, 2)}\n`);
  return written;
}
