import { checkFlowsXml, isStmError, parseFlowsXml, StmErrorCodes, type StmError } from '../src/index';
import { loadFlowsFile } from '../src/index';
import { processFlowPath } from './support/process-fixture';

async function failure(xml: string, source?: string): Promise<StmError> {
  try {
    await parseFlowsXml(xml, source === undefined ? {} : { source });
  } catch (e) {
    if (isStmError(e)) return e;
    throw e;
  }
  throw new Error('expected the XML to be refused');
}

const flow = (body: string, attrs = 'id="f"'): string => `<states><flow ${attrs}>${body}</flow></states>`;

describe('parseFlowsXml', () => {
  it('reads the process flow fixture into plain data', async () => {
    const { flows, warnings } = await loadFlowsFile(processFlowPath);
    expect(warnings).toEqual([]);
    expect(flows).toHaveLength(1);
    const [process] = flows;
    expect(process?.id).toBe('process-flow');
    expect(process?.isDefault).toBe(true);
    expect(process?.initialState).toBe('isThisLeafNode');
    expect(process?.states.map((s) => `${s.kind}:${s.id}`)).toEqual([
      'auto:isThisLeafNode',
      'manual:EXECUTING',
      'manual:SPLIT_PENDING',
      'manual:SUB_PROCESSES_PENDING',
      'auto:areAllSubProcessesDone',
      'manual:AGGREGATION_PENDING',
      'auto:isAggregationSuccessful',
      'final:PROCESSED',
      'final:PROCESSED_WITH_ERRORS',
    ]);
    expect(process?.states[0]).toEqual({
      id: 'isThisLeafNode',
      kind: 'auto',
      transitions: [{ to: 'EXECUTING', condition: 'leaf' }, { to: 'SPLIT_PENDING' }],
    });
    expect(process?.states[1]).toEqual({
      id: 'EXECUTING',
      kind: 'manual',
      onEntry: ['launchWorker'],
      metadata: { workerType: 'EXECUTOR' },
      events: [
        { id: 'doneSuccessfully', to: 'PROCESSED', action: 'recordOutput', metadata: { payload: 'output' } },
        { id: 'doneWithErrors', to: 'PROCESSED_WITH_ERRORS', action: 'recordErrors', metadata: { payload: 'errors' } },
        { id: 'statusUpdate', action: 'recordProgress', metadata: { payload: 'percentComplete' } },
      ],
    });
  });

  it('reads entry and exit actions in order, enabledBy, and several flows', async () => {
    const { flows } = await parseFlowsXml(`<states>
      <flow id="a"><manual-state id="S" initialState="true" enabledBy="x">
        <on-entry action="e1"/><on-exit action="x1"/><on-entry action="e2"/>
        <on eventId="go" newStateId="E" enabledBy="y"/></manual-state><end-state id="E"/></flow>
      <flow id="b" default="true"><end-state id="Z" initialState="true"/></flow>
    </states>`);
    expect(flows.map((f) => f.id)).toEqual(['a', 'b']);
    expect(flows[0]?.states[0]).toEqual({
      id: 'S',
      kind: 'manual',
      onEntry: ['e1', 'e2'],
      onExit: ['x1'],
      enabledBy: 'x',
      events: [{ id: 'go', to: 'E', enabledBy: 'y' }],
    });
    expect(flows[1]?.isDefault).toBe(true);
  });

  it('refuses malformed XML', async () => {
    const e = await failure('<states><flow id="f"></states>', 'broken.xml');
    expect(e.subErrorCode).toBe(StmErrorCodes.xmlParse);
    expect(e.message).toBe('broken.xml: malformed XML: line 1, column 22: </states> closes <flow> opened on line 1');
    expect({ line: e.line, column: e.column }).toEqual({ line: 1, column: 22 });
  });

  it('refuses a document whose root is not <states>', async () => {
    const e = await failure('<flows/>');
    expect(e.subErrorCode).toBe('STM_XML_PARSE_ERROR');
    expect(e.message).toBe('expected a <states> root element, found <flows>');
  });

  it('refuses an unknown target state, naming flow, state and event', async () => {
    const e = await failure(
      flow(
        '<manual-state id="A" initialState="true"><on eventId="go" newStateId="PROCESED"/></manual-state><end-state id="PROCESSED"/>',
      ),
      'f.xml',
    );
    expect(e.subErrorCode).toBe('STM_INVALID_FLOW');
    expect(e.message).toBe(
      "f.xml: invalid flow definition (1 problem):\n  - line 1: Flow 'f', state 'A', event 'go': target state 'PROCESED' does not exist [UNKNOWN_TARGET_STATE]",
    );
    expect(e.issues).toEqual([
      expect.objectContaining({ code: 'UNKNOWN_TARGET_STATE', flowId: 'f', stateId: 'A', eventId: 'go' }),
    ]);
  });

  it('refuses an unknown branch target of an auto state', async () => {
    const e = await failure(
      flow(
        '<auto-state id="d" initialState="true"><transition to="X" condition="c"/><transition to="E"/></auto-state><end-state id="E"/>',
      ),
    );
    expect(e.message).toContain(
      "Flow 'f', state 'd': transition #1 (condition 'c'): target state 'X' does not exist [UNKNOWN_TARGET_STATE]",
    );
  });

  it('refuses duplicate state and event ids', async () => {
    const e = await failure(
      flow(
        '<manual-state id="A" initialState="true"><on eventId="go" newStateId="E"/><on eventId="go" newStateId="E"/></manual-state><end-state id="E"/><end-state id="E"/>',
      ),
    );
    expect(e.issues.map((i) => i.code)).toEqual(['DUPLICATE_STATE', 'DUPLICATE_EVENT']);
    expect(e.message).toContain("Flow 'f', state 'E': state is declared more than once");
    expect(e.message).toContain("Flow 'f', state 'A', event 'go': event is declared more than once");
  });

  it('refuses duplicate flow ids', async () => {
    const e = await failure(
      '<states><flow id="f"><end-state id="E" initialState="true"/></flow><flow id="f"><end-state id="E" initialState="true"/></flow></states>',
    );
    expect(e.message).toContain("Flow 'f': flow is declared more than once [DUPLICATE_FLOW]");
  });

  it('refuses a flow without initial state, and one with two', async () => {
    const none = await failure(flow('<end-state id="E"/>'));
    expect(none.message).toContain("Flow 'f': no initial state is declared [MISSING_INITIAL_STATE]");
    const two = await failure(flow('<end-state id="E" initialState="true"/><end-state id="F" initialState="true"/>'));
    expect(two.message).toContain("Flow 'f': more than one initial state: 'E', 'F' [MULTIPLE_INITIAL_STATES]");
  });

  it('refuses a manual state without events (dead end)', async () => {
    const e = await failure(
      flow(
        '<manual-state id="A" initialState="true"><on eventId="go" newStateId="B"/></manual-state><manual-state id="B"/><end-state id="E"/>',
      ),
    );
    expect(e.issues.map((i) => i.code)).toEqual(['DEAD_END_STATE']);
    expect(e.message).toContain("Flow 'f', state 'B': manual state has no events");
  });

  it('refuses unknown elements and attributes, naming where they are', async () => {
    const e = await failure(
      flow(
        '<manual-state id="A" initialState="true" intialState="true"><on eventId="go" newState="E"/><transition to="E"/></manual-state><end-state id="E"/><wait-state id="W"/>',
      ),
    );
    expect(e.issues.map((i) => i.code)).toEqual([
      'UNKNOWN_ATTRIBUTE',
      'UNKNOWN_ATTRIBUTE',
      'UNKNOWN_ELEMENT',
      'UNKNOWN_ELEMENT',
    ]);
    expect(e.message).toContain("Flow 'f', state 'A': unknown attribute 'intialState' on <manual-state>");
    expect(e.message).toContain("Flow 'f', state 'A', event 'go': unknown attribute 'newState' on <on>");
    expect(e.message).toContain("Flow 'f', state 'A': element <transition> is not allowed in <manual-state>");
    expect(e.message).toContain("Flow 'f': unknown element <wait-state>");
  });

  it('refuses missing ids and bad booleans', async () => {
    const e = await failure('<states><flow><end-state initialState="yes"/></flow></states>');
    expect(e.issues.map((i) => i.code)).toEqual(['MISSING_ATTRIBUTE', 'MISSING_ATTRIBUTE', 'INVALID_BOOLEAN']);
    expect(e.message).toContain("Flow #1: <flow> needs attribute 'id'");
    expect(e.message).toContain(
      'Flow #1, state #1: attribute \'initialState\' of <end-state> must be "true" or "false", got "yes"',
    );
  });

  it('refuses a branch after the unconditional one, and events on a final state', async () => {
    const e = await failure(
      flow(
        '<auto-state id="d" initialState="true"><transition to="E"/><transition to="E" condition="c"/></auto-state><end-state id="E"><on eventId="x" newStateId="E"/></end-state>',
      ),
    );
    expect(e.message).toContain("Flow 'f', state 'E': element <on> is not allowed in <end-state>");
  });

  it('reports unreachable states and auto-state cycles as warnings, or errors when strict', async () => {
    const xml = flow(
      '<auto-state id="a" initialState="true"><transition to="b" condition="c"/><transition to="E"/></auto-state>' +
        '<auto-state id="b"><transition to="a"/></auto-state><end-state id="E"/><end-state id="LOST"/>',
    );
    const { warnings } = await parseFlowsXml(xml);
    expect(warnings.map((w) => `${w.code}:${w.stateId}`)).toEqual([
      'UNREACHABLE_STATE:LOST',
      'AUTO_STATE_CYCLE:a',
      'AUTO_STATE_CYCLE:b',
    ]);
    const strict = await parseFlowsXml(xml, { strict: true }).catch((err: unknown) => err);
    expect(isStmError(strict, StmErrorCodes.invalidFlow)).toBe(true);
    expect((strict as StmError).message).toContain(
      "Flow 'f', state 'LOST': state cannot be reached from the initial state 'a' [UNREACHABLE_STATE]",
    );
  });

  it('warns about states from which no final state can be reached', async () => {
    const { warnings } = await parseFlowsXml(
      flow(
        '<manual-state id="A" initialState="true"><on eventId="a" newStateId="B"/><on eventId="end" newStateId="E"/></manual-state><manual-state id="B"><on eventId="b" newStateId="B"/></manual-state><end-state id="E"/>',
      ),
    );
    expect(warnings).toEqual([
      {
        code: 'CANNOT_REACH_FINAL_STATE',
        message: "Flow 'f', state 'B': no path leads from this state to a final state",
        flowId: 'f',
        stateId: 'B',
        line: 1,
      },
    ]);
  });
});

