/**
 * The one error type of the generator. Every refusal carries a stable code (scripts and the portal
 * match on it, never on the wording) and a message that says what to fix. The CLI maps `USAGE` to
 * exit code 2 and every other code to 1.
 */
export const GeneratorErrorCodes = {
  /** Bad command line (unknown flag, missing value). Exit 2. */
  USAGE: 'GEN_USAGE',
  /** No blueprint of that name in the catalogue. */
  BLUEPRINT_NOT_FOUND: 'GEN_BLUEPRINT_NOT_FOUND',
  /** `META-INF/blueprint.json` is unreadable or breaks the descriptor schema. */
  DESCRIPTOR_INVALID: 'GEN_DESCRIPTOR_INVALID',
  /** The generator configuration (`config/generator.json`) is unreadable or invalid. */
  CONFIG_INVALID: 'GEN_CONFIG_INVALID',
  /** The blueprint needs a newer framework than the configured `fwVersion`. */
  VERSION_GATE: 'GEN_VERSION_GATE',
  /** An answer has the wrong type, is not one of the valid values, or is not a safe name. */
  INPUT_INVALID: 'GEN_INPUT_INVALID',
  /** The processSpec (or batch hierarchy) breaks its rules: cycles, dangling references, cron… */
  SPEC_INVALID: 'GEN_SPEC_INVALID',
  /** The destination exists and is not empty (and `--force` was not given). */
  DESTINATION_NOT_EMPTY: 'GEN_DESTINATION_NOT_EMPTY',
  /** A template could not be rendered (Mustache syntax, unreadable file). */
  RENDER_FAILED: 'GEN_RENDER_FAILED',
  /** The blueprint's init hook exited non-zero or could not start. */
  HOOK_FAILED: 'GEN_HOOK_FAILED',
  /** The blueprint's init hook ran past its time limit and was killed. */
  HOOK_TIMEOUT: 'GEN_HOOK_TIMEOUT',
  /** Moving the staged tree into place failed. */
  MOVE_FAILED: 'GEN_MOVE_FAILED',
  /** A path leaves the folder it must stay in (portal workspaces, template entries). */
  PATH_OUTSIDE: 'GEN_PATH_OUTSIDE',
  /** `fw-gen update` refused: a dirty git tree, no git, no or an unreadable `.fw-gen.json`. */
  UPDATE_REFUSED: 'GEN_UPDATE_REFUSED',
} as const;

export type GeneratorErrorCode = (typeof GeneratorErrorCodes)[keyof typeof GeneratorErrorCodes];

export class GeneratorError extends Error {
  readonly code: GeneratorErrorCode;
  /** One line per problem when several were found at once (every bad field, every spec rule). */
  readonly problems: readonly string[];

  constructor(code: GeneratorErrorCode, message: string, problems: readonly string[] = []) {
    super(problems.length > 0 ? `${message}\n  - ${problems.join('\n  - ')}` : message);
    this.name = 'GeneratorError';
    this.code = code;
    this.problems = problems;
  }
}

export function isGeneratorError(value: unknown): value is GeneratorError {
  return value instanceof GeneratorError;
}

/** The CLI's exit code for an error: 2 for usage, 1 for a refused generation. */
export function exitCodeOf(error: unknown): number {
  return isGeneratorError(error) && error.code === GeneratorErrorCodes.USAGE ? 2 : 1;
}
