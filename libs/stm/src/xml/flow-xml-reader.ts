/**
 * Reads the elements of a states XML document into flow definitions, remembering the element each
 * definition came from (so every problem can name its line) and collecting the structural problems
 * on the way: unknown elements and attributes (typos would otherwise pass silently), missing ids,
 * bad booleans, several initial states. Attributes named `meta-<key>` go into `metadata`.
 */
import type { FlowIssue } from '../errors/stm-error';
import type {
  ActivityDefinition,
  ConditionalTransition,
  EventDefinition,
  FlowDefinition,
  StateDefinition,
  StateKind,
} from '../model/flow-definition';
import { describeLocation } from '../validation/flow-validator';
import type { XmlElement } from './xml-reader';

const STATE_ELEMENTS: Readonly<Record<string, StateKind>> = {
  'manual-state': 'manual',
  'auto-state': 'auto',
  'end-state': 'final',
};

const STATE_CHILDREN: Readonly<Record<StateKind, readonly string[]>> = {
  manual: ['on-entry', 'on-exit', 'on', 'activity'],
  auto: ['on-entry', 'on-exit', 'transition'],
  final: ['on-entry'],
};

/** Where a problem is: the words that start its message and the ids it names. */
interface Where {
  text: string;
  ids: Partial<FlowIssue>;
}

interface Attributes {
  get: (name: string) => string | undefined;
  metadata?: Record<string, string>;
}

/** The parts of the definitions that are present only when they hold something. */
function optional(parts: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parts)) {
    if (value === undefined || value === false || (Array.isArray(value) && value.length === 0)) continue;
    out[key] = value;
  }
  return out;
}

/** One reading of a `<states>` element: `issues` holds the structural problems found. */
export class FlowXmlReader {
  readonly issues: FlowIssue[] = [];
  /** The element each flow, state, event, transition and activity was read from. */
  readonly sources = new WeakMap<object, XmlElement>();

  private push(code: string, where: Where, detail: string, line: number): void {
    const message = `${where.text}: ${detail}`;
    this.issues.push({ code, message: message.charAt(0).toUpperCase() + message.slice(1), ...where.ids, line });
  }

  private source<T extends object>(definition: T, el: XmlElement): T {
    this.sources.set(definition, el);
    return definition;
  }

  /** Splits attributes into known ones and `meta-*`; reports the rest, and any text inside. */
  private attrs(el: XmlElement, allowed: readonly string[], where: Where): Attributes {
    const metadata: Record<string, string> = {};
    for (const [name, attr] of el.attrs) {
      if (name.startsWith('meta-') && name.length > 5) metadata[name.slice(5)] = attr.value;
      else if (!allowed.includes(name))
        this.push(
          'UNKNOWN_ATTRIBUTE',
          where,
          `unknown attribute '${name}' on <${el.name}> (allowed: ${allowed.join(', ')}, meta-*)`,
          attr.line,
        );
    }
    if (el.text !== undefined) this.push('UNEXPECTED_TEXT', where, `<${el.name}> must not contain text`, el.text.line);
    const get = (name: string): string | undefined => {
      const v = el.attrs.get(name)?.value.trim();
      return v === undefined || v === '' ? undefined : v;
    };
    return Object.keys(metadata).length > 0 ? { get, metadata } : { get };
  }

  private bool(value: string | undefined, el: XmlElement, attr: string, where: Where): boolean {
    if (value === undefined || value === 'false') return false;
    if (value === 'true') return true;
    this.push(
      'INVALID_BOOLEAN',
      where,
      `attribute '${attr}' of <${el.name}> must be "true" or "false", got "${value}"`,
      el.attrs.get(attr)?.line ?? el.line,
    );
    return false;
  }

  private required(value: string | undefined, el: XmlElement, attr: string, where: Where): string {
    if (value === undefined) this.push('MISSING_ATTRIBUTE', where, `<${el.name}> needs attribute '${attr}'`, el.line);
    return value ?? '';
  }

  /** The flows of the `<states>` root element. */
  readStates(root: XmlElement): FlowDefinition[] {
    const flows: FlowDefinition[] = [];
    if (root.attrs.size > 0) {
      this.issues.push({
        code: 'UNKNOWN_ATTRIBUTE',
        message: `<states> takes no attributes, got ${[...root.attrs.keys()].join(', ')}`,
        line: root.line,
      });
    }
    for (const child of root.children) {
      if (child.name === 'flow') flows.push(this.readFlow(child, flows.length));
      else
        this.issues.push({
          code: 'UNKNOWN_ELEMENT',
          message: `Unknown element <${child.name}> in <states> (expected <flow>)`,
          line: child.line,
        });
    }
    if (flows.length === 0 && this.issues.length === 0)
      this.issues.push({ code: 'NO_FLOWS', message: '<states> declares no <flow>', line: root.line });
    return flows;
  }

