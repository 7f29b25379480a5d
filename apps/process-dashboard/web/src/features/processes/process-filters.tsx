/** Filters of the process list: type, status, trigger id, free text, roots only. */
import { useEffect, useState, type FormEvent } from 'react';
import { PROCESS_STATUSES } from '../../api/types';
import { useDefinitions } from '../definitions/use-definitions';

export interface ProcessFilterValues {
  type?: string;
  status?: string;
  trigger?: string;
  q?: string;
  roots: boolean;
}

export interface ProcessFiltersProps {
  values: ProcessFilterValues;
  onApply(values: ProcessFilterValues): void;
}

export function ProcessFilters({ values, onApply }: ProcessFiltersProps) {
  const definitions = useDefinitions();
  const [draft, setDraft] = useState(values);
  useEffect(() => setDraft(values), [values.type, values.status, values.trigger, values.q, values.roots]); // eslint-disable-line react-hooks/exhaustive-deps
  const applyNow = (next: ProcessFilterValues) => {
    setDraft(next);
    onApply(next);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply(draft);
  };
  return (
    <form className="filters" onSubmit={submit} role="search" aria-label="Filter processes">
      <label>
        Text
        <input
          data-filter=""
          type="search"
          value={draft.q ?? ''}
          placeholder="id, type, description, trigger"
          onChange={(e) => setDraft({ ...draft, q: e.target.value })}
        />
      </label>
      <label>
        Type
        <select value={draft.type ?? ''} onChange={(e) => applyNow({ ...draft, type: e.target.value || undefined })}>
          <option value="">any</option>
          {(definitions.data ?? []).map((d) => (
            <option key={d.processType} value={d.processType}>
              {d.processType}
            </option>
          ))}
        </select>
      </label>
      <label>
        Status
        <select
          value={draft.status ?? ''}
          onChange={(e) => applyNow({ ...draft, status: e.target.value || undefined })}
        >
          <option value="">any</option>
          {PROCESS_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label>
        Trigger id
        <input
          value={draft.trigger ?? ''}
          placeholder="manual:demo:…"
          onChange={(e) => setDraft({ ...draft, trigger: e.target.value })}
        />
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={draft.roots}
          onChange={(e) => applyNow({ ...draft, roots: e.target.checked })}
        />
        Roots only (expand into children)
      </label>
      <button type="submit">Apply</button>
      <button type="button" onClick={() => applyNow({ roots: false })}>
        Clear
      </button>
    </form>
  );
}
