/**
 * The mapper check: loads a set of mapper XML files as the query service would at startup (one
 * registry, includes and result maps linked across namespaces) and says, per statement, whether
 * it loads, is refused by design, uses something not supported, or has a mistake — instead of
 * stopping at the first problem, so a team sees its whole migration at once.
 */
import { type ConfigError } from '@fw/core';
import { readFile } from 'node:fs/promises';
import { type MapperProblemKind, problemKindOf } from '../mapper/mapper-load-error';
import { type DeclaredStatement, type MapperAnalysis, analyzeMapperXml } from '../mapper/mapper-parser';
import { MapperRegistry } from '../mapper/mapper-registry';

/** What happened to one statement. */
export type StatementStatus = 'loads' | MapperProblemKind;

/** One statement of one file. */
export interface StatementCheck {
  /** The file as it was named to the check (relative to the working folder when under it). */
  readonly file: string;
  /** 1-based line of the statement's element (0 when unknown). */
  readonly line: number;
  readonly element: DeclaredStatement['element'];
  /** `<namespace>.<id>`. */
  readonly id: string;
  readonly status: StatementStatus;
  /** Why it does not load (absent when it loads). */
  readonly reason?: string;
}

/** A problem of a file as a whole: none of its statements loads. */
export interface FileProblem {
  readonly file: string;
  readonly line: number;
  readonly kind: MapperProblemKind;
  readonly reason: string;
}

export interface MapperCheckReport {
  readonly files: number;
  readonly statements: readonly StatementCheck[];
  readonly fileProblems: readonly FileProblem[];
}

/** `message` without the `<source>: ` and `select '<id>' ` it starts with (the report line says both). */
function reasonText(message: string, source: string, statement?: DeclaredStatement): string {
  let reason = message.startsWith(`${source}: `) ? message.slice(source.length + 2) : message;
  if (statement && reason.startsWith(`${statement.element} '${statement.id}' `))
    reason = reason.slice(statement.element.length + statement.id.length + 4);
  return reason;
}

interface LoadedFile {
  readonly file: string;
  readonly analysis: MapperAnalysis;
  /** File problems, plus the registry's refusal of a namespace loaded twice. */
  readonly problems: FileProblem[];
}

async function analyzeFile(path: string, file: string): Promise<LoadedFile> {
  let analysis: MapperAnalysis;
  try {
    analysis = await analyzeMapperXml(await readFile(path, 'utf8'), file);
  } catch (error) {
    // Not `instanceof Error`: errors of node's fs may come from another realm (vm contexts, Jest).
    const message =
      typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : String(error);
    const reason = `cannot be read: ${message}`;
    return {
      file,
      analysis: { source: file, fileProblems: [], statements: [] },
      problems: [{ file, line: 0, kind: 'invalid', reason }],
    };
  }
  const problems = analysis.fileProblems.map((p) => ({
    file,
    line: p.line ?? 0,
    kind: p.kind,
    reason: reasonText(p.message, file),
  }));
  return { file, analysis, problems };
}

function statementChecks(loaded: LoadedFile, linkProblems: ReadonlyMap<string, ConfigError>): StatementCheck[] {
  const namespace = loaded.analysis.document?.namespace ?? '?';
  const fileProblem = loaded.problems[0];
  return loaded.analysis.statements.map((statement): StatementCheck => {
    const id = `${namespace}.${statement.id}`;
    const base = { file: loaded.file, line: statement.line ?? 0, element: statement.element, id };
    if (statement.problem)
      return {
        ...base,
        status: statement.problem.kind,
        reason: reasonText(statement.problem.message, loaded.file, statement),
      };
    if (fileProblem)
      return {
        ...base,
        status: fileProblem.kind,
        reason: `the file does not load (line ${fileProblem.line}: ${fileProblem.reason})`,
      };
    const linkProblem = linkProblems.get(id);
    if (linkProblem)
      return {
        ...base,
        status: problemKindOf(linkProblem),
        reason: reasonText(linkProblem.message, loaded.file, statement),
      };
    return { ...base, status: 'loads' };
  });
}

/**
 * Checks mapper files.
 *
 * @param files - `[path to read, name to report]` pairs, in the order to report them.
 * @example
 * const report = await checkMapperFiles([['/abs/mappers/books.xml', 'mappers/books.xml']]);
 * report.statements.filter((s) => s.status !== 'loads');
 */
export async function checkMapperFiles(files: readonly (readonly [string, string])[]): Promise<MapperCheckReport> {
  const loaded = await Promise.all(files.map(([path, name]) => analyzeFile(path, name)));
  const registry = new MapperRegistry();
  const loadable = loaded.filter((entry) => entry.analysis.document !== undefined && entry.problems.length === 0);
  const refused = registry.addAll(
    loadable.flatMap((entry) => (entry.analysis.document ? [entry.analysis.document] : [])),
  );
  for (const { document, error } of refused) {
    const entry = loadable.find((candidate) => candidate.analysis.document === document);
    entry?.problems.push({ file: entry.file, line: 1, kind: 'invalid', reason: reasonText(error.message, entry.file) });
  }
  const linkProblems = registry.linkProblems();
  return {
    files: files.length,
    statements: loaded.flatMap((entry) => statementChecks(entry, linkProblems)),
    fileProblems: loaded.flatMap((entry) => entry.problems),
  };
}