  private readFlow(el: XmlElement, index: number): FlowDefinition {
    const rawId = el.attrs.get('id')?.value.trim();
    const where: Where = rawId
      ? { text: describeLocation(rawId), ids: { flowId: rawId } }
      : { text: `Flow #${index + 1}`, ids: {} };
    const a = this.attrs(el, ['id', 'default'], where);
    const flowId = this.required(a.get('id'), el, 'id', where);
    const isDefault = this.bool(a.get('default'), el, 'default', where);
    const states: StateDefinition[] = [];
    const initials: StateDefinition[] = [];
    for (const child of el.children) {
      const kind = STATE_ELEMENTS[child.name];
      if (kind === undefined) {
        this.push(
          'UNKNOWN_ELEMENT',
          where,
          `unknown element <${child.name}> (expected manual-state, auto-state or end-state)`,
          child.line,
        );
        continue;
      }
      const { state, initial } = this.readState(child, kind, flowId, where, states.length);
      states.push(state);
      if (initial) initials.push(state);
    }
    if (initials.length > 1) {
      const second = this.sources.get(initials[1])?.line ?? el.line;
      this.push(
        'MULTIPLE_INITIAL_STATES',
        where,
        `more than one initial state: ${initials.map((s) => `'${s.id}'`).join(', ')}`,
        second,
      );
    }
    const flow: FlowDefinition = {
      id: flowId,
      initialState: initials[0]?.id ?? '',
      states,
      ...optional({ isDefault, metadata: a.metadata }),
    };
    return this.source(flow, el);
  }

  private readState(
    el: XmlElement,
    kind: StateKind,
    flowId: string,
    flowWhere: Where,
    index: number,
  ): { state: StateDefinition; initial: boolean } {
    const rawId = el.attrs.get('id')?.value.trim();
    const where: Where = {
      text: `${flowWhere.text}, state ${rawId ? `'${rawId}'` : `#${index + 1}`}`,
      ids: { flowId, ...(rawId ? { stateId: rawId } : {}) },
    };
    const a = this.attrs(el, ['id', 'initialState', 'enabledBy'], where);
    const id = this.required(a.get('id'), el, 'id', where);
    const initial = this.bool(a.get('initialState'), el, 'initialState', where);
    const parts = {
      onEntry: [] as string[],
      onExit: [] as string[],
      events: [] as EventDefinition[],
      transitions: [] as ConditionalTransition[],
      activities: [] as ActivityDefinition[],
    };
    for (const child of el.children) {
      if (!STATE_CHILDREN[kind].includes(child.name)) {
        this.push(
          'UNKNOWN_ELEMENT',
          where,
          `element <${child.name}> is not allowed in <${el.name}> (allowed: ${STATE_CHILDREN[kind].join(', ')})`,
          child.line,
        );
        continue;
      }
      this.readStateChild(child, parts, where);
    }
    const state: StateDefinition = {
      id,
      kind,
      ...optional({ onEntry: parts.onEntry, onExit: parts.onExit }),
      ...(kind === 'manual' ? { events: parts.events } : {}),
      ...(kind === 'auto' ? { transitions: parts.transitions } : {}),
      ...optional({ activities: parts.activities, enabledBy: a.get('enabledBy'), metadata: a.metadata }),
    };
    return { state: this.source(state, el), initial };
  }

  private readStateChild(
    child: XmlElement,
    parts: {
      onEntry: string[];
      onExit: string[];
      events: EventDefinition[];
      transitions: ConditionalTransition[];
      activities: ActivityDefinition[];
    },
    where: Where,
  ): void {
    if (child.name === 'on-entry' || child.name === 'on-exit') {
      const c = this.attrs(child, ['action'], where);
      (child.name === 'on-entry' ? parts.onEntry : parts.onExit).push(
        this.required(c.get('action'), child, 'action', where),
      );
    } else if (child.name === 'on') {
      parts.events.push(this.readEvent(child, where));
    } else if (child.name === 'activity') {
      const c = this.attrs(child, ['id', 'mandatory'], where);
      const activity = {
        id: this.required(c.get('id'), child, 'id', where),
        mandatory: this.bool(c.get('mandatory'), child, 'mandatory', where),
        ...optional({ metadata: c.metadata }),
      };
      parts.activities.push(this.source(activity, child));
    } else {
      const c = this.attrs(child, ['to', 'condition', 'action', 'enabledBy'], where);
      const transition = {
        to: this.required(c.get('to'), child, 'to', where),
        ...optional({ condition: c.get('condition'), action: c.get('action'), enabledBy: c.get('enabledBy') }),
      };
      parts.transitions.push(this.source(transition, child));
    }
  }

  private readEvent(el: XmlElement, stateWhere: Where): EventDefinition {
    const rawId = el.attrs.get('eventId')?.value.trim();
    const where: Where = rawId
      ? { text: `${stateWhere.text}, event '${rawId}'`, ids: { ...stateWhere.ids, eventId: rawId } }
      : stateWhere;
    const a = this.attrs(el, ['eventId', 'newStateId', 'action', 'enabledBy'], where);
    const event: EventDefinition = {
      id: this.required(a.get('eventId'), el, 'eventId', where),
      ...optional({
        to: a.get('newStateId'),
        action: a.get('action'),
        enabledBy: a.get('enabledBy'),
        metadata: a.metadata,
      }),
    };
    return this.source(event, el);
  }
}
