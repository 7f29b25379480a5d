/** @jest-environment jsdom */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Caller } from '../src/api/types';
import { shortId } from '../src/components/time';
import { CALLERS, DEFINITIONS, fakeApi, page, renderAt, summary, type FakeApi } from './harness';

const TOKEN = 'eyJhbGciOiJFUzI1NiJ9.e30.sig';

type Summary = ReturnType<typeof summary>;

/** GET /processes/{id} of a summary: its state, input, output, no errors or events. */
function detailOf(p: Summary) {
  return {
    ...p,
    state: { flowId: 'process-flow', stateId: p.status },
    splitCompleted: true,
    input: { text: 'a b' },
    output: { totalWords: 2 },
    errors: [],
    version: 4,
    completionEvents: [],
  };
}

/**
 * A tenant holding `processes`, served like the API: the list, each process, and DELETE answering
 * `deleteAnswer` (204 removes the process from the tenant).
 */
function tenantOf(processes: Summary[], deleteAnswer: { status: number; body?: unknown } = { status: 204 }): FakeApi {
  const held = [...processes];
  return fakeApi({
    'GET /definitions': { body: page(DEFINITIONS) },
    'GET /processes/{id}': (req) => {
      const p = held.find((h) => req.path.endsWith(h.id));
      return p ? { body: detailOf(p) } : { status: 404, body: { message: `No process ${req.path} in tenant demo` } };
    },
    'GET /processes': (req) => {
      const parent = req.query.get('parentId');
      if (req.query.get('predecessorId')) return { body: page([]) };
      return { body: page(held.filter((p) => (parent ? p.parentId === parent : true))) };
    },
    'DELETE /processes/{id}': (req) => {
      if (deleteAnswer.status === 204) {
        const at = held.findIndex((h) => req.path.endsWith(h.id));
        held.splice(at, 1);
      }
      return { status: deleteAnswer.status, body: deleteAnswer.body };
    },
  });
}

async function openDetail(p: Summary, caller: Caller = CALLERS.admin): Promise<void> {
  renderAt(`/t/demo/processes/${p.id}`, caller === CALLERS.admin ? undefined : TOKEN, caller);
  await screen.findByRole('heading', { level: 2, name: 'Facts' });
}

