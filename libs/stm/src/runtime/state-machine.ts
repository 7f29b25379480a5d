/**
 * The state machine's factory: it checks the flows once and composes the parts a call goes
 * through (flow lookup, action runner, automatic transitions, activity gate, driver).
 */
import type { FlowIssue } from '../errors/stm-error';
import { applyConfig } from '../model/flow-enablement';
import { assertValidFlows } from '../validation/flow-validator';
import { ActionRunner } from './action-runner';
import { ActivityGate } from './activity-gate';
import { AutoTransitionResolver } from './auto-transition-resolver';
import { FlowCatalog } from './flow-catalog';
import { checkInitialEnabled, checkRegistries } from './machine-checks';
import { MachineDriver } from './machine-driver';
import { settled } from './machine-run';
import type { StateMachine, StateMachineOptions } from './machine-types';
import { stateFieldAccessor, type StateAccessor, type StatefulEntity } from './state-accessor';

const DEFAULT_MAX_AUTO_STEPS = 32;

/**
 * Makes a state machine over the given flows. Flows are validated with the config applied;
 * every action and condition name they reference must be registered.
 *
 * The machine keeps no state of its own between calls and never persists anything: the caller
 * loads the entity (locking it if concurrent events are possible), calls `start`/`send`, and saves
 * it, typically inside one database transaction passed as `context`. If an action or condition
 * throws, the error propagates unchanged and the entity's state field is restored to its value
 * before the call (other changes actions made are the caller's to discard, e.g. by rolling back).
 *
 * @example
 * const machine = makeStateMachine<Order, Trx>({
 *   flows: [orderFlow],
 *   actions: { charge: async ({ entity, context, payload }) => { await context.charge(entity, payload); } },
 *   conditions: { inStock: ({ entity }) => entity.quantity <= 10 },
 * });
 * await machine.start(order, trx);             // order.state = { flowId: 'order-flow', stateId: 'PLACED' }
 * await machine.send(order, 'pay', { card }, trx);
 */
export function makeStateMachine<E extends StatefulEntity, C = void>(
  options: StateMachineOptions<E, C>,
): StateMachine<E, C>;
export function makeStateMachine<E, C = void>(
  options: StateMachineOptions<E, C> & { stateAccessor: StateAccessor<E> },
): StateMachine<E, C>;
export function makeStateMachine<E, C = void>(options: StateMachineOptions<E, C>): StateMachine<E, C> {
  const config = options.config ?? {};
  const actions = options.actions ?? {};
  const conditions = options.conditions ?? {};
  const accessor = options.stateAccessor ?? (stateFieldAccessor() as unknown as StateAccessor<E>);
  const maxAutoSteps = options.maxAutoSteps ?? DEFAULT_MAX_AUTO_STEPS;

  assertValidFlows(options.flows, { strict: options.strict });
  const flows = options.flows.map((f) => applyConfig(f, config));
  checkInitialEnabled(options.flows, config, flows);
  const onWarning = (w: FlowIssue): void => options.onWarning?.(w);
  assertValidFlows(flows, { strict: options.strict, onWarning, source: 'after applying config' });
  checkRegistries(flows, actions, conditions);

  const catalog = new FlowCatalog(flows);
  const runner = new ActionRunner<E, C>(actions, accessor);
  const resolver = new AutoTransitionResolver<E, C>({ conditions, maxAutoSteps, catalog, runner });
  const driver = new MachineDriver<E, C>({ accessor, catalog, runner, resolver });
  const gate = new ActivityGate(catalog);
  const sendNow: StateMachine<E, C>['sendNow'] = (entity, eventId, payload, context) =>
    driver.sendNow(entity, eventId, payload, context);

  return {
    flows,
    flow: (flowId) => catalog.flow(flowId),
    start: (entity, context, opts) => settled(() => driver.startNow(entity, context, opts)),
    send: (entity, eventId, payload, context) => settled(() => sendNow(entity, eventId, payload, context)),
    sendNow,
    allowedEvents: (s) => gate.allowedEvents(s),
    isAllowed: (s, eventId) => gate.isAllowed(s, eventId),
    isFinal: (s) => gate.isFinal(s),
  };
}