/** The document the line tests break, one element per line. */
const CLAIM = `<?xml version="1.0"?>
<states>
  <flow id="claim">
    <manual-state id="DRAFT" initialState="true">
      <on eventId="submit" newStateId="CHECK"/>
    </manual-state>
    <auto-state id="CHECK">
      <transition to="APPROVED" condition="small"/>
      <transition to="APPROVED"/>
    </auto-state>
    <manual-state id="APPROVED">
      <activity id="receipt"/>
      <on eventId="pay" newStateId="PAID"/>
    </manual-state>
    <end-state id="PAID"/>
  </flow>
</states>
`;

describe('checkFlowsXml', () => {
  const lineOf = (xml: string, strict = true) =>
    checkFlowsXml(xml, { strict }).errors.map((i) => `${i.line}: ${i.code}: ${i.message}`);

  it('reads a valid document, and knows the element of every part', () => {
    const checked = checkFlowsXml(CLAIM);
    expect(checked.errors).toEqual([]);
    const [claim] = checked.flows;
    const approved = claim.states.find((s) => s.id === 'APPROVED')!;
    expect(checked.elementOf(claim)?.line).toBe(3);
    expect(checked.elementOf(approved)?.line).toBe(11);
    expect(checked.elementOf(approved.activities![0])).toMatchObject({ name: 'activity', line: 12 });
    expect(checked.elementOf(approved.events![0])?.line).toBe(13);
    expect(checked.elementOf({})).toBeUndefined();
  });

  it('names the line of each problem: malformed XML, unknown target, no initial state, unreachable state, dead end, branch order', () => {
    expect(lineOf(CLAIM.replace('<end-state id="PAID"/>', '<end-state id="PAID">'))).toEqual([
      '16: MALFORMED_XML: malformed XML (column 3): </flow> closes <end-state> opened on line 15',
    ]);
    expect(lineOf(CLAIM.replace('newStateId="PAID"', 'newStateId="PAYED"'), false)).toEqual([
      "13: UNKNOWN_TARGET_STATE: Flow 'claim', state 'APPROVED', event 'pay': target state 'PAYED' does not exist",
    ]);
    expect(lineOf(CLAIM.replace(' initialState="true"', ''))).toEqual([
      "3: MISSING_INITIAL_STATE: Flow 'claim': no initial state is declared",
    ]);
    expect(
      lineOf(
        CLAIM.replace(
          '<end-state id="PAID"/>',
          '<manual-state id="LIMBO"><on eventId="x" newStateId="PAID"/></manual-state>\n    <end-state id="PAID"/>',
        ),
      ),
    ).toEqual([
      "15: UNREACHABLE_STATE: Flow 'claim', state 'LIMBO': state cannot be reached from the initial state 'DRAFT'",
    ]);
    expect(lineOf(CLAIM.replace('<on eventId="pay" newStateId="PAID"/>', ''), false)[0]).toBe(
      "11: DEAD_END_STATE: Flow 'claim', state 'APPROVED': manual state has no events, so it could never be left (make it a final state or add an event)",
    );
    expect(
      lineOf(
        CLAIM.replace(
          '<transition to="APPROVED"/>',
          '<transition to="APPROVED"/>\n      <transition to="DRAFT" condition="big"/>',
        ),
      ),
    ).toEqual([
      "10: UNREACHABLE_BRANCH: Flow 'claim', state 'CHECK': transition #3 (condition 'big') follows the unconditional transition (line 9) and can never be taken",
    ]);
  });

  it('names the line of structural problems: the attribute, the second initial state, the element', () => {
    expect(
      lineOf(
        CLAIM.replace(
          '<manual-state id="DRAFT" initialState="true">',
          '<manual-state id="DRAFT"\n      intialState="true">',
        ),
      ),
    ).toEqual([
      "5: UNKNOWN_ATTRIBUTE: Flow 'claim', state 'DRAFT': unknown attribute 'intialState' on <manual-state> (allowed: id, initialState, enabledBy, meta-*)",
    ]);
    expect(
      lineOf(CLAIM.replace('<manual-state id="APPROVED">', '<manual-state id="APPROVED" initialState="true">')),
    ).toEqual(["11: MULTIPLE_INITIAL_STATES: Flow 'claim': more than one initial state: 'DRAFT', 'APPROVED'"]);
    expect(lineOf(CLAIM.replace('<end-state id="PAID"/>', '<wait-state id="PAID"/>'))).toEqual([
      "15: UNKNOWN_ELEMENT: Flow 'claim': unknown element <wait-state> (expected manual-state, auto-state or end-state)",
    ]);
    expect(lineOf('<flows/>')).toEqual(['1: NOT_A_STATES_DOCUMENT: expected a <states> root element, found <flows>']);
  });

  it('keeps warnings apart unless strict, and reports a flow without a final state', () => {
    const noEnd = CLAIM.replace('<end-state id="PAID"/>', '').replace('newStateId="PAID"', 'newStateId="DRAFT"');
    const lenient = checkFlowsXml(noEnd);
    expect(lenient.errors).toEqual([]);
    expect(lenient.warnings.map((w) => `${w.line}: ${w.code}`)).toEqual([
      '3: NO_FINAL_STATE',
      '4: CANNOT_REACH_FINAL_STATE',
      '7: CANNOT_REACH_FINAL_STATE',
      '11: CANNOT_REACH_FINAL_STATE',
    ]);
    expect(lineOf(noEnd)[0]).toBe("3: NO_FINAL_STATE: Flow 'claim': the flow has no final state");
  });

  it('refuses what the states format does not use, naming the line', () => {
    expect(lineOf('<states>\n<!DOCTYPE x>\n</states>')).toEqual([
      '2: MALFORMED_XML: malformed XML (column 1): DOCTYPE and other declarations are not allowed in a states document',
    ]);
    expect(lineOf('<states>\n  <flow id="f"><![CDATA[x]]></flow>\n</states>')[0]).toMatch(
      /^2: MALFORMED_XML: .*CDATA sections are not allowed/,
    );
  });
});
