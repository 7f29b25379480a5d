/** @jest-environment jsdom */
import { fireEvent, screen } from '@testing-library/react';
import type { TraceGraph } from '../src/api/types';
import { fieldOf } from '../src/api/client';
import { switchTenantPath } from '../src/app/paths';
import { EDGE_LOOK } from '../src/features/trace/edges';
import { layoutTrace } from '../src/features/trace/layout';
import { buildTimeline } from '../src/features/trace/timeline';
import { fakeApi, page, renderAt } from './harness';

const GRAPH: TraceGraph = {
  nodes: [
    { id: 'trigger:t1', kind: 'TRIGGER', label: 't1', status: 'COMPLETED', time: null, data: { triggerId: 't1' } },
    {
      id: 'p1',
      kind: 'PROCESS',
      label: 'word-count',
      status: 'PROCESSED',
      time: '2025-01-01T10:00:00.000Z',
      data: {
        processType: 'word-count',
        leaf: false,
        parentId: null,
        predecessorId: null,
        triggerId: 't1',
        completedPercent: 100,
        numSubProcesses: 1,
        numCompletedSubProcesses: 1,
        lastModifiedTime: '2025-01-01T10:00:04.000Z',
      },
    },
    {
      id: 'p2',
      kind: 'PROCESS',
      label: 'word-count-chunk',
      status: 'PROCESSED',
      time: '2025-01-01T10:00:01.000Z',
      data: {
        processType: 'word-count',
        leaf: false,
        parentId: 'p1',
        predecessorId: null,
        triggerId: 't1',
        completedPercent: 100,
        numSubProcesses: 1,
        numCompletedSubProcesses: 1,
        lastModifiedTime: '2025-01-01T10:00:02.000Z',
      },
    },
    {
      id: 'c1',
      kind: 'COMPLETION',
      label: 'ProcessCompleted word-count',
      status: 'PROCESSED',
      time: '2025-01-01T10:00:05.000Z',
      data: { processId: 'p1', processType: 'word-count', successful: true },
    },
    {
      id: 'p3',
      kind: 'PROCESS',
      label: 'word-count-report',
      status: 'EXECUTING',
      time: '2025-01-01T10:00:06.000Z',
      data: {
        processType: 'word-count',
        leaf: false,
        parentId: null,
        predecessorId: 'p1',
        triggerId: 't1',
        completedPercent: 100,
        numSubProcesses: 1,
        numCompletedSubProcesses: 1,
        lastModifiedTime: '2025-01-01T10:00:06.000Z',
      },
    },
  ],
  edges: [
    { source: 'trigger:t1', target: 'p1', kind: 'PROCESS_CREATE' },
    { source: 'p1', target: 'p2', kind: 'SUBPROCESS' },
    { source: 'p1', target: 'c1', kind: 'EMITS' },
    { source: 'c1', target: 'p3', kind: 'SUCCESSOR' },
  ],
};

describe('trace', () => {
  it('turns the 413 of a large trace into a message with ways to narrow it', async () => {
    fakeApi({ 'GET /trace': { status: 413, body: { message: 'The trace has more than 1000 processes' } } });
    renderAt('/t/demo/trace?triggerId=cron%3Ademo%3Anightly');
    expect(await screen.findByRole('heading', { name: 'This trace is too large to draw' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'List the root processes of this trigger' }).getAttribute('href')).toBe(
      '/t/demo/processes?trigger=cron%3Ademo%3Anightly&roots=1',
    );
    expect(screen.getByLabelText('Id')).toBeTruthy();
  });

  it('shows the timeline grouped by tree, bars from creation to completion', async () => {
    fakeApi({ 'GET /trace': { body: GRAPH } });
    renderAt('/t/demo/trace?processId=p1&view=timeline');
    await screen.findByRole('region', { name: 'Timeline' });
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'word-count p1',
      'word-count-report p3',
    ]);
    expect(screen.getByRole('link', { name: 'word-count-chunk' }).getAttribute('href')).toBe('/t/demo/processes/p2');
    const timeline = buildTimeline(GRAPH, Date.parse('2025-01-01T10:00:10.000Z'));
    expect(timeline.groups[0].bars.map((b) => [b.node.id, b.depth, b.end - b.start])).toEqual([
      ['p1', 0, 5000],
      ['p2', 1, 1000],
    ]);
    expect(timeline.groups[1].bars[0]).toMatchObject({ running: true, end: Date.parse('2025-01-01T10:00:10.000Z') });
  });

  it('lays the graph out left to right and draws the five edge kinds distinctly', () => {
    const placed = new Map(layoutTrace(GRAPH).map((p) => [p.node.id, p]));
    expect(placed.get('trigger:t1')!.x).toBeLessThan(placed.get('p1')!.x);
    expect(placed.get('p1')!.x).toBeLessThan(placed.get('c1')!.x);
    expect(placed.get('c1')!.x).toBeLessThan(placed.get('p3')!.x);
    const looks = Object.values(EDGE_LOOK).map((l) => `${l.color}|${l.dash ?? ''}|${l.width}`);
    expect(new Set(looks).size).toBe(5);
  });
});

describe('shell', () => {
  it('lists the shortcuts on ? and opens views with g + letter; switches the theme', async () => {
    fakeApi({
      'GET /processes': { body: page([]) },
      'GET /definitions': { body: page([]) },
      'GET /executions': { body: page([]) },
    });
    renderAt('/t/demo/processes');
    await screen.findByRole('heading', { name: 'Processes' });
    fireEvent.keyDown(window, { key: '?' });
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(dialog.textContent).toMatch(/g e.*Executions/);
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.keyDown(window, { key: 'g' });
    fireEvent.keyDown(window, { key: 'e' });
    expect(await screen.findByRole('heading', { name: 'Executions' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Theme: system (switch)' }));
    expect(document.documentElement.getAttribute('data-theme')).toBe('light');
    fireEvent.keyDown(window, { key: 'T', shiftKey: true });
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    expect(screen.getByTestId('updated-ago').textContent).toMatch(/updated \d+ s ago|not loaded yet/);
  });

  it('switching tenant keeps the view (lists keep their filters, records fall back to their list)', () => {
    expect(switchTenantPath('/t/a/processes', '?status=PROCESSED', 'b')).toBe('/t/b/processes?status=PROCESSED');
    expect(switchTenantPath('/t/a/processes/123', '', 'b')).toBe('/t/b/processes');
    expect(switchTenantPath('/t/a/trace', '?processId=1', 'b')).toBe('/t/b/processes');
    expect(switchTenantPath('/t/a/definitions/word-count', '', 'b')).toBe('/t/b/definitions/word-count');
    expect(switchTenantPath('/t/a/cron/5', '', 'b')).toBe('/t/b/cron');
  });

  it('reads the field an API message names', () => {
    expect(fieldOf("'payload.args.text' must be a string")).toBe('payload.args.text');
    expect(fieldOf("Query parameter 'size' must be an integer")).toBe('size');
    expect(fieldOf('Internal server error')).toBeUndefined();
  });
});
