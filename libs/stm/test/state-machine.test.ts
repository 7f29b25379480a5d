import {
  defineFlow,
  isStmError,
  makeStateMachine,
  StmErrorCodes,
  type FlowDefinition,
  type StateAccessor,
  type StmState,
} from '../src/index';

interface Thing {
  state?: StmState;
  n: number;
}

describe('makeStateMachine: runtime safety', () => {
  it('catches decision loops with STM_MAX_STEPS_EXCEEDED and restores the state', async () => {
    const loop: FlowDefinition = {
      id: 'loop',
      initialState: 'A',
      states: [
        {
          id: 'A',
          kind: 'manual',
          events: [
            { id: 'go', to: 'd1' },
            { id: 'stop', to: 'END' },
          ],
        },
        { id: 'd1', kind: 'auto', transitions: [{ to: 'd2', condition: 'again' }, { to: 'A' }] },
        { id: 'd2', kind: 'auto', transitions: [{ to: 'd1' }] },
        { id: 'END', kind: 'final' },
      ],
    };
    const warnings: string[] = [];
    let evaluations = 0;
    const machine = makeStateMachine<Thing>({
      flows: [loop],
      conditions: { again: () => (evaluations += 1) > 0 },
      maxAutoSteps: 10,
      onWarning: (w) => warnings.push(w.code),
    });
    expect(warnings).toEqual(['AUTO_STATE_CYCLE', 'AUTO_STATE_CYCLE']);
    const thing: Thing = { n: 0 };
    await machine.start(thing);
    const error = await machine.send(thing, 'go', undefined).catch((e: unknown) => e);
    expect(isStmError(error, StmErrorCodes.maxStepsExceeded)).toBe(true);
    expect((error as Error).message).toMatch(/^Flow 'loop', state 'd(1|2)': more than 10 automatic steps in one call/);
    expect(evaluations).toBe(5);
    expect(thing.state).toEqual({ flowId: 'loop', stateId: 'A' });
  });

  it('stops looping as soon as a condition changes', async () => {
    let budget = 3;
    const flow = defineFlow('countdown')
      .auto('tick', (s) => s.when('more', 'tick', { action: 'dec' }).otherwise('DONE'))
      .final('DONE')
      .build({ onWarning: () => undefined });
    const machine = makeStateMachine<Thing>({
      flows: [flow],
      conditions: { more: () => budget > 0 },
      actions: {
        dec: ({ entity }) => {
          budget -= 1;
          entity.n += 1;
        },
      },
    });
    const thing: Thing = { n: 0 };
    const result = await machine.start(thing);
    expect(result.state.stateId).toBe('DONE');
    expect(thing.n).toBe(3);
  });

  it('rethrows action errors unchanged and restores the state field', async () => {
    const boom = new Error('payment service down');
    const flow = defineFlow('pay')
      .manual('OPEN', (s) => s.on('pay', 'PAID', { action: 'charge' }))
      .final('PAID', (s) => s.onEntry('receipt'))
      .build();
    const machine = makeStateMachine<Thing>({
      flows: [flow],
      actions: { charge: () => undefined, receipt: () => Promise.reject(boom) },
    });
    const thing: Thing = { n: 0 };
    await machine.start(thing);
    await expect(machine.send(thing, 'pay', undefined)).rejects.toBe(boom);
    expect(thing.state).toEqual({ flowId: 'pay', stateId: 'OPEN' });
  });

  it('a failed start leaves the entity without state', async () => {
    const flow = defineFlow('f')
      .auto('d', (s) => s.when('broken', 'E').otherwise('E'))
      .final('E')
      .build();
    const machine = makeStateMachine<Thing>({
      flows: [flow],
      conditions: {
        broken: () => {
          throw new Error('no');
        },
      },
    });
    const thing: Thing = { n: 0 };
    await expect(machine.start(thing)).rejects.toThrow('no');
    expect(thing.state).toBeUndefined();
  });

  it('STM_NO_TRANSITION when no branch holds', async () => {
    const flow = defineFlow('f')
      .auto('d', (s) => s.when('yes', 'E').when('!yes', 'E'))
      .final('E')
      .build();
    const machine = makeStateMachine<Thing>({ flows: [flow], conditions: { yes: () => false } });
    const thing: Thing = { n: 0 };
    await expect(machine.start(thing)).resolves.toMatchObject({
      state: { stateId: 'E' },
      steps: [{ to: 'd' }, { to: 'E', condition: '!yes' }],
    });
    const only = defineFlow('g')
      .auto('d', (s) => s.when('yes', 'E'))
      .final('E')
      .build();
    const strict = makeStateMachine<Thing>({ flows: [only], conditions: { yes: () => false } });
    await expect(strict.start({ n: 0 })).rejects.toMatchObject({
      subErrorCode: 'STM_NO_TRANSITION',
      message: "Flow 'g', state 'd': no transition condition holds and there is no unconditional transition",
    });
  });
});

