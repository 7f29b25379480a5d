/**
 * Command-line parsing of fw-gen. Modes are exclusive; options may go with any mode.
 */
import { GeneratorError, GeneratorErrorCodes } from '../errors';

export type CliMode =
  | { kind: 'interactive' }
  | { kind: 'sample'; blueprint: string; output: string }
  | { kind: 'generate'; input: string }
  | { kind: 'emit-config' }
  | { kind: 'list' }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'portal'; port: number; host: string }
  | { kind: 'update'; projectDir: string; check: boolean };

export interface CliArgs {
  mode: CliMode;
  blueprintDirs: string[];
  config?: string;
  force: boolean;
  dryRun: boolean;
}

export const USAGE = `usage: fw-gen                                   interactive: a configuration, a blueprint, its prompts
       fw-gen -g <blueprint> -o <file>.json    write a sample input (every field with its default)
       fw-gen -f <file>.json                   generate from an input file
       fw-gen -e                               write the generator configuration to ./config/generator.json
       fw-gen --list                           the blueprints there are
       fw-gen portal [--port N] [--host H]     the web portal (default 127.0.0.1:8090)
       fw-gen update [DIR]                     merge what the installed blueprint generates now into a generated project
       fw-gen update --check [DIR]             exit 1 when the project differs from what its answers generate now
       (in the workspace checkout: npm run gen -- …)

options:
  --blueprints DIR   more blueprints (a blueprint folder or a folder of them); repeatable
  -c, --config FILE  the generator configuration (default ./config/generator.json when it exists)
  --force            write into a non-empty destination (and let -e / -o overwrite their file)
  --dry-run          print the file tree a generation would write (update: the summary); write nothing
  -h, --help         this text
  --version          the version of @fw/generator

exit codes: 0 done, 1 refused (the message says what to fix; update: conflicts left, --check: drift), 2 usage`;

function usage(message: string): GeneratorError {
  return new GeneratorError(GeneratorErrorCodes.USAGE, message);
}

const VALUE_FLAGS = new Set(['-g', '-o', '-f', '-c', '--config', '--blueprints', '--port', '--host']);
const BOOLEAN_FLAGS = new Set(['-e', '--list', '-h', '--help', '--version', '--force', '--dry-run', '--check']);

function collect(argv: readonly string[]): {
  values: Map<string, string[]>;
  flags: Set<string>;
  positionals: string[];
} {
  const values = new Map<string, string[]>();
  const flags = new Set<string>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (VALUE_FLAGS.has(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || value === '' || (eq < 0 && value.startsWith('-')))
        throw usage(`${name} needs a value`);
      values.set(name, [...(values.get(name) ?? []), value]);
    } else if (BOOLEAN_FLAGS.has(arg)) flags.add(arg);
    else if (arg.startsWith('-')) throw usage(`unknown option '${arg}'`);
    else positionals.push(arg);
  }
  return { values, flags, positionals };
}

function modeOf(values: Map<string, string[]>, flags: Set<string>, positionals: string[]): CliMode {
  const one = (flag: string): string | undefined => values.get(flag)?.[0];
  const chosen = [
    one('-g') !== undefined,
    one('-f') !== undefined,
    flags.has('-e'),
    flags.has('--list'),
    positionals.length > 0,
  ].filter(Boolean).length;
  if (chosen > 1) throw usage('give one mode: -g/-o, -f, -e, --list, portal or update');
  if (flags.has('--check') && positionals[0] !== 'update') throw usage('--check goes with update');
  if (positionals[0] === 'update') {
    if (positionals.length > 2) throw usage(`update takes at most one folder, got '${positionals.slice(1).join(' ')}'`);
    return { kind: 'update', projectDir: positionals[1] ?? '.', check: flags.has('--check') };
  }
  if (positionals.length > 0) {
    if (positionals[0] !== 'portal' || positionals.length > 1)
      throw usage(`unknown command '${positionals.join(' ')}'`);
    const port = Number(one('--port') ?? '8090');
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw usage(`--port must be a port number, got '${one('--port')}'`);
    return { kind: 'portal', port, host: one('--host') ?? '127.0.0.1' };
  }
  const blueprint = one('-g');
  if (blueprint !== undefined) {
    const output = one('-o');
    if (output === undefined) throw usage('-g needs -o <file>.json: where to write the sample input');
    return { kind: 'sample', blueprint, output };
  }
  if (one('-o') !== undefined) throw usage('-o goes with -g <blueprint>');
  const input = one('-f');
  if (input !== undefined) return { kind: 'generate', input };
  if (flags.has('-e')) return { kind: 'emit-config' };
  if (flags.has('--list')) return { kind: 'list' };
  return { kind: 'interactive' };
}

/** @throws GeneratorError USAGE (exit 2) naming what is wrong. */
export function parseArgs(argv: readonly string[]): CliArgs {
  const { values, flags, positionals } = collect(argv);
  const common = {
    blueprintDirs: values.get('--blueprints') ?? [],
    config: values.get('-c')?.[0] ?? values.get('--config')?.[0],
    force: flags.has('--force'),
    dryRun: flags.has('--dry-run'),
  };
  if (flags.has('-h') || flags.has('--help')) return { mode: { kind: 'help' }, ...common };
  if (flags.has('--version')) return { mode: { kind: 'version' }, ...common };
  return { mode: modeOf(values, flags, positionals), ...common };
}
