import { isEnabledBy, type FlowDefinition, type StateDefinition, type StmConfig } from './flow-definition';

/**
 * Applies config enablement to a flow and returns the *effective* flow (the input is not changed):
 *
 * - a state whose `enabledBy` property is false is removed, together with every event and branch
 *   leading into it;
 * - an event or branch whose `enabledBy` property is false is removed (a decision then falls
 *   through to its next branch).
 *
 * The initial state cannot be disabled (the effective flow would fail validation with
 * `UNKNOWN_INITIAL_STATE`). {@link makeStateMachine} calls this with its `config`.
 *
 * @example
 * const effective = applyConfig(orderFlow, { giftWrapping: false });
 * effective.states.some((s) => s.id === 'WRAPPING'); // false
 */
export function applyConfig(flow: FlowDefinition, config: StmConfig): FlowDefinition {
  const kept = flow.states.filter((s) => isEnabledBy(s.enabledBy, config));
  const keptIds = new Set(kept.map((s) => s.id));
  const targetOk = (to: string | undefined): boolean => to === undefined || keptIds.has(to);
  const states = kept.map((s): StateDefinition => {
    const out: StateDefinition = { ...s };
    if (s.events !== undefined) out.events = s.events.filter((e) => isEnabledBy(e.enabledBy, config) && targetOk(e.to));
    if (s.transitions !== undefined) {
      out.transitions = s.transitions.filter((t) => isEnabledBy(t.enabledBy, config) && targetOk(t.to));
    }
    return out;
  });
  return { ...flow, states };
}