describe('makeStateMachine: API errors', () => {
  const door = defineFlow('door')
    .manual('CLOSED', (s) => s.on('open', 'OPEN'))
    .manual('OPEN', (s) => s.on('close', 'CLOSED').on('remove', 'GONE'))
    .final('GONE')
    .build();

  it('refuses unregistered actions and conditions when made, naming where they are used', () => {
    const flow = defineFlow('f')
      .auto('d', (s) => s.when('ok', 'A').otherwise('A'))
      .manual('A', (s) => s.onEntry('hello').on('go', 'E', { action: 'move' }))
      .final('E')
      .build();
    expect(() => makeStateMachine({ flows: [flow], conditions: { ok: () => true } })).toThrow(
      "Unknown action 'hello' (Flow 'f', state 'A', entry), 'move' (Flow 'f', state 'A', event 'go'): register it in 'actions'",
    );
    const error = (() => {
      try {
        makeStateMachine({ flows: [flow], actions: { hello: () => undefined, move: () => undefined } });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(isStmError(error, StmErrorCodes.unknownCondition)).toBe(true);
    expect((error as Error).message).toContain("'ok' (Flow 'f', state 'd', transition to 'A')");
  });

  it('refuses an invalid flow when made', () => {
    const bad: FlowDefinition = { id: 'bad', initialState: 'X', states: [{ id: 'A', kind: 'final' }] };
    expect(() => makeStateMachine({ flows: [bad] })).toThrow(
      "Flow 'bad': initial state 'X' does not exist [UNKNOWN_INITIAL_STATE]",
    );
  });

  it('start twice is refused unless restart is asked for', async () => {
    const machine = makeStateMachine<Thing>({ flows: [door] });
    const thing: Thing = { n: 0 };
    await machine.start(thing);
    await machine.send(thing, 'open', undefined);
    await expect(machine.start(thing)).rejects.toMatchObject({ subErrorCode: 'STM_ALREADY_STARTED' });
    expect(thing.state?.stateId).toBe('OPEN');
    await machine.start(thing, undefined, { restart: true });
    expect(thing.state?.stateId).toBe('CLOSED');
  });

  it('send without state, unknown flow, unknown state', async () => {
    const machine = makeStateMachine<Thing>({ flows: [door] });
    await expect(machine.send({ n: 0 }, 'open', undefined)).rejects.toMatchObject({ subErrorCode: 'STM_NO_STATE' });
    await expect(
      machine.send({ n: 0, state: { flowId: 'window', stateId: 'CLOSED' } }, 'open', undefined),
    ).rejects.toMatchObject({
      subErrorCode: 'STM_UNKNOWN_FLOW',
      message: "Unknown flow 'window' (known: 'door')",
    });
    await expect(
      machine.send({ n: 0, state: { flowId: 'door', stateId: 'AJAR' } }, 'open', undefined),
    ).rejects.toMatchObject({
      subErrorCode: 'STM_UNKNOWN_STATE',
    });
  });

  it('chooses the default flow, or needs a flow id', async () => {
    const other = defineFlow('other').final('X').asDefault().build();
    const machine = makeStateMachine<Thing>({ flows: [door, other] });
    const a: Thing = { n: 0 };
    await machine.start(a);
    expect(a.state).toEqual({ flowId: 'other', stateId: 'X' });
    const b: Thing = { n: 0 };
    await machine.start(b, undefined, { flowId: 'door' });
    expect(b.state).toEqual({ flowId: 'door', stateId: 'CLOSED' });
    const noDefault = makeStateMachine<Thing>({ flows: [door, defineFlow('x').final('X').build()] });
    await expect(noDefault.start({ n: 0 })).rejects.toMatchObject({
      subErrorCode: 'STM_UNKNOWN_FLOW',
      message: "No default flow: give a flow id (known: 'door', 'x')",
    });
  });

  it('works with a custom state accessor (state in two columns) and passes the context through', async () => {
    interface Row {
      flow_id: string | null;
      state_id: string | null;
    }
    const columns: StateAccessor<Row> = {
      get: (r) => (r.flow_id !== null && r.state_id !== null ? { flowId: r.flow_id, stateId: r.state_id } : undefined),
      set: (r, s) => {
        r.flow_id = s?.flowId ?? null;
        r.state_id = s?.stateId ?? null;
      },
    };
    const seen: string[] = [];
    const flow = defineFlow('door')
      .manual('CLOSED', (s) => s.on('open', 'OPEN', { action: 'log' }))
      .final('OPEN')
      .build();
    const machine = makeStateMachine<Row, { trx: string }>({
      flows: [flow],
      stateAccessor: columns,
      actions: {
        log: ({ context, payload }) => {
          seen.push(`${context.trx}:${String(payload)}`);
        },
      },
    });
    const row: Row = { flow_id: null, state_id: null };
    await machine.start(row, { trx: 't1' });
    const result = await machine.send(row, 'open', 'key', { trx: 't2' });
    expect(row).toEqual({ flow_id: 'door', state_id: 'OPEN' });
    expect(result.isFinal).toBe(true);
    expect(seen).toEqual(['t2:key']);
  });

  it('an external self-transition runs exit and entry; an internal one does not', async () => {
    const trace: string[] = [];
    const flow = defineFlow('self')
      .manual('S', (s) =>
        s
          .onEntry('in')
          .onExit('out')
          .on('again', 'S', { action: 't' })
          .on('ping', undefined, { action: 't' })
          .on('end', 'E'),
      )
      .final('E')
      .build();
    const log =
      (name: string) =>
      ({ phase }: { phase: string }): void => {
        trace.push(`${phase}:${name}`);
      };
    const machine = makeStateMachine<Thing>({
      flows: [flow],
      actions: { in: log('in'), out: log('out'), t: log('t') },
    });
    const thing: Thing = { n: 0 };
    await machine.start(thing);
    trace.length = 0;
    await machine.send(thing, 'again', undefined);
    expect(trace).toEqual(['exit:out', 'transition:t', 'entry:in']);
    trace.length = 0;
    await machine.send(thing, 'ping', undefined);
    expect(trace).toEqual(['transition:t']);
  });
});
