/**
 * The `statesXml` document format (a `file` field of wfcustom): the states XML `@fw/stm` reads at run
 * time, checked during input validation — malformed XML, a broken structure, an unknown target, no
 * initial state, an unreachable state… each named with its line — so nothing is written for a
 * document the generated service could not load. Its view gives the templates the document in the
 * three shapes the activity prompt selects, and the names the generated code registers.
 */
import { GeneratorError, GeneratorErrorCodes } from '../errors';
import { StatesReader, type StatesActivity, type StatesDocument } from './states-model';
import { checkStatesFlows } from './states-rules';
import { readXml, XmlSyntaxError, type XmlNode } from './xml-reader';

export type { StatesDocument } from './states-model';

function invalid(source: string, problems: string[]): GeneratorError {
  return new GeneratorError(GeneratorErrorCodes.SPEC_INVALID, `${source} is not a valid states XML; nothing was written`, problems);
}

/** Checks a states XML document. @throws GeneratorError SPEC_INVALID, one problem per line found. */
export function parseStatesXml(raw: unknown, source: string): StatesDocument {
  if (typeof raw !== 'string') throw invalid(source, ['the document must be the text of a states XML file (a path to it in the answers)']);
  let root: XmlNode;
  try {
    root = readXml(raw);
  } catch (err) {
    if (err instanceof XmlSyntaxError) throw invalid(source, [`line ${err.line}: malformed XML (column ${err.column}): ${err.message.replace(/^line \d+, column \d+: /, '')}`]);
    throw err;
  }
  const reader = new StatesReader();
  const flows = reader.readRoot(root);
  // Structural problems first: the graph rules would only repeat them in other words.
  const problems = reader.problems.length > 0 ? reader.problems : checkStatesFlows(flows);
  if (problems.length > 0) throw invalid(source, problems);
  return { text: raw, flows };
}

function activitiesOf(doc: StatesDocument): StatesActivity[] {
  return doc.flows.flatMap((f) => f.states.flatMap((s) => s.activities)).sort((a, b) => b.start - a.start);
}

/** The document with every activity that does not say otherwise made mandatory. */
export function withMandatoryActivities(doc: StatesDocument): string {
  let text = doc.text;
  for (const a of activitiesOf(doc)) if (!a.explicit) text = `${text.slice(0, a.afterName)} mandatory="true"${text.slice(a.afterName)}`;
  return text;
}

/** The document without its `<activity>` elements (and without the lines they leave empty). */
export function withoutActivities(doc: StatesDocument): string {
  let text = doc.text;
  for (const a of activitiesOf(doc)) {
    let start = a.start;
    let end = a.end;
    while (start > 0 && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
    let after = end;
    while (after < text.length && (text[after] === ' ' || text[after] === '\t')) after++;
    const ownLine = (start === 0 || text[start - 1] === '\n') && (text[after] === '\n' || after === text.length);
    if (ownLine) end = text[after] === '\n' ? after + 1 : after;
    else start = a.start;
    text = text.slice(0, start) + text.slice(end);
  }
  return text;
}

interface Named {
  name: string;
  /** The name as a TypeScript string literal. */
  literal: string;
}

function named(names: Iterable<string>): Named[] {
  return [...new Set(names)].sort().map((name) => ({ name, literal: JSON.stringify(name) }));
}

/** What a states XML contributes to the view of the wfservice templates. */
export function statesXmlView(doc: StatesDocument): Record<string, unknown> {
  const states = doc.flows.flatMap((f) => f.states);
  const actions = named(states.flatMap((s) => [...s.onEntry, ...s.onExit, ...s.events.flatMap((e) => (e.action ? [e.action] : [])), ...s.branches.flatMap((b) => (b.action ? [b.action] : []))]));
  const conditions = named(states.flatMap((s) => s.branches.flatMap((b) => (b.condition ? [b.condition.replace(/^!/, '').trim()] : []))));
  const switches = named(states.flatMap((s) => [s.enabledBy, ...s.events.map((e) => e.enabledBy), ...s.branches.map((b) => b.enabledBy)].filter((p): p is string => p !== undefined)));
  const defaultFlow = doc.flows.find((f) => f.isDefault) ?? doc.flows[0];
  return {
    statesXml: doc.text,
    statesXmlMandatory: withMandatoryActivities(doc),
    statesXmlWithoutActivities: withoutActivities(doc),
    defaultFlowId: defaultFlow.id,
    flowIds: doc.flows.map((f) => f.id).join(', '),
    stateIds: states.map((s) => s.id).join(', '),
    customActions: actions,
    hasCustomActions: actions.length > 0,
    customConditions: conditions,
    hasCustomConditions: conditions.length > 0,
    enablementSwitches: switches.map((s, i) => ({ ...s, last: i === switches.length - 1 })),
    hasEnablementSwitches: switches.length > 0,
    hasActivities: states.some((s) => s.activities.length > 0),
  };
}
