import { readFile } from 'node:fs/promises';
import { parseStringPromise } from 'xml2js';
import { StmError, StmErrorCodes, type FlowIssue } from '../errors/stm-error';
import type {
  ActivityDefinition,
  ConditionalTransition,
  EventDefinition,
  FlowDefinition,
  StateDefinition,
  StateKind,
} from '../model/flow-definition';
import { assertValidFlows, describeLocation, invalidFlowError, type AssertFlowsOptions } from '../validation/flow-validator';

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
 * missing ids, several initial states) are collected and reported together in one
 * `STM_INVALID_FLOW`; when there are none, the flows are validated ({@link validateFlows}) and
 * all validation errors are reported together the same way.
 *
 * @example
 * const { flows, warnings } = await parseFlowsXml(xmlText, { source: 'order-flow.xml' });
 */
export interface ParsedFlows {
  flows: FlowDefinition[];
  /** Validation warnings (unreachable states and the like); empty when `strict`. */
  warnings: FlowIssue[];
}

export type ParseFlowsOptions = Omit<AssertFlowsOptions, 'onWarning'>;

interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

type RawNode = { '#name'?: unknown; $?: unknown; $$?: unknown; _?: unknown };

function toElement(raw: unknown, fallbackName: string): XmlElement {
  const node: RawNode = typeof raw === 'object' && raw !== null ? (raw as RawNode) : {};
  const attrs: Record<string, string> = {};
  if (typeof node.$ === 'object' && node.$ !== null) {
    for (const [k, v] of Object.entries(node.$ as Record<string, unknown>)) attrs[k] = String(v);
  }
  const children = Array.isArray(node.$$) ? node.$$.map((c) => toElement(c, '?')) : [];
  const text = typeof node._ === 'string' ? node._ : typeof raw === 'string' ? raw : '';
  return { name: typeof node['#name'] === 'string' ? node['#name'] : fallbackName, attrs, children, text };
}

const STATE_ELEMENTS: Readonly<Record<string, StateKind>> = {
  'manual-state': 'manual',
  'auto-state': 'auto',
  'end-state': 'final',
};

const COMMON_STATE_ATTRS = ['id', 'initialState', 'enabledBy'];

class FlowReader {
  readonly issues: FlowIssue[] = [];

  private push(code: string, where: string, detail: string, ids: Partial<FlowIssue> = {}): void {
    const message = `${where}: ${detail}`;
    this.issues.push({ code, message: message.charAt(0).toUpperCase() + message.slice(1), ...ids });
  }

  /** Splits attributes into known ones and `meta-*`; reports the rest. */
  private attrs(el: XmlElement, allowed: readonly string[], where: string, ids: Partial<FlowIssue>): {
    get: (name: string) => string | undefined;
    metadata?: Record<string, string>;
  } {
    const metadata: Record<string, string> = {};
    for (const [k, v] of Object.entries(el.attrs)) {
      if (k.startsWith('meta-') && k.length > 5) metadata[k.slice(5)] = v;
      else if (!allowed.includes(k)) {
        this.push('UNKNOWN_ATTRIBUTE', where, `unknown attribute '${k}' on <${el.name}> (allowed: ${allowed.join(', ')}, meta-*)`, ids);
      }
    }
    if (el.text.trim() !== '') this.push('UNEXPECTED_TEXT', where, `<${el.name}> must not contain text`, ids);
    const get = (name: string): string | undefined => {
      const v = el.attrs[name];
      return v === undefined || v.trim() === '' ? undefined : v.trim();
    };
    return Object.keys(metadata).length > 0 ? { get, metadata } : { get };
  }

  private bool(value: string | undefined, el: XmlElement, attr: string, where: string, ids: Partial<FlowIssue>): boolean {
    if (value === undefined || value === 'false') return false;
    if (value === 'true') return true;
    this.push('INVALID_BOOLEAN', where, `attribute '${attr}' of <${el.name}> must be "true" or "false", got "${value}"`, ids);
    return false;
  }

