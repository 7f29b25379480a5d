/**
 * Create or edit a schedule: name, six-field cron expression (seconds first), IANA time zone,
 * enabled, the definition it starts and its JSON args. Before saving, the expression is shown in
 * words with its next five firing times in the chosen zone. 400/409 appear beside their field,
 * 503 (no scheduler) above the form.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/client';
import type { Crontab, CrontabInput } from '../../api/types';
import { executionsPath, tenantPath } from '../../app/paths';
import { describeError, ErrorMessage, Loading } from '../../components/feedback';
import { describedBy, Field } from '../../components/field';
import { useDefinitions } from '../definitions/use-definitions';
import { usePermissions } from '../session/permissions';
import { useApi } from '../session/session';
import { checkArgs } from '../triggers/args';
import { formatIn, previewCron } from './cron-preview';
import { CronPayloadFields, CronScheduleFields, type CronFieldName } from './cron-form-fields';

function apiFieldOf(error: unknown): CronFieldName | undefined {
  if (!isApiError(error)) return undefined;
  if (error.status === 409) return 'name';
  const f = error.field ?? '';
  if (f === 'name' || f === 'cronExpression' || f === 'timezone') return f;
  if (f.startsWith('payload.args')) return 'args';
  if (f.startsWith('payload.processDefName') || f === 'payload') return 'definition';
  if (/cron/i.test(error.message)) return 'cronExpression';
  return undefined;
}

function Preview({ expression, timezone }: { expression: string; timezone: string }) {
  const preview = previewCron(expression, timezone);
  return (
    <div className="card preview" aria-live="polite" aria-label="What this schedule means">
      <h2>Before saving</h2>
      {preview.ok ? (
        <>
          <p>
            <strong>{preview.words}</strong> <span className="muted">({timezone})</span>
          </p>
          <p>Next five firing times in {timezone}:</p>
          <ol className="next-runs">
            {preview.next.map((d) => (
              <li key={d.toISOString()}>
                <time dateTime={d.toISOString()}>{formatIn(d, timezone)}</time>
              </li>
            ))}
          </ol>
        </>
      ) : (
        <p className="error">{preview.error}</p>
      )}
    </div>
  );
}

function CronActions({ pending, existing }: { pending: boolean; existing: Crontab | undefined }) {
  const api = useApi();
  // Editing a schedule is the admin's; an operator only switches it on or off (in the list).
  const { can } = usePermissions();
  return (
    <div className="actions">
      {can('addCrontab') ? (
        <button type="submit" className="primary" disabled={pending}>
          {pending ? 'Saving…' : existing ? 'Save changes' : 'Create schedule'}
        </button>
      ) : (
        <span className="muted">Changing schedules needs the admin role.</span>
      )}
      <Link to={tenantPath(api.tenant, 'cron')}>Cancel</Link>
      {existing && <Link to={executionsPath(api.tenant, { crontabId: existing.id })}>Its executions</Link>}
    </div>
  );
}

/** A failure of the save that belongs to no field, above the form (503: no scheduler on this server). */
function SaveError({ error, besideField }: { error: Error | null; besideField: boolean }) {
  return (
    <>
      {error && !besideField && <ErrorMessage error={error} />}
      {isApiError(error) && error.status === 503 && (
        <p className="error">This server runs no cron scheduler: schedules cannot be changed here.</p>
      )}
    </>
  );
}

/** Saves the schedule (create or update) and goes back to the list; which field a failure concerns. */
function useSaveCrontab(existing: Crontab | undefined) {
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (input: CrontabInput) => (existing ? api.updateCrontab(existing.id, input) : api.createCrontab(input)),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: [api.tenant, 'crontabs'] });
      void navigate(tenantPath(api.tenant, 'cron'));
    },
  });
  const field = apiFieldOf(save.error);
  const errorFor = (f: CronFieldName) => (field === f ? describeError(save.error) : undefined);
  return { save, field, errorFor };
}

function CronForm({ existing }: { existing: Crontab | undefined }) {
  const definitions = useDefinitions();
  const roots = useMemo(() => (definitions.data ?? []).filter((d) => !d.parentProcessType), [definitions.data]);
  const [name, setName] = useState(existing?.name ?? '');
  const [expression, setExpression] = useState(existing?.cronExpression ?? '0 */5 * * * *');
  const [timezone, setTimezone] = useState(
    existing?.timezone ?? (Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'),
  );
  const [enabled, setEnabled] = useState(existing?.enabled ?? true);
  const [definition, setDefinition] = useState(existing?.payload.processDefName ?? '');
  const [argsText, setArgsText] = useState(JSON.stringify(existing?.payload.args ?? {}, null, 2));
  const [argsError, setArgsError] = useState<string | undefined>();
  useEffect(() => {
    if (!definition && roots.length > 0) setDefinition(roots[0].processType);
  }, [roots, definition]);

  const { save, field, errorFor } = useSaveCrontab(existing);

  function submit(e: FormEvent) {
    e.preventDefault();
    const args = checkArgs(
      argsText,
      roots.find((d) => d.processType === definition),
    );
    if (!args.ok) {
      setArgsError(args.error);
      return;
    }
    setArgsError(undefined);
    save.mutate({
      name: name.trim(),
      cronExpression: expression.trim(),
      timezone: timezone.trim(),
      enabled,
      payload: { processDefName: definition, args: args.value },
    });
  }

  return (
    <div className="two-col">
      <form
        className="form"
        onSubmit={submit}
        noValidate
        aria-label={existing ? `Edit ${existing.name}` : 'New schedule'}
      >
        <SaveError error={save.error} besideField={field !== undefined} />
        <Field id="cron-name" label="Name" error={errorFor('name')}>
          <input
            id="cron-name"
            data-filter=""
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            {...describedBy('cron-name', errorFor('name'), false)}
          />
        </Field>
        <CronScheduleFields
          expression={expression}
          setExpression={setExpression}
          timezone={timezone}
          setTimezone={setTimezone}
          errorFor={errorFor}
        />
        <label className="checkbox">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
        </label>
        <CronPayloadFields
          roots={roots}
          definition={definition}
          setDefinition={setDefinition}
          argsText={argsText}
          setArgsText={setArgsText}
          argsError={argsError}
          errorFor={errorFor}
        />
        <CronActions pending={save.isPending} existing={existing} />
      </form>
      <Preview expression={expression} timezone={timezone} />
    </div>
  );
}

export function CronEditView() {
  const { id } = useParams();
  const api = useApi();
  const query = useQuery({
    queryKey: [api.tenant, 'crontabs', 'one', id],
    queryFn: () => api.getCrontab(id as string),
    enabled: id !== undefined,
  });
  return (
    <section aria-labelledby="cron-edit-title">
      <h1 id="cron-edit-title">{id ? `Schedule ${query.data?.name ?? ''}` : 'New schedule'}</h1>
      <ErrorMessage error={query.error} />
      {id && !query.data && !query.error && <Loading what="the schedule" />}
      {(!id || query.data) && <CronForm existing={query.data} key={query.data?.id ?? 'new'} />}
    </section>
  );
}