describe('deleting a finished tree from the process detail', () => {
  it('asks first (Cancel and Escape leave it), then deletes: back on the list, which no longer shows it', async () => {
    const root = summary({ processType: 'word-count', numSubProcesses: 2 });
    const other = summary({ processType: 'word-count' });
    const api = tenantOf([root, other]);
    await openDetail(root);

    fireEvent.click(screen.getByRole('button', { name: 'Delete tree…' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this process and its whole tree?' });
    expect(dialog.textContent).toMatch(/and its 2 children \(with theirs, at every level\)/);
    expect(dialog.textContent).toMatch(/The audit trail keeps a record/);
    // The safe choice has the focus.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Delete tree…' }));
    fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.calls.filter((c) => c.method === 'DELETE')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Delete tree…' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete the tree' }));
    await screen.findByRole('heading', { level: 1, name: 'Processes' });
    const notice = screen.getByText(`Deleted word-count ${shortId(root.id)} with its whole tree.`);
    expect(notice.getAttribute('role')).toBe('status');
    expect(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/processes/${root.id}`]);
    const table = await screen.findByRole('table', { name: 'Processes, newest first' });
    // The list was read again after the removal: only the other process is left.
    await waitFor(() => expect(within(table).getAllByRole('link', { name: 'word-count' })).toHaveLength(1));
    const listed = api.calls.map((c) => `${c.method} ${c.path}`);
    expect(listed.lastIndexOf('GET /processes')).toBeGreaterThan(listed.indexOf(`DELETE /processes/${root.id}`));
  });

  it('is offered only to a role that may delete, on a root in a finished state', async () => {
    const finished = summary({ status: 'PROCESSED_WITH_ERRORS' });
    const running = summary({ status: 'SUB_PROCESSES_PENDING', numCompletedSubProcesses: 1 });
    const child = summary({ processType: 'word-count-chunk', leaf: true, parentId: finished.id });
    tenantOf([finished, running, child]);
    const cases: Array<[Summary, Caller, boolean]> = [
      [finished, CALLERS.admin, true],
      [finished, CALLERS.operator, false],
      [finished, CALLERS.viewer, false],
      [running, CALLERS.admin, false],
      [child, CALLERS.admin, false],
    ];
    for (const [p, caller, shown] of cases) {
      const view = renderAt(`/t/demo/processes/${p.id}`, caller === CALLERS.admin ? undefined : TOKEN, caller);
      await screen.findByRole('heading', { level: 2, name: 'Facts' });
      expect({ status: p.status, child: p.parentId !== null, role: caller.role, shown }).toEqual({
        status: p.status,
        child: p.parentId !== null,
        role: caller.role,
        shown: screen.queryByRole('button', { name: 'Delete tree…' }) !== null,
      });
      view.unmount();
    }
  });

  it('a tree removed meanwhile by someone else: one message with the way back, nothing stale', async () => {
    const root = summary({ processType: 'word-count', numSubProcesses: 3 });
    const held = [root];
    const api = fakeApi({
      'GET /definitions': { body: page(DEFINITIONS) },
      'GET /processes/{id}': () =>
        held.length > 0
          ? { body: detailOf(root) }
          : { status: 404, body: { message: `No process ${root.id} in tenant demo` } },
      'GET /processes': () => ({ body: page([]) }),
      'DELETE /processes/{id}': () => {
        // The history sweeper was first: the tree is gone before this removal reaches the server.
        held.length = 0;
        return { status: 404, body: { message: `No process ${root.id} in tenant demo` } };
      },
    });
    await openDetail(root);
    fireEvent.click(screen.getByRole('button', { name: 'Delete tree…' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete the tree' }));
    await waitFor(() => expect(screen.queryByRole('heading', { level: 2, name: 'Facts' })).toBeNull());
    const alerts = screen.getAllByRole('alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0].textContent).toMatch(/^Not found in this tenant \(404\): No process .* in tenant demo/);
    expect(alerts[0].textContent).toMatch(/removed already, by the history sweeper or from another window/);
    expect(within(alerts[0]).getByRole('link', { name: 'Back to the processes' })).toBeTruthy();
    // Nothing of the earlier read is left: no dialog, no children count, no delete button.
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.queryByText(/3 \/ 3/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete tree…' })).toBeNull();
    expect(api.calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it.each([
    [409, /^Still running \(409\): Process .* is still running/, /Nothing was removed\. A tree is removed only once/],
    [404, /^Not found in this tenant \(404\): No process/, /removed already, by the history sweeper or from another/],
    [400, /^Not a root process \(400\): Process .* is a child/, /open the root and remove it there/],
    [403, /^Not allowed \(403\): /, /needs the admin role/],
  ])('says what a %i answer means and stays on the process', async (status, title, hint) => {
    const root = summary();
    const messages: Record<number, string> = {
      409: `Process ${root.id} is still running (or being removed): a tree is removed only once every process of it has finished`,
      404: `No process ${root.id} in tenant demo`,
      400: `Process ${root.id} is a child: remove its root process, which removes the whole tree`,
      403: 'Role viewer may not call deleteProcess',
    };
    const api = tenantOf([root], { status, body: { message: messages[status] } });
    await openDetail(root);
    fireEvent.click(screen.getByRole('button', { name: 'Delete tree…' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete the tree' }));
    const alert = await within(screen.getByRole('alertdialog')).findByRole('alert');
    const [first, second] = Array.from(alert.querySelectorAll('p'));
    expect(first.textContent).toMatch(title);
    expect(second.textContent).toMatch(hint);
    if (status === 404) expect(within(alert).getByRole('link', { name: 'Back to the processes' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Facts' })).toBeTruthy();
    expect(api.calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
    // Another try is offered only where it may succeed later (a 409: once the tree has finished).
    const retry = screen.queryByRole('button', { name: 'Delete the tree' }) as HTMLButtonElement | null;
    expect({ status, retry: retry !== null && !retry.disabled }).toEqual({ status, retry: status === 409 });
    if (status !== 409) {
      fireEvent.click(screen.getByRole('button', { name: 'Close' }));
      expect(screen.queryByRole('alertdialog')).toBeNull();
    }
  });
});
