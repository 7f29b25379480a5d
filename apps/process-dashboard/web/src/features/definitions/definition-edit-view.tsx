/**
 * Inspect, edit or create a definition as JSON (database source). The API's refusals — predecessor
 * cycles and invalid fields (400), duplicates and the JSON source (409), uses that block a delete
 * (409) — are shown as it words them. With the JSON source the editor is read-only, saying why.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { ProcessDef, ProcessDefBody } from '../../api/types';
import { tenantPath } from '../../app/paths';
import { ErrorMessage, Loading } from '../../components/feedback';
import { describedBy, Field } from '../../components/field';
import { JsonBlock } from '../../components/json-block';
import { usePermissions } from '../session/permissions';
import { useApi } from '../session/session';
import { SourceNotice } from './definitions-view';

const TEMPLATE: ProcessDefBody = {
  processType: 'my-process',
  leaf: true,
  parentProcessType: null,
  predecessorProcessType: null,
  config: {},
};

export function parseDefinition(text: string): { ok: true; def: ProcessDefBody } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `Not valid JSON: ${(err as Error).message}` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, error: 'A definition is a JSON object' };
  const def = value as Record<string, unknown>;
  if (typeof def.processType !== 'string' || def.processType.trim() === '')
    return { ok: false, error: "'processType' must be a non-empty string" };
  if (typeof def.leaf !== 'boolean') return { ok: false, error: "'leaf' must be true or false" };
  return { ok: true, def: value as ProcessDefBody };
}

function Editor({ existing, writable }: { existing: ProcessDef | undefined; writable: boolean }) {
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [text, setText] = useState(JSON.stringify(existing ?? TEMPLATE, null, 2));
  const [localError, setLocalError] = useState<string | undefined>();
  const done = async (def: ProcessDef | undefined) => {
    await queryClient.invalidateQueries({ queryKey: [api.tenant, 'definitions'] });
    void navigate(tenantPath(api.tenant, def ? `definitions/${encodeURIComponent(def.processType)}` : 'definitions'));
  };
  const save = useMutation({
    mutationFn: (def: ProcessDefBody) =>
      existing ? api.updateDefinition(existing.processType, def) : api.createDefinition(def),
    onSuccess: (def) => done(def),
  });
  const remove = useMutation({
    mutationFn: () => api.deleteDefinition(existing?.processType ?? ''),
    onSuccess: () => done(undefined),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseDefinition(text);
    if (!parsed.ok) return setLocalError(parsed.error);
    setLocalError(undefined);
    save.mutate(parsed.def);
  };
  return (
    <form className="form" onSubmit={submit} noValidate>
      <Field
        id="definition-json"
        label={writable ? 'Definition (JSON)' : 'Definition (JSON, read-only)'}
        error={localError}
        hint="Fields: processType, leaf, parentProcessType, predecessorProcessType, predecessorArgs (INPUT, OUTPUT, BOTH), config, inputSchema, retry."
      >
        <textarea
          id="definition-json"
          className="code"
          rows={18}
          value={text}
          readOnly={!writable}
          onChange={(e) => setText(e.target.value)}
          spellCheck={false}
          {...describedBy('definition-json', localError, true)}
        />
      </Field>
      {!localError && <ErrorMessage error={save.error} id="definition-json-api-error" />}
      <ErrorMessage error={remove.error} />
      {writable && (
        <div className="actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            {existing ? 'Save changes' : 'Create definition'}
          </button>
          {existing && (
            <button
              type="button"
              className="danger"
              onClick={() => window.confirm(`Delete the definition ${existing.processType}?`) && remove.mutate()}
              disabled={remove.isPending}
            >
              Delete
            </button>
          )}
          <Link to={tenantPath(api.tenant, 'definitions')}>Cancel</Link>
        </div>
      )}
    </form>
  );
}

export function DefinitionEditView() {
  const { can } = usePermissions();
  const { name } = useParams();
  const api = useApi();
  const info = useQuery({ queryKey: [api.tenant, 'info'], queryFn: () => api.info(), staleTime: 60_000 });
  const def = useQuery({
    queryKey: [api.tenant, 'definitions', 'one', name],
    queryFn: () => api.getDefinition(name as string),
    enabled: name !== undefined,
  });
  const ready = info.data && (name === undefined || def.data);
  return (
    <section aria-labelledby="definition-title">
      <h1 id="definition-title">{name ? `Definition ${name}` : 'New definition'}</h1>
      <SourceNotice />
      <ErrorMessage error={def.error ?? info.error} />
      {!ready && !def.error && !info.error && <Loading what="the definition" />}
      {ready && (
        <div className="two-col">
          <Editor
            existing={def.data}
            writable={info.data.definitionsWritable && can('updateDefinition')}
            key={def.data?.processType ?? 'new'}
          />
          {def.data && (
            <div className="card">
              <h2>Shape</h2>
              <dl className="facts">
                <dt>Kind</dt>
                <dd>{def.data.leaf ? 'leaf (executes)' : 'splits into children, then aggregates'}</dd>
                <dt>Parent type</dt>
                <dd>{def.data.parentProcessType ?? 'any (or a root)'}</dd>
                <dt>Successor of</dt>
                <dd>
                  {def.data.predecessorProcessType
                    ? `${def.data.predecessorProcessType}, args ${def.data.predecessorArgs ?? 'BOTH'}`
                    : 'nothing'}
                </dd>
                <dt>Retry</dt>
                <dd>{def.data.retry ? `${def.data.retry.attempts} attempts` : "the starter's default"}</dd>
              </dl>
              <JsonBlock value={def.data.inputSchema ?? null} label="Input schema" />
              <p>
                <Link to={`${tenantPath(api.tenant, 'processes')}?type=${encodeURIComponent(def.data.processType)}`}>
                  Processes of this type
                </Link>
                {can('trigger') && (
                  <>
                    {' · '}
                    <Link
                      to={`${tenantPath(api.tenant, 'trigger')}?definition=${encodeURIComponent(def.data.processType)}`}
                    >
                      Trigger it
                    </Link>
                  </>
                )}
              </p>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
