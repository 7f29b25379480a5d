/**
 * Manual ProcessCreate (POST /triggers): a definition picker, a JSON editor for the args checked
 * before sending, an optional trigger key; the API's errors appear beside the field they name.
 * "Send again" repeats the trigger with the same key: the API answers it as a duplicate.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { isApiError } from '../../api/client';
import type { ProcessDef, TriggerResult } from '../../api/types';
import { executionsPath, tracePath } from '../../app/paths';
import { useSearchState } from '../../app/search-state';
import { describeError, ErrorMessage } from '../../components/feedback';
import { describedBy, Field } from '../../components/field';
import { useDefinitions } from '../definitions/use-definitions';
import { usePermissions } from '../session/permissions';
import { useApi } from '../session/session';
import { checkArgs, fieldOfMessage, newTriggerKey, sampleArgs } from './args';

interface Sent {
  key: string;
  definition: string;
  args: Record<string, unknown>;
}

function Result({ result, tenant }: { result: TriggerResult; tenant: string }) {
  return (
    <div className="notice" role="status" aria-live="polite">
      <h2>{result.duplicate ? 'Duplicate: this key was already used' : 'Triggered'}</h2>
      <p>
        {result.duplicate
          ? 'The API recognised the trigger key and started nothing new (idempotent retry).'
          : result.dispatched
            ? 'The process was created.'
            : 'The trigger was accepted.'}
      </p>
      <dl className="facts">
        <dt>Trigger id</dt>
        <dd className="mono">{result.triggerId}</dd>
        <dt>Event id</dt>
        <dd className="mono">{result.eventId}</dd>
      </dl>
      <p>
        <Link to={tracePath(tenant, { triggerId: result.triggerId })}>Open its causal graph</Link> ·{' '}
        <Link to={executionsPath(tenant, { triggerId: result.triggerId })}>its executions</Link>
      </p>
    </div>
  );
}

/** POST /triggers; a success refreshes the tenant's views. */
function useSendTrigger() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (s: Sent) => api.trigger({ triggerId: s.key, payload: { processDefName: s.definition, args: s.args } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [api.tenant] }),
  });
}

function KeyField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange(value: string): void;
  error: string | undefined;
}) {
  return (
    <Field
      id="trigger-key"
      label="Trigger key (optional)"
      error={error}
      hint="Up to 80 characters; stored as manual:<tenant>:<key>. Left empty, a random key is made and kept here for a retry."
    >
      <input
        id="trigger-key"
        value={value}
        maxLength={80}
        onChange={(e) => onChange(e.target.value)}
        spellCheck={false}
        {...describedBy('trigger-key', error, true)}
      />
    </Field>
  );
}

/** The root definition to start; the hint says when its args are checked against an input schema. */
function DefinitionField(props: {
  roots: readonly ProcessDef[];
  value: string;
  onChange(value: string): void;
  error: string | undefined;
  hasSchema: boolean;
}) {
  const { roots, value, onChange, error, hasSchema } = props;
  return (
    <Field
      id="trigger-definition"
      label="Definition"
      error={error}
      hint={hasSchema ? 'Has an input schema: the args are checked against it.' : undefined}
    >
      <select
        id="trigger-definition"
        data-filter=""
        value={value}
        onChange={(e) => onChange(e.target.value)}
        {...describedBy('trigger-definition', error, hasSchema)}
      >
        {roots.map((d) => (
          <option key={d.processType}>{d.processType}</option>
        ))}
      </select>
    </Field>
  );
}

/** The JSON args; a definition with an input schema offers a sample filled from it. */
function ArgsField(props: {
  def: ProcessDef | undefined;
  value: string;
  onChange(value: string): void;
  onFill(value: string): void;
  error: string | undefined;
}) {
  const { def, value, onChange, onFill, error } = props;
  return (
    <Field
      id="trigger-args"
      label="Args (JSON object)"
      error={error}
      hint={
        def?.inputSchema ? (
          <button type="button" onClick={() => onFill(sampleArgs(def))}>
            Fill from the input schema
          </button>
        ) : undefined
      }
    >
      <textarea
        id="trigger-args"
        className="code"
        rows={8}
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        {...describedBy('trigger-args', error, Boolean(def?.inputSchema))}
      />
    </Field>
  );
}

