/**
 * Why a mapper statement does not load, as a {@link ConfigError} that also says which kind of
 * problem it is, so the mapper check command (and a team planning a migration) can tell a
 * deliberate refusal from a gap in MyBatis compatibility and from a plain mistake.
 */
import { ConfigError, isConfigError } from '@fw/core';

/**
 * - `refused`: refused by design (a write statement, a runtime `${...}`, a nested select): the
 *   message says why and what to write instead.
 * - `unsupported`: MyBatis accepts it, this engine does not (yet).
 * - `invalid`: a mistake MyBatis would refuse too (unknown fragment, missing attribute, bad XML).
 */
export type MapperProblemKind = 'refused' | 'unsupported' | 'invalid';

/** A load-time problem of a mapper file, a statement or something a statement uses. */
export class MapperLoadError extends ConfigError {
  /** 1-based line in the mapper file, for problems of the file itself (when known). */
  readonly line?: number;

  constructor(
    readonly kind: MapperProblemKind,
    message: string,
    options?: { cause?: unknown; line?: number },
  ) {
    super(message, options);
    this.name = 'MapperLoadError';
    if (options?.line !== undefined) this.line = options.line;
  }
}

/** The kind of `error` (a ConfigError that is not a MapperLoadError counts as `invalid`). */
export function problemKindOf(error: unknown): MapperProblemKind {
  return error instanceof MapperLoadError ? error.kind : 'invalid';
}

/** The same problem, its message prefixed (e.g. with the statement that uses a broken result map). */
export function withContext(error: unknown, prefix: string, line?: number): MapperLoadError {
  const message = isConfigError(error) || error instanceof Error ? error.message : String(error);
  return new MapperLoadError(
    problemKindOf(error),
    `${prefix}${message}`,
    line === undefined ? { cause: error } : { cause: error, line },
  );
}

/**
 * One ConfigError for a list of problems: the problem itself when there is one, else a count and
 * one line per problem (the form the registry uses for unresolved references).
 */
export function combinedProblems(problems: readonly ConfigError[], what: string): ConfigError | undefined {
  if (problems.length === 0) return undefined;
  if (problems.length === 1) return problems[0];
  return new ConfigError(`${problems.length} ${what}:\n- ${problems.map((p) => p.message).join('\n- ')}`);
}
