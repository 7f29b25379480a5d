import { readFile } from 'node:fs/promises';
import { StmError, StmErrorCodes, type FlowIssue } from '../errors/stm-error';
import type { FlowDefinition } from '../model/flow-definition';
import { invalidFlowError, validateFlows, type AssertFlowsOptions } from '../validation/flow-validator';
import { FlowXmlReader } from './flow-xml-reader';
import { readXml, XmlSyntaxError, type XmlElement } from './xml-reader';

/**
 * Reads flows from a states XML document (close in spirit to the Chenile STM XML):
 *
 * ```xml
 * <states>
 *   <flow id="process-flow" default="true">
 *     <auto-state id="isThisLeafNode" initialState="true">
 *       <transition to="EXECUTING" condition="leaf"/>
 *       <transition to="SPLIT_PENDING"/>
 *     </auto-state>
 *     <manual-state id="EXECUTING">
 *       <on-entry action="launchExecutor"/>
 *       <on eventId="doneSuccessfully" newStateId="PROCESSED" action="recordOutput" meta-payload="DoneSuccessfully"/>
 *       <on eventId="statusUpdate" action="recordProgress"/>
 *     </manual-state>
 *     <end-state id="PROCESSED"/>
 *   </flow>
 * </states>
 * ```
 *
 * Unknown elements and attributes are errors (typos would otherwise pass silently); attributes
 * named `meta-<key>` go into `metadata`. Structural problems (unknown elements or attributes,
 * missing ids, several initial states) are collected and reported together; when there are none,
 * the flows are validated ({@link validateFlows}) and all validation errors are reported together
 * the same way. Every problem carries the `line` of the element concerned.
 *
 * @example
 * const { flows, warnings } = await parseFlowsXml(xmlText, { source: 'order-flow.xml' });
 */
export interface ParsedFlows {
  flows: FlowDefinition[];
  /** Validation warnings (unreachable states and the like); empty when `strict`. */
  warnings: FlowIssue[];
}

export type ParseFlowsOptions = Omit<AssertFlowsOptions, 'onWarning' | 'lineOf'>;

/** A states XML document read and checked without throwing: every problem with its line. */
export interface CheckedFlowsXml {
  /** The flows read (empty when the document is not well-formed or not a `<states>` document). */
  flows: FlowDefinition[];
  /** What makes the document unusable, warnings included when `strict`; sorted by line. */
  errors: FlowIssue[];
  /** Validation warnings (empty when `strict`); sorted by line. */
  warnings: FlowIssue[];
  /** The element a flow, state, event, transition or activity of `flows` was read from. */
  elementOf(part: object): XmlElement | undefined;
}

/** What reading the document gave, before validation. */
type Reading =
  | { kind: 'malformed'; error: XmlSyntaxError }
  | { kind: 'not-states'; root: XmlElement }
  | { kind: 'read'; flows: FlowDefinition[]; structural: FlowIssue[]; sources: WeakMap<object, XmlElement> };

function readDocument(xml: string): Reading {
  let root: XmlElement;
  try {
    root = readXml(xml);
  } catch (err) {
    if (err instanceof XmlSyntaxError) return { kind: 'malformed', error: err };
    throw err;
  }
  if (root.name !== 'states') return { kind: 'not-states', root };
  const reader = new FlowXmlReader();
  const flows = reader.readStates(root);
  return { kind: 'read', flows, structural: reader.issues, sources: reader.sources };
}

function byLine(issues: FlowIssue[]): FlowIssue[] {
  return issues
    .map((issue, i) => ({ issue, i }))
    .sort((a, b) => (a.issue.line ?? 0) - (b.issue.line ?? 0) || a.i - b.i)
    .map(({ issue }) => issue);
}

/**
 * Reads and checks a states XML document, collecting every problem (malformed XML, structure,
 * validation) with the line of the element concerned instead of throwing.
 *
 * @example
 * const checked = checkFlowsXml(text, { strict: true });
 * for (const issue of checked.errors) console.log(`line ${issue.line}: ${issue.message}`);
 */
export function checkFlowsXml(xml: string, options: { strict?: boolean } = {}): CheckedFlowsXml {
  return checkReading(readDocument(xml), options.strict === true);
}

function checkReading(reading: Reading, strict: boolean): CheckedFlowsXml {
  const none = (): undefined => undefined;
  if (reading.kind === 'malformed') {
    const { line, column, detail } = reading.error;
    return {
      flows: [],
      errors: [{ code: 'MALFORMED_XML', message: `malformed XML (column ${column}): ${detail}`, line }],
      warnings: [],
      elementOf: none,
    };
  }
  if (reading.kind === 'not-states') {
    return {
      flows: [],
      errors: [
        {
          code: 'NOT_A_STATES_DOCUMENT',
          message: `expected a <states> root element, found <${reading.root.name}>`,
          line: reading.root.line,
        },
      ],
      warnings: [],
      elementOf: none,
    };
  }
  const elementOf = (part: object): XmlElement | undefined => reading.sources.get(part);
  // Structural problems first: validating a half-read flow would only repeat them in other words.
  if (reading.structural.length > 0)
    return { flows: reading.flows, errors: byLine(reading.structural), warnings: [], elementOf };
  const { errors, warnings } = validateFlows(reading.flows, { lineOf: (part) => elementOf(part)?.line });
  return {
    flows: reading.flows,
    errors: byLine(strict ? [...errors, ...warnings] : errors),
    warnings: strict ? [] : byLine(warnings),
    elementOf,
  };
}

/** Parses and validates a states XML document. Throws `STM_XML_PARSE_ERROR` or `STM_INVALID_FLOW`. */
export async function parseFlowsXml(xml: string, options: ParseFlowsOptions = {}): Promise<ParsedFlows> {
  const prefix = options.source === undefined ? '' : `${options.source}: `;
  const reading = readDocument(xml);
  if (reading.kind === 'malformed') {
    const { line, column } = reading.error;
    throw new StmError({
      code: StmErrorCodes.xmlParse,
      message: `${prefix}malformed XML: ${reading.error.message}`,
      line,
      column,
      cause: reading.error,
    });
  }
  if (reading.kind === 'not-states') {
    throw new StmError({
      code: StmErrorCodes.xmlParse,
      message: `${prefix}expected a <states> root element, found <${reading.root.name}>`,
      line: reading.root.line,
    });
  }
  const checked = checkReading(reading, options.strict === true);
  if (checked.errors.length > 0) throw invalidFlowError(checked.errors, options.source);
  return { flows: checked.flows, warnings: checked.warnings };
}

/**
 * Reads a states XML file; messages start with the file path.
 *
 * @example
 * const { flows } = await loadFlowsFile(path.join(__dirname, 'flows/order-flow.xml'));
 */
export async function loadFlowsFile(filePath: string, options: ParseFlowsOptions = {}): Promise<ParsedFlows> {
  const text = await readFile(filePath, 'utf8');
  return parseFlowsXml(text, { source: filePath, ...options });
}
