/**
 * Interactive mode: pick a configuration, then a blueprint, then answer its prompts — defaults
 * shown and taken on Enter, `visibleWhen` honoured (a hidden prompt is not asked), validValues as
 * a list, every answer checked as it is typed (a processSpec file is checked by its rules at once).
 */
import { confirm, input, select } from '@inquirer/prompts';
import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { checkField, defaultOf, isVisible, readDocument, type Answers } from '../blueprint/answers';
import type { AnswerValue, InputField } from '../blueprint/descriptor';
import { loadConfig } from '../config/generator-config';
import { isGeneratorError } from '../errors';
import type { GenerationRequest } from '../processors/context';
import { DOCUMENT_FORMATS } from '../processors/formats';
import type { CliEnv, Choice, PromptApi } from './cli-env';

export const inquirerPrompts: PromptApi = { select, input, confirm };

function configChoices(cwd: string): Choice[] {
  const dir = path.join(cwd, 'config');
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => /^generator.*\.json$/.test(f))
        .sort()
    : [];
  return [
    ...files.map((f) => ({ name: `config/${f}`, value: path.join(dir, f) })),
    { name: 'built-in defaults', value: '' },
  ];
}

function validatorOf(field: InputField, baseDir: string): (value: string) => string | true {
  return (value) => {
    const answer: AnswerValue = field.type === 'json' ? safeJson(value) : value;
    const problem = checkField(field, answer, baseDir);
    if (problem) return problem;
    const format = field.format ? DOCUMENT_FORMATS[field.format] : undefined;
    if (!format) return true;
    try {
      format.parse(readDocument(field, answer, baseDir), value);
      return true;
    } catch (err) {
      return isGeneratorError(err) ? err.message : String(err);
    }
  };
}

function safeJson(text: string): AnswerValue {
  try {
    return JSON.parse(text) as AnswerValue;
  } catch {
    return text;
  }
}

async function ask(
  prompts: PromptApi,
  field: InputField,
  fallback: AnswerValue | undefined,
  baseDir: string,
): Promise<AnswerValue> {
  const message = `${field.description} (${field.name})`;
  if (field.type === 'boolean') return prompts.confirm({ message, default: fallback === true });
  if (field.type === 'enum') {
    const choices = (field.validValues ?? []).map((v) => ({ name: v, value: v }));
    return prompts.select({ message, choices, default: typeof fallback === 'string' ? fallback : undefined });
  }
  const shown =
    fallback === undefined || fallback === null
      ? undefined
      : typeof fallback === 'string'
        ? fallback
        : JSON.stringify(fallback);
  const text = await prompts.input({ message, default: shown, validate: validatorOf(field, baseDir) });
  return field.type === 'json' ? safeJson(text) : text;
}

/** Asks everything and returns the request to generate. */
export async function runInteractive(env: CliEnv, prompts: PromptApi = inquirerPrompts): Promise<GenerationRequest> {
  const configFile = await prompts.select({ message: 'Configuration', choices: configChoices(env.io.cwd) });
  if (configFile) Object.assign(env.config, loadConfig(configFile, env.io.cwd).config);
  const blueprints = env.catalog.list();
  const name = await prompts.select({
    message: 'Blueprint',
    choices: blueprints.map((b) => ({
      name: b.descriptor.name,
      value: b.descriptor.name,
      description: b.descriptor.description,
    })),
  });
  const blueprint = env.catalog.get(name);
  const answers: Answers = {};
  for (const field of blueprint.descriptor.inputFields) {
    if (!isVisible(field, answers)) continue;
    answers[field.name] = await ask(prompts, field, defaultOf(field, answers, env.config), env.io.cwd);
  }
  return { blueprint: name, answers, baseDir: env.io.cwd };
}
