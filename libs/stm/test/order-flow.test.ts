import * as path from 'node:path';
import {
  isStmError,
  loadFlowsFile,
  makeStateMachine,
  StmErrorCodes,
  type FlowDefinition,
  type StateMachine,
  type StmAction,
  type StmConfig,
  type StmState,
} from '../src/index';

interface Order {
  id: string;
  quantity: number;
  state?: StmState;
  paid?: number;
}

interface Ctx {
  trace: string[];
}

let orderFlow: FlowDefinition;

beforeAll(async () => {
  const { flows } = await loadFlowsFile(path.join(__dirname, 'fixtures', 'order-flow.xml'));
  expect(flows).toHaveLength(1);
  orderFlow = flows[0] as FlowDefinition;
});

const tracing =
  (name: string): StmAction<Order, Ctx> =>
  ({ context, phase, stateId, from, to }) => {
    context.trace.push(`${phase}:${name}@${stateId} (${from ?? '-'}->${to})`);
  };

function orderMachine(config: StmConfig = {}): StateMachine<Order, Ctx> {
  return makeStateMachine<Order, Ctx>({
    flows: [orderFlow],
    config,
    actions: {
      notifyCustomer: tracing('notifyCustomer'),
      audit: tracing('audit'),
      charge: async (args) => {
        void tracing('charge')(args);
        await Promise.resolve();
        args.entity.paid = (args.payload as { amount: number }).amount;
      },
      remind: tracing('remind'),
    },
    conditions: { inStock: ({ entity }) => entity.quantity <= 10 },
  });
}

describe('an order workflow (the library is not tied to processes)', () => {
  it('starts through the checkStock decision into PLACED, running the entry action', async () => {
    const machine = orderMachine();
    const order: Order = { id: 'o1', quantity: 2 };
    const ctx: Ctx = { trace: [] };
    const result = await machine.start(order, ctx);
    expect(order.state).toEqual({ flowId: 'order-flow', stateId: 'PLACED' });
    expect(ctx.trace).toEqual(['entry:notifyCustomer@PLACED (checkStock->PLACED)']);
    expect(result.actions).toEqual([{ phase: 'entry', name: 'notifyCustomer', stateId: 'PLACED' }]);
  });

  it('runs exit, transition and entry actions in that order', async () => {
    const machine = orderMachine();
    const order: Order = { id: 'o1', quantity: 2 };
    const ctx: Ctx = { trace: [] };
    await machine.start(order, ctx);
    ctx.trace.length = 0;
    const result = await machine.send(order, 'pay', { amount: 12 }, ctx);
    expect(ctx.trace).toEqual(['exit:audit@PLACED (PLACED->PAID)', 'transition:charge@PLACED (PLACED->PAID)']);
    expect(result.actions.map((a) => `${a.phase}:${a.name}`)).toEqual(['exit:audit', 'transition:charge']);
    expect(order.paid).toBe(12);
    expect(order.state?.stateId).toBe('PAID');
  });

  it('re-enters a decision from a manual state (backorder, then restocked)', async () => {
    const machine = orderMachine();
    const order: Order = { id: 'o2', quantity: 50 };
    const ctx: Ctx = { trace: [] };
    await machine.start(order, ctx);
    expect(order.state?.stateId).toBe('BACKORDERED');
    await machine.send(order, 'restocked', undefined, ctx);
    expect(order.state?.stateId).toBe('BACKORDERED');
    order.quantity = 5;
    const result = await machine.send(order, 'restocked', undefined, ctx);
    expect(order.state?.stateId).toBe('PLACED');
    expect(result.steps.map((s) => `${s.from}->${s.to}`)).toEqual(['BACKORDERED->checkStock', 'checkStock->PLACED']);
  });

  it('refuses an event the state does not accept, with a stable code, leaving the state unchanged', async () => {
    const machine = orderMachine();
    const order: Order = { id: 'o3', quantity: 1 };
    const ctx: Ctx = { trace: [] };
    await machine.start(order, ctx);
    ctx.trace.length = 0;
    const refused = machine.send(order, 'ship', undefined, ctx);
    await expect(refused).rejects.toMatchObject({
      subErrorCode: 'STM_EVENT_NOT_ALLOWED',
      flowId: 'order-flow',
      stateId: 'PLACED',
      eventId: 'ship',
      message:
        "Flow 'order-flow', state 'PLACED', event 'ship': the event is not allowed in this state (allowed: pay, cancel, sendReminder)",
    });
    expect(order.state).toEqual({ flowId: 'order-flow', stateId: 'PLACED' });
    expect(ctx.trace).toEqual([]);
  });
});

