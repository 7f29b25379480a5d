/**
 * Deleting one finished root process with its whole tree (`DELETE /processes/{id}`): a button for
 * callers whose role lists `deleteProcess`, on roots in a finished state only, then a confirmation
 * that says what goes. Each refusal of the server is told in words: 409 (part of the tree still
 * runs), 404 (already gone), 400 (a child), 403 (the role). After a removal the view goes back to
 * the list, which says what was removed, and every view of the tenant reads its data again.
 *
 * @example
 * <DeleteTree process={p} />   // renders nothing for a child, a running root or a viewer
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '../../api/client';
import { FINISHED_STATUSES, type ProcessDetail } from '../../api/types';
import { processPath, tenantPath } from '../../app/paths';
import { describeError } from '../../components/feedback';
import { shortId } from '../../components/time';
import { usePermissions } from '../session/permissions';
import { useApi } from '../session/session';

/** What the processes list shows after a removal (router state of the navigation). */
export interface RemovedNotice {
  removed: string;
}

/** Whether `p` is a root in a finished state: the only processes DELETE removes (with their trees). */
export function isFinishedRoot(p: Pick<ProcessDetail, 'parentId' | 'status'>): boolean {
  return p.parentId === null && (FINISHED_STATUSES as readonly string[]).includes(p.status);
}

/** The words for an answer refusing the removal, and what the user can do about it. */
export function deleteRefusal(error: unknown): { title: string; hint: string } {
  const status = isApiError(error) ? error.status : 0;
  const message = isApiError(error) ? error.message : describeError(error);
  switch (status) {
    case 409:
      return {
        title: `Still running (409): ${message}`,
        hint: 'Nothing was removed. A tree is removed only once every process of it has finished and no work of it is waiting; try again when it has.',
      };
    case 404:
      return {
        title: `Not found in this tenant (404): ${message}`,
        hint: 'It may have been removed already, by the history sweeper or from another window.',
      };
    case 400:
      return {
        title: `Not a root process (400): ${message}`,
        hint: 'Only a root is removed, with its whole tree: open the root and remove it there.',
      };
    case 403:
      return { title: `Not allowed (403): ${message}`, hint: 'Removing a tree needs the admin role.' };
    default:
      return { title: describeError(error), hint: 'Nothing was removed.' };
  }
}

function Refusal({ error, process }: { error: unknown; process: ProcessDetail }) {
  const api = useApi();
  const { title, hint } = deleteRefusal(error);
  const status = isApiError(error) ? error.status : 0;
  return (
    <div className="error" role="alert" id="delete-tree-error">
      <p>{title}</p>
      <p>
        {hint} {status === 404 && <Link to={tenantPath(api.tenant, 'processes')}>Back to the processes</Link>}
        {status === 400 && process.parentId && (
          <Link to={processPath(api.tenant, process.parentId)}>Up to the parent</Link>
        )}
      </p>
    </div>
  );
}

/** The removal and what follows it: lists refreshed, this process forgotten, back to the list. */
function useDeleteTree(process: ProcessDetail) {
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => api.deleteProcess(process.id),
    onSuccess: async () => {
      const notice: RemovedNotice = {
        removed: `Deleted ${process.processType} ${shortId(process.id)} with its whole tree.`,
      };
      void navigate(tenantPath(api.tenant, 'processes'), { state: notice });
      // Gone with the tree: its processes, its trace and the execution of its trigger.
      queryClient.removeQueries({ queryKey: [api.tenant, 'process', process.id] });
      await queryClient.invalidateQueries({ queryKey: [api.tenant] });
    },
    onError: async (error) => {
      // The answer says the view is out of date (gone, or running again): show what is true now.
      if (isApiError(error) && (error.status === 404 || error.status === 409))
        await queryClient.invalidateQueries({ queryKey: [api.tenant] });
    },
  });
}

function Confirmation({
  process,
  onCancel,
  remove,
}: {
  process: ProcessDetail;
  onCancel(): void;
  remove: ReturnType<typeof useDeleteTree>;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && !remove.isPending) onCancel();
  };
  const children = process.numSubProcesses;
  // Only a tree still running may be removable later: after a 400, 403 or 404 another try cannot succeed.
  const final = isApiError(remove.error) && [400, 403, 404].includes(remove.error.status);
  return (
    <section
      className="card confirm"
      role="alertdialog"
      aria-labelledby="delete-tree-title"
      aria-describedby="delete-tree-text"
      onKeyDown={onKeyDown}
    >
      <h2 id="delete-tree-title">Delete this process and its whole tree?</h2>
      <p id="delete-tree-text">
        {process.processType} <span className="mono">{shortId(process.id)}</span>
        {children > 0
          ? ` and its ${children} ${children === 1 ? 'child' : 'children'} (with theirs, at every level)`
          : ''}
        , their completion events, child reports, errors, work items and the trigger records of the run are removed for
        good. The audit trail keeps a record of the removal.
      </p>
      {remove.error !== null && <Refusal error={remove.error} process={process} />}
      <div className="actions">
        {!final && (
          <button type="button" className="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
            {remove.isPending ? 'Deleting…' : 'Delete the tree'}
          </button>
        )}
        <button type="button" ref={cancel} onClick={onCancel} disabled={remove.isPending}>
          {final ? 'Close' : 'Cancel'}
        </button>
      </div>
    </section>
  );
}

/** The delete button of a process detail and its confirmation; nothing when the caller or the process may not. */
export function DeleteTree({ process }: { process: ProcessDetail }) {
  const { can } = usePermissions();
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteTree(process);
  if (!can('deleteProcess') || !isFinishedRoot(process)) return null;
  if (!confirming)
    return (
      <button type="button" className="danger" onClick={() => setConfirming(true)}>
        Delete tree…
      </button>
    );
  return (
    <Confirmation
      process={process}
      remove={remove}
      onCancel={() => {
        remove.reset();
        setConfirming(false);
      }}
    />
  );
}
