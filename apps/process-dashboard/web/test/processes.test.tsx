/** @jest-environment jsdom */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DEFINITIONS, fakeApi, page, renderAt, summary } from './harness';

describe('processes', () => {
  it('lists a page newest first, expands roots into their children and pages with the API page/size', async () => {
    const roots = Array.from({ length: 25 }, (_, i) => summary({ description: `root ${i}` }));
    const children = [
      summary({ processType: 'word-count-chunk', leaf: true, parentId: roots[0].id }),
      summary({ processType: 'word-count-chunk', leaf: true, parentId: roots[0].id }),
    ];
    const api = fakeApi({
      'GET /definitions': { body: page(DEFINITIONS) },
      'GET /processes': (req) => {
        if (req.query.get('parentId') === roots[0].id) return { body: page(children, 0, 10) };
        return { body: page(roots, Number(req.query.get('page') ?? 0), 25, 60) };
      },
    });
    renderAt('/t/demo/processes?roots=1');
    const table = await screen.findByRole('table', { name: 'Processes, newest first' });
    expect(within(table).getAllByRole('link', { name: 'word-count' })).toHaveLength(25);
    expect(api.calls.find((c) => c.path === '/processes')?.query.get('roots')).toBe('true');
    expect(screen.getByText(/Page 1 of 3 · 1–25 of 60/)).toBeTruthy();

    const toggle = within(table).getAllByRole('button', { name: /Expand the children of word-count/ })[0];
    fireEvent.click(toggle);
    expect(await within(table).findAllByRole('link', { name: 'word-count-chunk' })).toHaveLength(2);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText(/Page 2 of 3 · 26–50 of 60/);
    expect(
      api.calls.filter((c) => c.path === '/processes' && c.query.get('page') === '1' && c.query.get('size') === '25'),
    ).not.toHaveLength(0);
  });

  it('shows an estimated total as "about N"', async () => {
    const roots = Array.from({ length: 25 }, (_, i) => summary({ description: `root ${i}` }));
    fakeApi({
      'GET /definitions': { body: page(DEFINITIONS) },
      'GET /processes': { body: { ...page(roots, 0, 25, 12_345_678), totalElementsEstimated: true } },
    });
    renderAt('/t/demo/processes');
    await screen.findByText(/Page 1 of about 493,828 · 1–25 of about 12,345,678/);
  });

  it('sends the type, status, trigger and text filters to the API', async () => {
    const api = fakeApi({ 'GET /definitions': { body: page(DEFINITIONS) }, 'GET /processes': { body: page([]) } });
    renderAt('/t/demo/processes');
    await screen.findByText(/No process matches/);
    await screen.findByRole('option', { name: 'word-count-report' });
    fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'word-count-report' } });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'PROCESSED_WITH_ERRORS' } });
    fireEvent.change(screen.getByLabelText('Trigger id'), { target: { value: 'manual:demo:x' } });
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: ' nightly ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => {
      const last = api.calls.filter((c) => c.path === '/processes').pop();
      expect(Object.fromEntries(last?.query ?? [])).toEqual({
        processType: 'word-count-report',
        status: 'PROCESSED_WITH_ERRORS',
        triggerId: 'manual:demo:x',
        q: 'nightly',
        page: '0',
        size: '25',
      });
    });
  });
});

describe('process detail', () => {
  it('shows progress, errors with the stack trace folded, completion events, children and lineage', async () => {
    const root = summary({
      processType: 'word-count',
      status: 'PROCESSED_WITH_ERRORS',
      numSubProcesses: 4,
      numCompletedSubProcesses: 3,
    });
    const child = summary({
      processType: 'word-count-chunk',
      leaf: true,
      parentId: root.id,
      status: 'PROCESSED_WITH_ERRORS',
    });
    const successor = summary({ processType: 'word-count-report', leaf: true, predecessorId: root.id });
    fakeApi({
      'GET /definitions': { body: page(DEFINITIONS) },
      'GET /processes/{id}': {
        body: {
          ...root,
          state: { flowId: 'process-flow', stateId: 'PROCESSED_WITH_ERRORS' },
          splitCompleted: true,
          input: { text: 'a b' },
          output: null,
          errors: [
            {
              processId: child.id,
              timeOfCompletion: '2025-01-01T10:00:01.000Z',
              errors: ['AUTHOR_ERROR: boom'],
              exceptionMessage: 'Error: boom',
              stackTrace: 'Error: boom\n    at CountChunk.execute (workers.ts:10:11)\n    at run (batch.ts:99:1)',
            },
          ],
          version: 5,
          completionEvents: [
            {
              id: 'e1',
              processId: root.id,
              processType: 'word-count',
              state: 'PROCESSED_WITH_ERRORS',
              successful: false,
              triggerId: root.triggerId,
              generatedTime: '2025-01-01T10:00:02.000Z',
              payload: { a: 1 },
            },
          ],
        },
      },
      'GET /processes': (req) =>
        req.query.get('parentId')
          ? { body: page([child], 0, 25, 1) }
          : req.query.get('predecessorId')
            ? { body: page([successor]) }
            : undefined,
    });
    renderAt(`/t/demo/processes/${root.id}`);
    await screen.findByRole('heading', { name: /Errors \(1\)/ });
    const bar = screen.getByRole('progressbar', { name: 'Children completed' });
    expect(bar.getAttribute('aria-valuenow')).toBe('75');
    const stack = screen.getByText(/Stack trace \(3 lines\)/).closest('details') as HTMLDetailsElement;
    expect(stack.open).toBe(false);
    expect(screen.getByText('AUTHOR_ERROR: boom')).toBeTruthy();
    expect(await screen.findByRole('link', { name: /word-count-report/ })).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Completion events' })).getByText('no')).toBeTruthy();
    expect(
      within(await screen.findByRole('table', { name: 'Children' }))
        .getByRole('link', { name: 'word-count-chunk' })
        .getAttribute('href'),
    ).toBe(`/t/demo/processes/${child.id}`);
  });
});
