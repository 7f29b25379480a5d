import { makeServiceRegistry } from '@fw/service';
import { defineWorkflowService, makeInMemoryWorkflowStore, SUPPORT_TICKET_FLOW } from '@fw/workflow';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { answerFetch, envelope, renderAt } from '../../../test-support/render-app';
import { highlightPath } from './highlight-path';
import { WorkflowPanel } from './workflow-panel';

// Mermaid needs a real layout engine (the browser suite draws it); here it renders a marker of the text it got.
jest.mock('mermaid', () => ({
  __esModule: true,
  default: {
    initialize: jest.fn(),
    render: jest.fn(async (_id: string, text: string) => ({
      svg: `<svg data-lines="${text.split('\n').length}"></svg>`,
    })),
  },
}));

async function supportTicketRoutes() {
  const service = defineWorkflowService({
    name: 'support-ticket',
    version: '1.0.0',
    flows: [SUPPORT_TICKET_FLOW],
    store: makeInMemoryWorkflowStore(),
  });
  const registry = makeServiceRegistry({ host: { name: 'h', version: '1' }, services: [service] });
  const routes: Parameters<typeof answerFetch>[0] = {};
  const read = (op: string, input: Record<string, string> = {}) => registry.invoke('support-ticket', op, input);
  routes['/support-ticket/info'] = envelope(await read('info'));
  const flow = (await read('flow', { flowId: 'support-ticket' })) as { states: Array<{ id: string }> };
  routes['/support-ticket/info/flows/support-ticket'] = envelope(flow);
  routes['/support-ticket/info/flows/support-ticket/diagram'] = envelope(
    await read('diagram', { flowId: 'support-ticket' }),
  );
  routes['/support-ticket/info/flows/support-ticket/test-cases'] = envelope(
    await read('testCases', { flowId: 'support-ticket' }),
  );
  for (const s of flow.states)
    routes[`/support-ticket/info/flows/support-ticket/states/${s.id}/allowed-actions`] = envelope(
      await read('allowedActions', { flowId: 'support-ticket', stateId: s.id }),
    );
  return routes;
}

describe('WorkflowPanel', () => {
  it('draws the flow, lists allowed actions per state and marks a test case on the diagram', async () => {
    answerFetch(await supportTicketRoutes());
    renderAt('/', [{ path: '/', element: <WorkflowPanel service="support-ticket" /> }]);
    expect(await screen.findByText(/4 states, initial/)).toBeTruthy();
    const diagram = screen.getByRole('img', { name: 'State diagram of support-ticket' });
    await waitFor(() => expect(diagram.getAttribute('data-state')).toBe('ready'));
    const actions = screen.getByRole('table');
    const row = (state: string) => within(actions).getByText(state).closest('tr')?.textContent;
    await waitFor(() => expect(row('RESOLVED')).toContain('closereopen'));
    expect(row('OPENED')).toContain('assignclose');
    const cases = screen.getAllByRole('button').filter((b) => b.className === 'case-button');
    expect(cases.map((c) => c.textContent)).toContain('assign → resolve → close');
    const chosen = cases.find((c) => c.textContent === 'assign → resolve → close') as HTMLElement;
    fireEvent.click(chosen);
    expect(chosen.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('img', { name: /with the path assign → resolve → close marked/ })).toBeTruthy();
    expect(screen.getByText(/class OPENED,ASSIGNED,RESOLVED,CLOSED onPath/)).toBeTruthy();
    expect(
      screen
        .getAllByRole('listitem')
        .filter((li) => li.closest('.steps'))
        .map((li) => li.textContent),
    ).toEqual(['OPENED —assign→ ASSIGNED', 'ASSIGNED —resolve→ RESOLVED', 'RESOLVED —close→ CLOSED']);
  });
});

describe('highlightPath', () => {
  it('marks every state of the path and leaves the diagram otherwise unchanged', () => {
    const text = highlightPath('stateDiagram-v2\n  [*] --> A\n  A --> B : go\n', {
      name: 'go',
      steps: [{ from: 'A', event: 'go', to: 'B' }],
      diagram: '',
    });
    expect(text).toBe(
      'stateDiagram-v2\n  [*] --> A\n  A --> B : go\n  classDef onPath fill:#ffd54f,stroke:#b45309,stroke-width:3px,color:#111\n  class A,B onPath\n',
    );
  });
});
