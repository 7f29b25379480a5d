import { applyConfig, defineFlow, loadFlowsFile, renderMermaid, type FlowDefinition } from '../src/index';
import { processFlowPath } from './support/process-fixture';

describe('renderMermaid', () => {
  const small = defineFlow('review')
    .auto('needsReview', (s) => s.when('large', 'REVIEWING').otherwise('APPROVED'))
    .manual('REVIEWING', (s) =>
      s
        .on('approve', 'APPROVED', { action: 'stamp' })
        .on('reject', 'REJECTED')
        .on('comment', undefined, { enabledBy: 'comments' }),
    )
    .final('APPROVED')
    .final('REJECTED')
    .build();

  it('renders a small flow: initial arrow, choice node, labelled transitions, final states', () => {
    expect(renderMermaid(small)).toBe(
      [
        'stateDiagram-v2',
        '  state needsReview <<choice>>',
        '  [*] --> needsReview',
        '  needsReview --> REVIEWING : large',
        '  needsReview --> APPROVED : else',
        '  REVIEWING --> APPROVED : approve',
        '  REVIEWING --> REJECTED : reject',
        '  REVIEWING --> REVIEWING : comment',
        '  APPROVED --> [*]',
        '  REJECTED --> [*]',
        '',
      ].join('\n'),
    );
  });

  it('can show actions, a direction, and leaves out what config disables', () => {
    const text = renderMermaid(applyConfig(small, { comments: false }), { direction: 'LR', showActions: true });
    expect(text).toContain('stateDiagram-v2\n  direction LR\n');
    expect(text).toContain('  REVIEWING --> APPROVED : approve / stamp\n');
    expect(text).not.toContain('comment');
  });

  it('aliases ids Mermaid cannot take', () => {
    const flow: FlowDefinition = {
      id: 'f',
      initialState: 'to-do',
      states: [
        { id: 'to-do', kind: 'manual', events: [{ id: 'finish', to: 'done.ok' }] },
        { id: 'done.ok', kind: 'final' },
      ],
    };
    expect(renderMermaid(flow)).toBe(
      [
        'stateDiagram-v2',
        '  state "to-do" as s_to_do',
        '  state "done.ok" as s_done_ok',
        '  [*] --> s_to_do',
        '  s_to_do --> s_done_ok : finish',
        '  s_done_ok --> [*]',
        '',
      ].join('\n'),
    );
  });

  it('renders the process flow with both decisions as choices', async () => {
    const { flows } = await loadFlowsFile(processFlowPath);
    const text = renderMermaid(flows[0] as FlowDefinition);
    expect(text.split('\n').filter((l) => l.includes('<<choice>>'))).toEqual([
      '  state isThisLeafNode <<choice>>',
      '  state areAllSubProcessesDone <<choice>>',
      '  state isAggregationSuccessful <<choice>>',
    ]);
    expect(text).toContain('  [*] --> isThisLeafNode\n');
    expect(text).toContain('  areAllSubProcessesDone --> AGGREGATION_PENDING : allSubProcessesDone\n');
    expect(text).toContain('  isAggregationSuccessful --> PROCESSED_WITH_ERRORS : hasErrors\n');
    expect(text.endsWith('  PROCESSED --> [*]\n  PROCESSED_WITH_ERRORS --> [*]\n')).toBe(true);
  });
});

describe('defineFlow', () => {
  it('builds plain data equal to the object form', () => {
    const built = defineFlow('door')
      .initial('CLOSED')
      .manual('OPEN', (s) => s.on('close', 'CLOSED').meta('color', 'green'))
      .manual('CLOSED', (s) =>
        s
          .onEntry('lock')
          .onExit('unlock')
          .on('open', 'OPEN', { metadata: { key: 'yes' } })
          .on('burn', 'ASHES'),
      )
      .final('ASHES', (s) => s.enabledBy('fire'))
      .build();
    expect(built).toEqual({
      id: 'door',
      initialState: 'CLOSED',
      states: [
        { id: 'OPEN', kind: 'manual', events: [{ id: 'close', to: 'CLOSED' }], metadata: { color: 'green' } },
        {
          id: 'CLOSED',
          kind: 'manual',
          onEntry: ['lock'],
          onExit: ['unlock'],
          events: [
            { id: 'open', to: 'OPEN', metadata: { key: 'yes' } },
            { id: 'burn', to: 'ASHES' },
          ],
        },
        { id: 'ASHES', kind: 'final', enabledBy: 'fire' },
      ],
    });
  });

  it('validates on build', () => {
    expect(() =>
      defineFlow('f')
        .manual('A', (s) => s.on('go', 'B'))
        .build(),
    ).toThrow(
      "invalid flow definition (1 problem):\n  - Flow 'f', state 'A', event 'go': target state 'B' does not exist [UNKNOWN_TARGET_STATE]",
    );
    expect(() =>
      defineFlow('f')
        .auto('d', (s) => s.otherwise('E').when('c', 'E'))
        .final('E')
        .build(),
    ).toThrow(
      "Flow 'f', state 'd': transition #2 (condition 'c') follows the unconditional transition and can never be taken [UNREACHABLE_BRANCH]",
    );
  });
});