  private required(value: string | undefined, el: XmlElement, attr: string, where: string, ids: Partial<FlowIssue>): string {
    if (value === undefined) this.push('MISSING_ATTRIBUTE', where, `<${el.name}> needs attribute '${attr}'`, ids);
    return value ?? '';
  }

  readFlow(el: XmlElement, index: number): FlowDefinition {
    const rawId = el.attrs['id']?.trim();
    const where = rawId ? describeLocation(rawId) : `Flow #${index + 1}`;
    const ids = rawId ? { flowId: rawId } : {};
    const a = this.attrs(el, ['id', 'default'], where, ids);
    const flowId = this.required(a.get('id'), el, 'id', where, ids);
    const isDefault = this.bool(a.get('default'), el, 'default', where, ids);
    const states: StateDefinition[] = [];
    const initials: string[] = [];
    for (const child of el.children) {
      const kind = STATE_ELEMENTS[child.name];
      if (kind === undefined) {
        this.push('UNKNOWN_ELEMENT', where, `unknown element <${child.name}> (expected manual-state, auto-state or end-state)`, ids);
        continue;
      }
      const { state, initial } = this.readState(child, kind, flowId, where, states.length);
      states.push(state);
      if (initial) initials.push(state.id);
    }
    if (initials.length > 1) {
      this.push('MULTIPLE_INITIAL_STATES', where, `more than one initial state: ${initials.map((s) => `'${s}'`).join(', ')}`, ids);
    }
    return {
      id: flowId,
      initialState: initials[0] ?? '',
      states,
      ...(isDefault ? { isDefault: true } : {}),
      ...(a.metadata === undefined ? {} : { metadata: a.metadata }),
    };
  }

  private readState(el: XmlElement, kind: StateKind, flowId: string, flowWhere: string, index: number): { state: StateDefinition; initial: boolean } {
    const rawId = el.attrs['id']?.trim();
    const where = `${flowWhere}, state ${rawId ? `'${rawId}'` : `#${index + 1}`}`;
    const ids: Partial<FlowIssue> = { flowId, ...(rawId ? { stateId: rawId } : {}) };
    const a = this.attrs(el, COMMON_STATE_ATTRS, where, ids);
    const id = this.required(a.get('id'), el, 'id', where, ids);
    const initial = this.bool(a.get('initialState'), el, 'initialState', where, ids);
    const onEntry: string[] = [];
    const onExit: string[] = [];
    const events: EventDefinition[] = [];
    const transitions: ConditionalTransition[] = [];
    const activities: ActivityDefinition[] = [];
    const allowedChildren = kind === 'final' ? ['on-entry'] : kind === 'manual' ? ['on-entry', 'on-exit', 'on', 'activity'] : ['on-entry', 'on-exit', 'transition'];
    for (const child of el.children) {
      if (!allowedChildren.includes(child.name)) {
        this.push('UNKNOWN_ELEMENT', where, `element <${child.name}> is not allowed in <${el.name}> (allowed: ${allowedChildren.join(', ')})`, ids);
        continue;
      }
      if (child.name === 'on-entry' || child.name === 'on-exit') {
        const c = this.attrs(child, ['action'], where, ids);
        (child.name === 'on-entry' ? onEntry : onExit).push(this.required(c.get('action'), child, 'action', where, ids));
      } else if (child.name === 'on') {
        events.push(this.readEvent(child, where, ids));
      } else if (child.name === 'activity') {
        const c = this.attrs(child, ['id', 'mandatory'], where, ids);
        activities.push({ id: this.required(c.get('id'), child, 'id', where, ids), mandatory: this.bool(c.get('mandatory'), child, 'mandatory', where, ids), ...(c.metadata === undefined ? {} : { metadata: c.metadata }) });
      } else {
        const c = this.attrs(child, ['to', 'condition', 'action', 'enabledBy'], where, ids);
        const condition = c.get('condition');
        const action = c.get('action');
        const enabledBy = c.get('enabledBy');
        transitions.push({
          to: this.required(c.get('to'), child, 'to', where, ids),
          ...(condition === undefined ? {} : { condition }),
          ...(action === undefined ? {} : { action }),
          ...(enabledBy === undefined ? {} : { enabledBy }),
        });
      }
    }
    const enabledBy = a.get('enabledBy');
    const state: StateDefinition = {
      id,
      kind,
      ...(onEntry.length > 0 ? { onEntry } : {}),
      ...(onExit.length > 0 ? { onExit } : {}),
      ...(kind === 'manual' ? { events } : {}),
      ...(kind === 'auto' ? { transitions } : {}),
      ...(activities.length > 0 ? { activities } : {}),
      ...(enabledBy === undefined ? {} : { enabledBy }),
      ...(a.metadata === undefined ? {} : { metadata: a.metadata }),
    };
    return { state, initial };
  }