function TriggerActions({
  pending,
  canSend,
  onAgain,
  onNewKey,
}: {
  pending: boolean;
  canSend: boolean;
  onAgain: (() => void) | undefined;
  onNewKey(): void;
}) {
  return (
    <div className="actions">
      <button type="submit" className="primary" disabled={pending || !canSend}>
        {pending ? 'Sending…' : 'Trigger'}
      </button>
      {onAgain && (
        <button type="button" onClick={onAgain} disabled={pending}>
          Send again with the same key
        </button>
      )}
      <button type="button" onClick={onNewKey}>
        New key
      </button>
    </div>
  );
}

function ManualTriggerForm() {
  const api = useApi();
  const definitions = useDefinitions();
  const { get } = useSearchState();
  const roots = useMemo(() => (definitions.data ?? []).filter((d) => !d.parentProcessType), [definitions.data]);
  const [definition, setDefinition] = useState(get('definition') ?? '');
  const [argsText, setArgsText] = useState('{}');
  const [key, setKey] = useState('');
  const [localError, setLocalError] = useState<string | undefined>();
  const [last, setLast] = useState<Sent | undefined>();
  const def = roots.find((d) => d.processType === definition);
  useEffect(() => {
    if (!definition && roots.length > 0) setDefinition(roots[0].processType);
  }, [roots, definition]);

  const send = useSendTrigger();
  const apiField = isApiError(send.error) ? fieldOfMessage(send.error.field) : undefined;
  const errorFor = (f: 'definition' | 'args' | 'key') =>
    send.error && apiField === f ? describeError(send.error) : undefined;
  const argsError = localError ?? errorFor('args');

  function submit(e: FormEvent) {
    e.preventDefault();
    const checked = checkArgs(argsText, def);
    if (!checked.ok) {
      setLocalError(checked.error);
      return;
    }
    setLocalError(undefined);
    const s: Sent = { key: key.trim() || newTriggerKey(), definition, args: checked.value };
    setKey(s.key);
    setLast(s);
    send.mutate(s);
  }

  return (
    <section aria-labelledby="trigger-title">
      <h1 id="trigger-title">Trigger a process</h1>
      <p className="muted">
        A manual ProcessCreate through POST /triggers (source MANUAL). The same trigger key never starts a second
        process.
      </p>
      <form className="form" onSubmit={submit} noValidate>
        <DefinitionField
          roots={roots}
          value={definition}
          onChange={setDefinition}
          error={errorFor('definition')}
          hasSchema={Boolean(def?.inputSchema)}
        />
        <ArgsField
          def={def}
          value={argsText}
          onChange={(text) => {
            setArgsText(text);
            setLocalError(undefined);
          }}
          onFill={setArgsText}
          error={argsError}
        />
        <KeyField value={key} onChange={setKey} error={errorFor('key')} />
        {send.error && !apiField && <ErrorMessage error={send.error} />}
        <TriggerActions
          pending={send.isPending}
          canSend={definition !== ''}
          onAgain={last ? () => send.mutate(last) : undefined}
          onNewKey={() => {
            setKey('');
            setLast(undefined);
            send.reset();
          }}
        />
      </form>
      {send.data && <Result result={send.data} tenant={api.tenant} />}
    </section>
  );
}

/** The trigger form, for roles that may trigger (operator, admin); others read why not. */
export function ManualTriggerView() {
  const { can } = usePermissions();
  if (can('trigger')) return <ManualTriggerForm />;
  return (
    <section aria-labelledby="trigger-title">
      <h1 id="trigger-title">Trigger a process</h1>
      <p className="muted">Triggering a process needs the operator or admin role.</p>
    </section>
  );
}
