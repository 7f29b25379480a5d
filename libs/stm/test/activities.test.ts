import { defineFlow, isStmError, makeStateMachine, parseFlowsXml, renderMermaid, type StmState } from '@fw/stm';

/*
 * Activities: work to do in a manual state. Doing one is an internal transition recorded on the
 * entity's state; leaving the state waits for every mandatory activity.
 */

const CLAIM_XML = `<states>
  <flow id="claim">
    <manual-state id="OPEN" initialState="true">
      <activity id="checkDocuments" mandatory="true"/>
      <activity id="callCustomer" mandatory="true"/>
      <activity id="addNote"/>
      <on eventId="comment"/>
      <on eventId="approve" newStateId="APPROVED"/>
      <on eventId="reject" newStateId="REJECTED"/>
    </manual-state>
    <end-state id="APPROVED"/>
    <end-state id="REJECTED"/>
  </flow>
</states>`;

interface Claim {
  state?: StmState | null;
}

async function refused(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    if (isStmError(err)) return { code: err.subErrorCode, message: err.message };
    throw err;
  }
  throw new Error('expected the event to be refused');
}

describe('activities', () => {
  it('reads activities from XML (optional unless mandatory="true") and from the builder, the same way', async () => {
    const { flows } = await parseFlowsXml(CLAIM_XML);
    expect(flows[0].states[0].activities).toEqual([
      { id: 'checkDocuments', mandatory: true },
      { id: 'callCustomer', mandatory: true },
      { id: 'addNote', mandatory: false },
    ]);
    const built = defineFlow('claim')
      .manual('OPEN', (s) =>
        s
          .activity('checkDocuments', { mandatory: true })
          .activity('callCustomer', { mandatory: true })
          .activity('addNote')
          .on('comment')
          .on('approve', 'APPROVED')
          .on('reject', 'REJECTED'),
      )
      .final('APPROVED')
      .final('REJECTED')
      .build();
    expect(built.states[0].activities).toEqual(flows[0].states[0].activities);
  });

  it('refuses to leave the state until every mandatory activity is done, naming the missing ones; records each activity once', async () => {
    const { flows } = await parseFlowsXml(CLAIM_XML);
    const machine = makeStateMachine<Claim>({ flows });
    const claim: Claim = {};
    await machine.start(claim, undefined);
    expect(await refused(machine.send(claim, 'approve', {}, undefined))).toEqual({
      code: 'STM_EVENT_NOT_ALLOWED',
      message:
        "Flow 'claim', state 'OPEN', event 'approve': the event is not allowed until the mandatory activities are done (missing: checkDocuments, callCustomer)",
    });
    expect(claim.state).toEqual({ flowId: 'claim', stateId: 'OPEN' });
    // internal events and optional activities are not blocked
    await machine.send(claim, 'comment', {}, undefined);
    const done = await machine.send(claim, 'checkDocuments', {}, undefined);
    expect(done.steps).toEqual([{ from: 'OPEN', to: 'OPEN', eventId: 'checkDocuments', internal: true }]);
    await machine.send(claim, 'checkDocuments', {}, undefined);
    expect(claim.state).toEqual({ flowId: 'claim', stateId: 'OPEN', doneActivities: ['checkDocuments'] });
    expect(await refused(machine.send(claim, 'reject', {}, undefined))).toMatchObject({
      message: expect.stringContaining('(missing: callCustomer)'),
    });
    const allowed = machine
      .allowedEvents(claim.state as StmState)
      .map((e) => [e.eventId, e.metadata.activity ?? 'event']);
    expect(allowed).toEqual([
      ['comment', 'event'],
      ['callCustomer', 'mandatory'],
      ['addNote', 'optional'],
    ]);
    await machine.send(claim, 'callCustomer', {}, undefined);
    expect(machine.allowedEvents(claim.state as StmState).map((e) => e.eventId)).toEqual([
      'comment',
      'approve',
      'reject',
      'addNote',
    ]);
    const result = await machine.send(claim, 'approve', {}, undefined);
    expect(result.isFinal).toBe(true);
    // leaving clears the record: activities belong to the state
    expect(claim.state).toEqual({ flowId: 'claim', stateId: 'APPROVED' });
  });

  it('refuses activities outside manual states and ids that clash', () => {
    expect(() =>
      defineFlow('f')
        .manual('A', (s) => s.activity('x').activity('x').on('go', 'B'))
        .final('B')
        .build(),
    ).toThrow(/activity 'x' is declared more than once/);
    expect(() =>
      defineFlow('f')
        .manual('A', (s) => s.activity('go').on('go', 'B'))
        .final('B')
        .build(),
    ).toThrow(/activity 'go' has the id of an event of the state/);
    expect(() =>
      defineFlow('f')
        .manual('A', (s) => s.on('go', 'B'))
        .final('B', (s) => s.activity('late'))
        .build(),
    ).toThrow(/only manual states can have activities/);
  });

  it('shows the activities in the Mermaid diagram', async () => {
    const { flows } = await parseFlowsXml(CLAIM_XML);
    expect(renderMermaid(flows[0])).toContain(
      '  note right of OPEN : activities<br/>mandatory: checkDocuments, callCustomer<br/>optional: addNote\n',
    );
  });
});
