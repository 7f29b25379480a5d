/**
 * The states XML of `@fw/stm` (its README, "XML format") read into flows that remember the line of
 * every element, so each rule the generator checks can name the line to fix.
 */
import type { XmlNode } from './xml-reader';

export type StateKind = 'manual' | 'auto' | 'final';

export interface Located {
  line: number;
}

export interface StatesEvent extends Located {
  id: string;
  to?: string;
  action?: string;
  enabledBy?: string;
}

export interface StatesBranch extends Located {
  to: string;
  condition?: string;
  action?: string;
  enabledBy?: string;
}

export interface StatesActivity extends Located {
  id: string;
  mandatory: boolean;
  /** Whether the XML says `mandatory="…"` itself (the activity prompt fills in the rest). */
  explicit: boolean;
  /** Where the element is in the document (`[start, end)`, and just after its name). */
  start: number;
  end: number;
  afterName: number;
}

export interface StatesState extends Located {
  id: string;
  kind: StateKind;
  initial: boolean;
  enabledBy?: string;
  onEntry: string[];
  onExit: string[];
  events: StatesEvent[];
  branches: StatesBranch[];
  activities: StatesActivity[];
}

export interface StatesFlow extends Located {
  id: string;
  isDefault: boolean;
  states: StatesState[];
}

/** A checked states XML: its text as written and its flows. */
export interface StatesDocument {
  text: string;
  flows: StatesFlow[];
}

const STATE_ELEMENTS: Readonly<Record<string, StateKind>> = { 'manual-state': 'manual', 'auto-state': 'auto', 'end-state': 'final' };
const CHILDREN: Readonly<Record<StateKind, readonly string[]>> = {
  manual: ['on-entry', 'on-exit', 'on', 'activity'],
  auto: ['on-entry', 'on-exit', 'transition'],
  final: ['on-entry'],
};

/** Reads the elements into flows, collecting structural problems (`line N: …`) on the way. */
export class StatesReader {
  readonly problems: string[] = [];

  private problem(line: number, detail: string): void {
    this.problems.push(`line ${line}: ${detail}`);
  }

  /** The attribute reader of one element: refuses unknown ones (typos), `meta-*` always allowed. */
  private attrs(el: XmlNode, allowed: readonly string[]): (name: string) => string | undefined {
    for (const [name, attr] of el.attrs) {
      if (!(name.startsWith('meta-') && name.length > 5) && !allowed.includes(name)) {
        this.problem(attr.line, `unknown attribute '${name}' on <${el.name}> (allowed: ${allowed.join(', ')}, meta-*)`);
      }
    }
    if (el.text !== undefined) this.problem(el.text.line, `<${el.name}> must not contain text`);
    return (name) => {
      const v = el.attrs.get(name)?.value.trim();
      return v === undefined || v === '' ? undefined : v;
    };
  }

  private required(el: XmlNode, value: string | undefined, attr: string): string {
    if (value === undefined) this.problem(el.line, `<${el.name}> needs attribute '${attr}'`);
    return value ?? '';
  }

  private bool(el: XmlNode, value: string | undefined, attr: string): boolean {
    if (value === undefined || value === 'false') return false;
    if (value === 'true') return true;
    this.problem(el.attrs.get(attr)?.line ?? el.line, `attribute '${attr}' of <${el.name}> must be "true" or "false", got "${value}"`);
    return false;
  }

  readRoot(root: XmlNode): StatesFlow[] {
    if (root.name !== 'states') {
      this.problem(root.line, `the root element must be <states>, found <${root.name}>`);
      return [];
    }
    this.attrs(root, []);
    const flows: StatesFlow[] = [];
    for (const child of root.children) {
      if (child.name === 'flow') flows.push(this.readFlow(child));
      else this.problem(child.line, `unknown element <${child.name}> in <states> (expected <flow>)`);
    }
    if (flows.length === 0 && this.problems.length === 0) this.problem(root.line, '<states> declares no <flow>');
    return flows;
  }

  private readFlow(el: XmlNode): StatesFlow {
    const get = this.attrs(el, ['id', 'default']);
    const states: StatesState[] = [];
    for (const child of el.children) {
      const kind = STATE_ELEMENTS[child.name];
      if (kind === undefined) this.problem(child.line, `unknown element <${child.name}> in <flow> (expected manual-state, auto-state or end-state)`);
      else states.push(this.readState(child, kind));
    }
    return { id: this.required(el, get('id'), 'id'), isDefault: this.bool(el, get('default'), 'default'), states, line: el.line };
  }

  private readState(el: XmlNode, kind: StateKind): StatesState {
    const get = this.attrs(el, ['id', 'initialState', 'enabledBy']);
    const enabledBy = get('enabledBy');
    const state: StatesState = {
      id: this.required(el, get('id'), 'id'),
      kind,
      initial: this.bool(el, get('initialState'), 'initialState'),
      ...(enabledBy === undefined ? {} : { enabledBy }),
      onEntry: [],
      onExit: [],
      events: [],
      branches: [],
      activities: [],
      line: el.line,
    };
    for (const child of el.children) {
      if (!CHILDREN[kind].includes(child.name)) {
        this.problem(child.line, `element <${child.name}> is not allowed in <${el.name}> (allowed: ${CHILDREN[kind].join(', ')})`);
        continue;
      }
      this.readStateChild(child, state);
    }
    return state;
  }

  private readStateChild(child: XmlNode, state: StatesState): void {
    if (child.name === 'on-entry' || child.name === 'on-exit') {
      const get = this.attrs(child, ['action']);
      (child.name === 'on-entry' ? state.onEntry : state.onExit).push(this.required(child, get('action'), 'action'));
    } else if (child.name === 'activity') {
      const get = this.attrs(child, ['id', 'mandatory']);
      const explicit = get('mandatory') !== undefined;
      state.activities.push({ id: this.required(child, get('id'), 'id'), mandatory: this.bool(child, get('mandatory'), 'mandatory'), explicit, start: child.start, end: child.end, afterName: child.afterName, line: child.line });
    } else if (child.name === 'on') {
      const get = this.attrs(child, ['eventId', 'newStateId', 'action', 'enabledBy']);
      state.events.push(withOptional({ id: this.required(child, get('eventId'), 'eventId'), line: child.line }, { to: get('newStateId'), action: get('action'), enabledBy: get('enabledBy') }));
    } else {
      const get = this.attrs(child, ['to', 'condition', 'action', 'enabledBy']);
      state.branches.push(withOptional({ to: this.required(child, get('to'), 'to'), line: child.line }, { condition: get('condition'), action: get('action'), enabledBy: get('enabledBy') }));
    }
  }
}

function withOptional<T extends object>(base: T, optional: Record<string, string | undefined>): T {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(optional)) if (v !== undefined) out[k] = v;
  return out as T;
}
