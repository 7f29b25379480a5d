// The actions and conditions the {{service}} flow names, registered by name with the state machine.
// Actions receive the entity and change `entity.data`; the service stores it with the new state.
import type { StmAction, StmCondition } from '@fw/stm';
import type { WorkflowContext, WorkflowEntity } from '@fw/workflow';

export type Action = StmAction<WorkflowEntity, WorkflowContext>;
export type Condition = StmCondition<WorkflowEntity, WorkflowContext>;

function payloadField(payload: unknown, field: string): unknown {
  return typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>)[field] : undefined;
}
{{^custom}}

/** A comment sent with an event, appended to `data.comments` in the order they came. */
const recordComment: Action = ({ entity, payload, eventId }) => {
  const comment = payloadField(payload, 'comment');
  if (typeof comment !== 'string' || comment.trim() === '') return;
  const comments = Array.isArray(entity.data.comments) ? entity.data.comments : [];
  entity.data.comments = [...comments, { event: eventId ?? null, comment }];
};

export const actions: Record<string, Action> = {
  /** `assign` with `{ "assignee": "ada" }` records who works on it. */
  recordAssignee: ({ entity, payload }) => {
    const assignee = payloadField(payload, 'assignee');
    if (typeof assignee === 'string' && assignee.trim() !== '') entity.data.assignee = assignee;
  },
  /** `deassign` hands the {{service}} back: nobody works on it any more. */
  clearAssignee: ({ entity }) => {
    delete entity.data.assignee;
  },
  recordComment,
};

/** The built-in flow takes no decisions (no auto states), so it names no condition. */
export const conditions: Record<string, Condition> = {};
{{/custom}}
{{#custom}}

/**
 * Every action of the XML starts as this: it appends `{ action, event, from, to }` to
 * `data.history`, an audit trail of what ran. Replace an entry of `actions` with your own logic
 * (keep the name: the XML refers to it).
 */
function recordInHistory(name: string): Action {
  return ({ entity, eventId, from, to, phase }) => {
    const history = Array.isArray(entity.data.history) ? entity.data.history : [];
    entity.data.history = [...history, { action: name, phase, event: eventId ?? null, from: from ?? null, to }];
  };
}

export const actions: Record<string, Action> = {
{{#customActions}}
  {{{literal}}}: recordInHistory({{{literal}}}),
{{/customActions}}
};

/**
 * Every condition of the XML starts as a flag: true when the event's payload (or, at create, the
 * body) says `"<condition>": true`, else when the entity's data holds `true` under that name. The
 * tests drive each branch this way. Replace an entry with your own rule (keep the name).
 */
export function flag(name: string): Condition {
  return ({ entity, payload }) => {
    const sent = payloadField(payload, name);
    return typeof sent === 'boolean' ? sent : entity.data[name] === true;
  };
}

export const conditions: Record<string, Condition> = {
{{#customConditions}}
  {{{literal}}}: flag({{{literal}}}),
{{/customConditions}}
};
{{/custom}}