describe('config enablement', () => {
  it('everything is enabled when the config does not mention a property', () => {
    const machine = orderMachine();
    expect(machine.allowedEvents({ flowId: 'order-flow', stateId: 'PAID' }).map((e) => e.eventId)).toEqual([
      'ship',
      'requestWrapping',
    ]);
    expect(machine.isAllowed({ flowId: 'order-flow', stateId: 'PLACED' }, 'sendReminder')).toBe(true);
  });

  it('a disabled event is refused and not listed', async () => {
    const machine = orderMachine({ reminders: false });
    expect(machine.allowedEvents({ flowId: 'order-flow', stateId: 'PLACED' }).map((e) => e.eventId)).toEqual([
      'pay',
      'cancel',
    ]);
    const order: Order = { id: 'o4', quantity: 1, state: { flowId: 'order-flow', stateId: 'PLACED' } };
    const error = await machine.send(order, 'sendReminder', undefined, { trace: [] }).catch((e: unknown) => e);
    expect(isStmError(error, StmErrorCodes.eventNotAllowed)).toBe(true);
  });

  it('a disabled state disappears with every event leading into it ("false" as a string works too)', async () => {
    const machine = orderMachine({ giftWrapping: 'false' });
    expect(machine.flow('order-flow').states.map((s) => s.id)).not.toContain('WRAPPING');
    expect(machine.allowedEvents({ flowId: 'order-flow', stateId: 'PAID' }).map((e) => e.eventId)).toEqual(['ship']);
    const order: Order = { id: 'o5', quantity: 1, state: { flowId: 'order-flow', stateId: 'PAID' } };
    await expect(machine.send(order, 'requestWrapping', undefined, { trace: [] })).rejects.toMatchObject({
      subErrorCode: 'STM_EVENT_NOT_ALLOWED',
    });
    expect(() => machine.allowedEvents({ flowId: 'order-flow', stateId: 'WRAPPING' })).toThrow(
      "Flow 'order-flow', state 'WRAPPING': no such state in the flow (unknown, or disabled by config)",
    );
  });

  it('an enabled (true) state stays usable', async () => {
    const machine = orderMachine({ giftWrapping: true, reminders: 'true' });
    const order: Order = { id: 'o6', quantity: 1, state: { flowId: 'order-flow', stateId: 'PAID' } };
    await machine.send(order, 'requestWrapping', undefined, { trace: [] });
    expect(order.state?.stateId).toBe('WRAPPING');
  });

  it('disabling the initial state is refused when the machine is made', () => {
    const flow: FlowDefinition = {
      ...orderFlow,
      states: orderFlow.states.map((s) => (s.id === 'checkStock' ? { ...s, enabledBy: 'stock' } : s)),
    };
    expect(() =>
      makeStateMachine<Order>({
        flows: [flow],
        conditions: { inStock: () => true },
        actions: {
          notifyCustomer: () => undefined,
          audit: () => undefined,
          charge: () => undefined,
          remind: () => undefined,
        },
        config: { stock: false },
      }),
    ).toThrow(
      "Flow 'order-flow', state 'checkStock': the initial state is disabled by config property 'stock' (value false)",
    );
  });

  it('a config that leaves a manual state without events is refused (dead end)', () => {
    const flow: FlowDefinition = {
      id: 'f',
      initialState: 'A',
      states: [
        { id: 'A', kind: 'manual', events: [{ id: 'go', to: 'B', enabledBy: 'go' }] },
        { id: 'B', kind: 'final' },
      ],
    };
    expect(() => makeStateMachine({ flows: [flow], config: { go: false } })).toThrow(
      "after applying config: invalid flow definition (1 problem):\n  - Flow 'f', state 'A': manual state has no events, so it could never be left (make it a final state or add an event) [DEAD_END_STATE]",
    );
  });

  it('a disabled branch makes the decision fall through to the next one', async () => {
    const flow: FlowDefinition = {
      id: 'f',
      initialState: 'decide',
      states: [
        {
          id: 'decide',
          kind: 'auto',
          transitions: [{ to: 'FAST', condition: 'always', enabledBy: 'fastTrack' }, { to: 'SLOW' }],
        },
        { id: 'FAST', kind: 'final' },
        { id: 'SLOW', kind: 'final' },
      ],
    };
    const run = async (config: StmConfig): Promise<string | undefined> => {
      const entity: { state?: StmState } = {};
      await makeStateMachine({ flows: [flow], config, conditions: { always: () => true } }).start(entity);
      return entity.state?.stateId;
    };
    expect(await run({})).toBe('FAST');
    expect(await run({ fastTrack: false })).toBe('SLOW');
  });
});
