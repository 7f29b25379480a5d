import { isStmError, makeStateMachine, StmErrorCodes, type FlowDefinition, type StmState } from '../src/index';

interface Doc {
  state?: StmState;
  log: string[];
  score: number;
}

/** Exit, transition and entry actions, a chain of decisions with conditions (one negated). */
const review: FlowDefinition = {
  id: 'review',
  initialState: 'DRAFT',
  states: [
    {
      id: 'DRAFT',
      kind: 'manual',
      onExit: ['leaveDraft', 'stamp'],
      events: [{ id: 'submit', to: 'checkScore', action: 'record' }],
    },
    {
      id: 'checkScore',
      kind: 'auto',
      onEntry: ['enterCheck'],
      transitions: [
        { to: 'checkAgain', condition: 'low', action: 'bump' },
        { to: 'checkHigh', condition: '!low' },
      ],
    },
    { id: 'checkAgain', kind: 'auto', transitions: [{ to: 'REJECTED', condition: 'low' }, { to: 'checkHigh' }] },
    { id: 'checkHigh', kind: 'auto', transitions: [{ to: 'APPROVED', condition: 'high' }, { to: 'REVIEW' }] },
    { id: 'REVIEW', kind: 'manual', onEntry: ['enterReview'], events: [{ id: 'note', action: 'record' }] },
    { id: 'APPROVED', kind: 'final', onEntry: ['enterApproved'] },
    { id: 'REJECTED', kind: 'final' },
  ],
};

const later = <T>(value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), 1));

/** The same machine with synchronous or asynchronous actions and conditions, or a mix (odd ones async). */
function machineOf(mode: 'sync' | 'async' | 'mixed', failIn?: string) {
  let n = 0;
  const wrap = <T>(value: T): T | Promise<T> =>
    mode === 'async' || (mode === 'mixed' && n++ % 2 === 1) ? later(value) : value;
  const act =
    (name: string) =>
    ({ entity }: { entity: Doc }) => {
      entity.log.push(name);
      if (name === failIn)
        return mode === 'sync'
          ? (() => {
              throw new Error(`${name} failed`);
            })()
          : Promise.reject(new Error(`${name} failed`));
      return wrap(undefined);
    };
  return makeStateMachine<Doc>({
    flows: [review],
    actions: Object.fromEntries(
      ['leaveDraft', 'stamp', 'record', 'enterCheck', 'bump', 'enterReview', 'enterApproved'].map((name) => [
        name,
        act(name),
      ]),
    ),
    conditions: {
      low: ({ entity }) => wrap(entity.score < 5),
      high: ({ entity }) => wrap(entity.score > 8),
    },
  });
}

async function walk(mode: 'sync' | 'async' | 'mixed', score: number) {
  const machine = machineOf(mode);
  const doc: Doc = { log: [], score };
  await machine.start(doc);
  const result = await machine.send(doc, 'submit', { by: 'ann' });
  return { state: doc.state, log: doc.log, steps: result.steps, actions: result.actions, isFinal: result.isFinal };
}

describe('actions and conditions that return promises', () => {
  it.each([2, 6, 9])('async, sync and mixed steps take the same path in the same order (score %i)', async (score) => {
    const sync = await walk('sync', score);
    expect(await walk('async', score)).toEqual(sync);
    expect(await walk('mixed', score)).toEqual(sync);
    expect(sync.log.slice(0, 4)).toEqual(['leaveDraft', 'stamp', 'record', 'enterCheck']);
  });

  it('ends where the conditions lead: low twice → REJECTED, middle → REVIEW, high → APPROVED', async () => {
    expect((await walk('async', 2)).state?.stateId).toBe('REJECTED');
    expect((await walk('async', 6)).state?.stateId).toBe('REVIEW');
    expect((await walk('async', 9)).state?.stateId).toBe('APPROVED');
    expect((await walk('mixed', 2)).log).toEqual(['leaveDraft', 'stamp', 'record', 'enterCheck', 'bump']);
  });

  it.each(['sync', 'async', 'mixed'] as const)(
    'a failing action (%s) rejects the call and restores the state; later actions do not run',
    async (mode) => {
      const machine = machineOf(mode, 'enterCheck');
      const doc: Doc = { log: [], score: 6 };
      await machine.start(doc);
      await expect(machine.send(doc, 'submit', undefined)).rejects.toThrow('enterCheck failed');
      expect(doc.state).toEqual({ flowId: 'review', stateId: 'DRAFT' });
      expect(doc.log).toEqual(['leaveDraft', 'stamp', 'record', 'enterCheck']);
    },
  );

  it('an event the state does not take is refused before any action runs, whatever the mode', async () => {
    const machine = machineOf('async');
    const doc: Doc = { log: [], score: 6 };
    await machine.start(doc);
    const error = await machine.send(doc, 'note', undefined).catch((e: unknown) => e);
    expect(isStmError(error, StmErrorCodes.eventNotAllowed)).toBe(true);
    expect(doc.log).toEqual([]);
  });

  it('sendNow answers the result itself for synchronous steps, a promise for asynchronous ones, and throws a refusal at once', async () => {
    const sync = machineOf('sync');
    const doc: Doc = { log: [], score: 6 };
    await sync.start(doc);
    const result = sync.sendNow(doc, 'submit', undefined);
    expect(result).not.toBeInstanceOf(Promise);
    expect((result as { state: StmState }).state.stateId).toBe('REVIEW');
    expect(() => sync.sendNow(doc, 'submit', undefined)).toThrow(/not allowed/);
    expect(doc.state?.stateId).toBe('REVIEW');

    const async = machineOf('async');
    const other: Doc = { log: [], score: 9 };
    await async.start(other);
    const pending = async.sendNow(other, 'submit', undefined);
    expect(pending).toBeInstanceOf(Promise);
    expect((await pending).state.stateId).toBe('APPROVED');
  });
});
