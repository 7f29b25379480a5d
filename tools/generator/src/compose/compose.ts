/**
 * Composition (fw-ecosystem): a blueprint's `compose` entries generate other blueprints, each in
 * isolation through the whole processor chain (its own version gate, validation, staging and
 * hook), into the composing blueprint's staging folder. Then the root `package.json` becomes the
 * npm-workspaces root of them all: a composed project that is itself a workspaces root contributes
 * its workspaces (`shop/shop-api`, `shop/shop-service`) and its root devDependencies (the shared
 * `@fw` packages); any other contributes its folder. Strings may name answers in a case:
 * `${service:kebab}`, `${service:pascal}`. Any failure throws, so the outer staging
 * folder is dropped and nothing reaches the destination.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { interpolate, type Answers } from '../blueprint/answers';
import type { AnswerValue, ComposeEntry } from '../blueprint/descriptor';
import { GeneratorError, GeneratorErrorCodes } from '../errors';
import type { GenerationContext } from '../processors/context';
import { camelCase, kebabCase, pascalCase } from '../render/names';

interface PackageJson {
  workspaces?: string[];
  devDependencies?: Record<string, string>;
  [key: string]: unknown;
}

const CASES: Record<string, (value: string) => string> = { kebab: kebabCase, pascal: pascalCase, camel: camelCase };

/** `${name}` as in defaults, plus `${name:kebab}`, `${name:pascal}`, `${name:camel}` (package and export names). */
export function interpolateComposed(template: string, answers: Answers, ctx: GenerationContext): string {
  const cased = template.replace(
    /\$\{([A-Za-z][A-Za-z0-9_]*):(kebab|pascal|camel)\}/g,
    (_m, key: string, kind: string) => CASES[kind](interpolate(`\${${key}}`, answers, ctx.config)),
  );
  return interpolate(cased, answers, ctx.config);
}

function resolveValue(value: AnswerValue, answers: Answers, ctx: GenerationContext): AnswerValue {
  if (typeof value === 'string') return interpolateComposed(value, answers, ctx);
  if (Array.isArray(value)) return value.map((v) => resolveValue(v, answers, ctx));
  return value;
}

function applies(entry: ComposeEntry, answers: Answers): boolean {
  return Object.entries(entry.when ?? {}).every(([key, expected]) => String(answers[key]) === String(expected));
}

function readPackage(file: string): PackageJson {
  return JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
}

/** Generates each applicable entry into `stagingDir`; answers the folders (relative) in order. */
export async function composeProjects(
  ctx: GenerationContext,
  entries: readonly ComposeEntry[],
  stagingDir: string,
  answers: Answers,
): Promise<string[]> {
  const folders: string[] = [];
  for (const entry of entries.filter((e) => applies(e, answers))) {
    const folder = interpolateComposed(entry.folder, answers, ctx);
    const composedAnswers = Object.fromEntries(
      Object.entries(entry.answers ?? {}).map(([k, v]) => [k, resolveValue(v, answers, ctx)]),
    );
    try {
      await ctx.generateComposed({
        blueprint: entry.blueprint,
        answers: { ...composedAnswers, destFolder: folder },
        cwd: stagingDir,
        baseDir: stagingDir,
      });
    } catch (err) {
      const problems = err instanceof GeneratorError ? err.problems : [];
      throw new GeneratorError(
        GeneratorErrorCodes.RENDER_FAILED,
        `composed project ${folder} (${entry.blueprint}) failed, nothing was written: ${(err as Error).message}`,
        problems,
      );
    }
    folders.push(folder);
  }
  workspacesRoot(stagingDir, folders);
  return folders;
}

/** Makes the staged root package.json list every composed package as a workspace, in order. */
function workspacesRoot(stagingDir: string, folders: readonly string[]): void {
  const rootFile = path.join(stagingDir, 'package.json');
  if (!existsSync(rootFile)) return;
  const root = readPackage(rootFile);
  const workspaces = [...(root.workspaces ?? [])];
  const devDependencies = { ...(root.devDependencies ?? {}) };
  for (const folder of folders) {
    const composed = readPackage(path.join(stagingDir, folder, 'package.json'));
    if (composed.workspaces) {
      workspaces.push(...composed.workspaces.map((w) => `${folder}/${w}`));
      Object.assign(devDependencies, composed.devDependencies ?? {});
    } else workspaces.push(folder);
  }
  const sorted = Object.fromEntries(Object.entries(devDependencies).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(rootFile, `${JSON.stringify({ ...root, workspaces, devDependencies: sorted }, null, 2)}\n`);
}
