/** Definitions (global): list with their shape (leaf, parent, predecessor); where they come from. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { useListKeys } from '../../app/list-keys';
import { tenantPath } from '../../app/paths';
import { DataTable } from '../../components/data-table';
import { ErrorMessage } from '../../components/feedback';
import { usePermissions } from '../session/permissions';
import { useApi } from '../session/session';
import { definitionColumns } from './definitions-table';

export function SourceNotice() {
  const api = useApi();
  const { can } = usePermissions();
  const info = useQuery({ queryKey: [api.tenant, 'info'], queryFn: () => api.info(), staleTime: 60_000 });
  if (!info.data) return null;
  if (info.data.definitionsWritable && !can('updateDefinition'))
    return <p className="muted">Source: database — changing definitions needs the admin role.</p>;
  return info.data.definitionsWritable ? (
    <p className="muted">Source: database — definitions can be created and edited here.</p>
  ) : (
    <p className="notice" role="status">
      Read-only: definitions come from the JSON source (fw.process.configurator=json). Edit the definitions file, or
      switch the server to the database source; writes here answer 409.
    </p>
  );
}

export function DefinitionsView() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { can } = usePermissions();
  const [page, setPage] = useState(0);
  const query = useQuery({
    queryKey: [api.tenant, 'definitions', 'page', page],
    queryFn: () => api.listDefinitions({ page, size: 25 }),
  });
  const refresh = useMutation({
    mutationFn: () => api.refreshDefinitions(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [api.tenant, 'definitions'] }),
  });
  const container = useRef<HTMLDivElement>(null);
  useListKeys({ container });
  const data = query.data;
  return (
    <section aria-labelledby="definitions-title">
      <div className="view-head">
        <h1 id="definitions-title">Definitions</h1>
        <div className="actions">
          {can('addDefinition') && (
            <Link to={tenantPath(api.tenant, 'definitions/new')} className="button primary">
              New definition
            </Link>
          )}
          {can('refreshDefinitions') && (
            <button
              type="button"
              onClick={() => refresh.mutate()}
              disabled={refresh.isPending}
              title="POST /definitions/refresh: clears this server's definition cache"
            >
              Reload the server's cache
            </button>
          )}
        </div>
      </div>
      <SourceNotice />
      {refresh.data && <p role="status">Cache cleared: {refresh.data.definitions} definitions.</p>}
      <ErrorMessage error={query.error ?? refresh.error} />
      <DataTable
        label="Definitions by process type"
        columns={definitionColumns(api.tenant)}
        rows={data?.content}
        rowKey={(d) => d.processType}
        loading="definitions"
        error={query.error}
        empty="No definition."
        wrapRef={container}
        pagination={{ label: 'Definitions', page: data, onPage: setPage }}
      />
    </section>
  );
}
