/**
 * The text of the mapper check: one line per statement (`file:line: element id: status`), one per
 * problem of a whole file, and a summary. Lines are sorted by file and line, so two runs over
 * the same folder print the same text.
 */
import { type MapperProblemKind } from '../mapper/mapper-load-error';
import { type FileProblem, type MapperCheckReport, type StatementCheck, type StatementStatus } from './mapper-check';

const STATUS_TEXT: Readonly<Record<StatementStatus, string>> = {
  loads: 'loads',
  refused: 'refused by design',
  unsupported: 'unsupported',
  invalid: 'invalid',
};

function statementLine(check: StatementCheck): string {
  const where = `${check.file}:${check.line}: ${check.element} ${check.id}`;
  return check.reason === undefined
    ? `${where}: ${STATUS_TEXT[check.status]}`
    : `${where}: ${STATUS_TEXT[check.status]}: ${check.reason}`;
}

function fileLine(problem: FileProblem): string {
  return `${problem.file}:${problem.line}: the file does not load: ${STATUS_TEXT[problem.kind]}: ${problem.reason}`;
}

/** True when every statement loads and no file has a problem of its own. */
export function everythingLoads(report: MapperCheckReport): boolean {
  return report.fileProblems.length === 0 && report.statements.every((s) => s.status === 'loads');
}

/**
 * The report's lines.
 *
 * @param onlyProblems - leave out the statements that load (the summary still counts them).
 */
export function reportLines(report: MapperCheckReport, onlyProblems = false): string[] {
  const entries: { file: string; line: number; text: string }[] = [
    ...report.fileProblems.map((p) => ({ file: p.file, line: p.line, text: fileLine(p) })),
    ...report.statements
      .filter((s) => !onlyProblems || s.status !== 'loads')
      .map((s) => ({ file: s.file, line: s.line, text: statementLine(s) })),
  ];
  entries.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  return entries.map((entry) => entry.text);
}

/** E.g. `12 statements in 3 files: 9 load, 1 refused by design, 1 unsupported, 1 invalid; 1 file does not load (41 ms)`. */
export function summaryLine(report: MapperCheckReport, millis: number): string {
  const counts: Record<StatementStatus, number> = { loads: 0, refused: 0, unsupported: 0, invalid: 0 };
  for (const check of report.statements) counts[check.status]++;
  const kinds: MapperProblemKind[] = ['refused', 'unsupported', 'invalid'];
  const parts = [
    `${counts.loads} load`,
    ...kinds.filter((k) => counts[k] > 0).map((k) => `${counts[k]} ${STATUS_TEXT[k]}`),
  ];
  const brokenFiles = new Set(report.fileProblems.map((p) => p.file)).size;
  const files = `${report.files} file${report.files === 1 ? '' : 's'}`;
  const broken = brokenFiles === 0 ? '' : `; ${brokenFiles} file${brokenFiles === 1 ? ' does' : 's do'} not load`;
  return `${report.statements.length} statement${report.statements.length === 1 ? '' : 's'} in ${files}: ${parts.join(', ')}${broken} (${Math.round(millis)} ms)`;
}
