/**
 * fw-gen: the modes (interactive, -g/-o, -f, -e) plus --list, --help, portal and update.
 * Returns the exit code: 0 done, 1 refused (the message says what to fix), 2 usage.
 */
import * as path from 'node:path';
import { makeBlueprintCatalog } from '../blueprint/catalog';
import { emitConfig, FW_PACKAGES_VERSION, loadConfig } from '../config/generator-config';
import { exitCodeOf, GeneratorErrorCodes, isGeneratorError } from '../errors';
import { makeGenerator } from '../processors/generator';
import type { GenerationRequest } from '../processors/context';
import { runPortal } from '../portal/portal-server';
import { formatTree } from '../render/render-tree';
import { parseArgs, USAGE } from './args';
import type { CliEnv, CliIo } from './cli-env';
import { readInputFile, writeSampleInput } from './input-file';
import { runInteractive } from './interactive';
import { runUpdate } from '../update/cli-update';

async function generate(env: CliEnv, request: GenerationRequest): Promise<void> {
  const generator = makeGenerator({ catalog: env.catalog, config: env.config, progress: env.io.out });
  const result = await generator.generate({
    ...request,
    force: env.args.force,
    dryRun: env.args.dryRun,
    cwd: env.io.cwd,
  });
  if (result.dryRun) {
    env.io.out(`${result.destination}/ (dry run: nothing written)`);
    env.io.out(formatTree(result.files));
  } else
    env.io.out(
      `generated ${result.blueprint} ${result.blueprintVersion} into ${result.destination} (${result.files.length} files, ${result.millis} ms)`,
    );
}

function list(env: CliEnv): void {
  for (const b of env.catalog.list()) {
    const since = b.descriptor.sinceVersion ? ` (since ${b.descriptor.sinceVersion})` : '';
    env.io.out(`${b.descriptor.name.padEnd(24)} ${b.version.padEnd(8)} ${b.descriptor.description}${since}`);
  }
}

/** @returns an exit code when the mode has one of its own (update: 1 for conflicts or drift). */
async function runMode(env: CliEnv): Promise<number | void> {
  const { mode } = env.args;
  const resolve = (p: string): string => path.resolve(env.io.cwd, p);
  switch (mode.kind) {
    case 'list':
      return list(env);
    case 'emit-config':
      env.io.out(
        `wrote ${emitConfig(env.config, env.io.cwd, env.args.force)} (from ${env.configSource}); edit it, later runs here read it`,
      );
      return;
    case 'sample': {
      const written = writeSampleInput(
        env.catalog.get(mode.blueprint),
        env.config,
        resolve(mode.output),
        env.args.force,
      );
      env.io.out(`wrote ${written.join(', ')}; edit it, then: fw-gen -f ${mode.output}`);
      return;
    }
    case 'generate': {
      const file = resolve(mode.input);
      const input = readInputFile(file);
      return generate(env, { blueprint: input.blueprint, answers: input.answers, baseDir: path.dirname(file) });
    }
    case 'interactive': {
      const request = await runInteractive(env, env.io.prompts);
      return generate(env, request);
    }
    case 'update':
      return runUpdate(env, resolve(mode.projectDir), mode.check);
    case 'portal': {
      const start = env.io.portal ?? runPortal;
      return start({ port: mode.port, host: mode.host, catalog: env.catalog, config: env.config, out: env.io.out });
    }
    default:
      return;
  }
}

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const args = parseArgs(argv);
    if (args.mode.kind === 'help') {
      io.out(USAGE);
      return 0;
    }
    if (args.mode.kind === 'version') {
      io.out(FW_PACKAGES_VERSION);
      return 0;
    }
    const { config, source } = loadConfig(args.config ? path.resolve(io.cwd, args.config) : undefined, io.cwd);
    const catalog = makeBlueprintCatalog(args.blueprintDirs.map((d) => path.resolve(io.cwd, d)));
    return (await runMode({ args, io, catalog, config, configSource: source })) ?? 0;
  } catch (err) {
    if (isGeneratorError(err)) {
      io.err(`fw-gen: ${err.message}`);
      if (err.code === GeneratorErrorCodes.USAGE) io.err(USAGE.split('\n')[0]);
    } else if (err instanceof Error && err.name === 'ExitPromptError') {
      io.err('fw-gen: cancelled; nothing was written');
    } else io.err(`fw-gen: unexpected failure: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return exitCodeOf(err);
  }
}