  private readEvent(el: XmlElement, stateWhere: string, stateIds: Partial<FlowIssue>): EventDefinition {
    const rawId = el.attrs['eventId']?.trim();
    const where = rawId ? `${stateWhere}, event '${rawId}'` : stateWhere;
    const ids = rawId ? { ...stateIds, eventId: rawId } : stateIds;
    const a = this.attrs(el, ['eventId', 'newStateId', 'action', 'enabledBy'], where, ids);
    const to = a.get('newStateId');
    const action = a.get('action');
    const enabledBy = a.get('enabledBy');
    return {
      id: this.required(a.get('eventId'), el, 'eventId', where, ids),
      ...(to === undefined ? {} : { to }),
      ...(action === undefined ? {} : { action }),
      ...(enabledBy === undefined ? {} : { enabledBy }),
      ...(a.metadata === undefined ? {} : { metadata: a.metadata }),
    };
  }
}

/** Parses and validates a states XML document. Throws `STM_XML_PARSE_ERROR` or `STM_INVALID_FLOW`. */
export async function parseFlowsXml(xml: string, options: ParseFlowsOptions = {}): Promise<ParsedFlows> {
  const prefix = options.source === undefined ? '' : `${options.source}: `;
  let parsed: unknown;
  try {
    parsed = await parseStringPromise(xml, { explicitChildren: true, preserveChildrenOrder: true, explicitArray: true, trim: true });
  } catch (e) {
    const detail = e instanceof Error ? e.message.replace(/\s+/g, ' ').trim() : String(e);
    throw new StmError({ code: StmErrorCodes.xmlParse, message: `${prefix}malformed XML: ${detail}`, cause: e });
  }
  const top = typeof parsed === 'object' && parsed !== null ? Object.entries(parsed as Record<string, unknown>) : [];
  if (top.length !== 1 || top[0]?.[0] !== 'states') {
    const found = top[0]?.[0] === undefined ? 'an empty document' : `<${top[0][0]}>`;
    throw new StmError({ code: StmErrorCodes.xmlParse, message: `${prefix}expected a <states> root element, found ${found}` });
  }
  const root = toElement(top[0][1], 'states');
  const reader = new FlowReader();
  const flows: FlowDefinition[] = [];
  for (const child of root.children) {
    if (child.name === 'flow') flows.push(reader.readFlow(child, flows.length));
    else reader.issues.push({ code: 'UNKNOWN_ELEMENT', message: `Unknown element <${child.name}> in <states> (expected <flow>)` });
  }
  if (Object.keys(root.attrs).length > 0) {
    reader.issues.push({ code: 'UNKNOWN_ATTRIBUTE', message: `<states> takes no attributes, got ${Object.keys(root.attrs).join(', ')}` });
  }
  if (flows.length === 0 && reader.issues.length === 0) reader.issues.push({ code: 'NO_FLOWS', message: '<states> declares no <flow>' });
  if (reader.issues.length > 0) throw invalidFlowError(reader.issues, options.source);
  const warnings: FlowIssue[] = [];
  assertValidFlows(flows, { ...options, onWarning: (w) => warnings.push(w) });
  return { flows, warnings };
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
