/**
 * The `statesXml` document format (a `file` field of wfcustom): the states XML `@fw/stm` reads at run
 * time, checked during input validation by `@fw/stm`'s own reader and validator — malformed XML, a
 * broken structure, an unknown target, no initial state, an unreachable state… each named with its
 * line — so nothing is written for a document the generated service could not load. Warnings count
 * as errors here: a generated service whose states cannot be reached, or cannot reach an end, is a
 * mistake in the document, not a configuration choice. Its view gives the templates the document
 * in the three shapes the activity prompt selects, and the names the generated code registers.
 */
import {
  checkFlowsXml,
  type CheckedFlowsXml,
  type FlowDefinition,
  type FlowIssue,
  type StateDefinition,
} from '@fw/stm';
import { GeneratorError, GeneratorErrorCodes } from '../errors';

/** Where an `<activity>` element is in the text (`[start, end)`, and just after its name). */
interface ActivitySpan {
  start: number;
  end: number;
  afterName: number;
  /** Whether the XML says `mandatory="…"` itself (the activity prompt fills in the rest). */
  explicit: boolean;
}

/** A checked states XML: its text as written, its flows and where its activities are. */
export interface StatesDocument {
  text: string;
  flows: FlowDefinition[];
  activities: ActivitySpan[];
}

function invalid(source: string, problems: string[]): GeneratorError {
  return new GeneratorError(
    GeneratorErrorCodes.SPEC_INVALID,
    `${source} is not a valid states XML; nothing was written`,
    problems,
  );
}

/** The generator's own rule: with several flows, one is the default (the one `POST /<svc>` starts). */
function defaultFlowProblem(checked: CheckedFlowsXml): FlowIssue | undefined {
  const { flows } = checked;
  if (flows.length < 2 || flows.some((f) => f.isDefault === true)) return undefined;
  return {
    code: 'NO_DEFAULT_FLOW',
    message: `with ${flows.length} flows, mark the one new entities start in default="true"`,
    line: checked.elementOf(flows[0])?.line ?? 1,
  };
}

function activitySpans(checked: CheckedFlowsXml): ActivitySpan[] {
  const spans: ActivitySpan[] = [];
  for (const activity of checked.flows.flatMap((f) => f.states.flatMap((s) => s.activities ?? []))) {
    const el = checked.elementOf(activity);
    if (el !== undefined)
      spans.push({ start: el.start, end: el.end, afterName: el.afterName, explicit: el.attrs.has('mandatory') });
  }
  return spans;
}

/** Checks a states XML document. @throws GeneratorError SPEC_INVALID, one problem per line found. */
export function parseStatesXml(raw: unknown, source: string): StatesDocument {
  if (typeof raw !== 'string')
    throw invalid(source, ['the document must be the text of a states XML file (a path to it in the answers)']);
  const checked = checkFlowsXml(raw, { strict: true });
  const extra = checked.errors.length === 0 ? defaultFlowProblem(checked) : undefined;
  const problems = [...checked.errors, ...(extra === undefined ? [] : [extra])];
  if (problems.length > 0)
    throw invalid(
      source,
      problems.map((p) => `line ${p.line ?? 1}: ${p.message}`),
    );
  return { text: raw, flows: checked.flows, activities: activitySpans(checked) };
}

/** The activities from the last to the first, so that editing one leaves the offsets of the others. */
function activitiesOf(doc: StatesDocument): ActivitySpan[] {
  return [...doc.activities].sort((a, b) => b.start - a.start);
}

/** The document with every activity that does not say otherwise made mandatory. */
export function withMandatoryActivities(doc: StatesDocument): string {
  let text = doc.text;
  for (const a of activitiesOf(doc))
    if (!a.explicit) text = `${text.slice(0, a.afterName)} mandatory="true"${text.slice(a.afterName)}`;
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
  const events = (s: StateDefinition) => s.events ?? [];
  const branches = (s: StateDefinition) => s.transitions ?? [];
  const actions = named(
    states.flatMap((s) => [
      ...(s.onEntry ?? []),
      ...(s.onExit ?? []),
      ...events(s).flatMap((e) => (e.action ? [e.action] : [])),
      ...branches(s).flatMap((b) => (b.action ? [b.action] : [])),
    ]),
  );
  const conditions = named(
    states.flatMap((s) => branches(s).flatMap((b) => (b.condition ? [b.condition.replace(/^!/, '').trim()] : []))),
  );
  const switches = named(
    states.flatMap((s) =>
      [s.enabledBy, ...events(s).map((e) => e.enabledBy), ...branches(s).map((b) => b.enabledBy)].filter(
        (p): p is string => p !== undefined,
      ),
    ),
  );
  const defaultFlow = doc.flows.find((f) => f.isDefault === true) ?? doc.flows[0];
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
    hasActivities: doc.activities.length > 0,
  };
}
