/**
 * A blueprint's prompts as form fields: yes/no prompts are checkboxes, prompts with validValues are
 * lists (their default chosen), file prompts upload the chosen file into the session's workspace,
 * other prompts are text fields whose default is shown (empty takes it). A prompt whose
 * `visibleWhen` is not met is not shown. Every field is labelled by the prompt's description and
 * described by its name and default.
 */
import type { InputField } from '../../api/portal-client';
import { defaultText, isVisible, type PromptValue, type PromptValues } from './prompt-values';

export interface PromptFormProps {
  fields: InputField[];
  values: PromptValues;
  onChange: (name: string, value: PromptValue) => void;
  /** A file chosen for a file prompt; the form shows the prompt's value once the parent sets it. */
  onUpload: (field: InputField, file: File) => void;
  disabled?: boolean;
}

const idOf = (field: InputField): string => `f-${field.name}`;

function Hint({ field, value }: { field: InputField; value: PromptValue | undefined }) {
  const d = defaultText(field);
  let extra = '';
  if (field.type === 'file')
    extra = value ? ` · uploaded: ${String(value)}` : ' · choose a file to upload (.json, .xml)';
  else if (field.type !== 'boolean' && !field.validValues && d !== undefined) extra = ` · empty for the default: ${d}`;
  return (
    <small id={`${idOf(field)}-hint`} className="hint">
      <code>{field.name}</code>
      {extra}
    </small>
  );
}

function Control({
  field,
  value,
  onChange,
  onUpload,
  disabled,
}: { field: InputField; value: PromptValue | undefined } & Omit<PromptFormProps, 'fields' | 'values'>) {
  const common = { id: idOf(field), 'aria-describedby': `${idOf(field)}-hint`, disabled };
  if (field.type === 'boolean')
    return (
      <input
        {...common}
        type="checkbox"
        checked={value === true}
        onChange={(e) => onChange(field.name, e.target.checked)}
      />
    );
  if (field.validValues && field.validValues.length > 0) {
    return (
      <select {...common} value={String(value ?? '')} onChange={(e) => onChange(field.name, e.target.value)}>
        {field.validValues.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    );
  }
  if (field.type === 'file') {
    return (
      <input
        {...common}
        type="file"
        accept=".json,.xml"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onUpload(field, file);
        }}
      />
    );
  }
  return (
    <input
      {...common}
      type="text"
      autoComplete="off"
      spellCheck={false}
      placeholder={defaultText(field) ?? ''}
      value={String(value ?? '')}
      onChange={(e) => onChange(field.name, e.target.value)}
    />
  );
}

export function PromptForm({ fields, values, onChange, onUpload, disabled }: PromptFormProps) {
  return (
    <fieldset className="prompts">
      <legend>Prompts</legend>
      {fields
        .filter((field) => isVisible(field, fields, values))
        .map((field) => (
          <div
            key={field.name}
            className={field.type === 'boolean' ? 'field field-check' : 'field'}
            data-field={field.name}
          >
            {field.type === 'boolean' ? (
              <>
                <Control
                  field={field}
                  value={values[field.name]}
                  onChange={onChange}
                  onUpload={onUpload}
                  disabled={disabled}
                />
                <label htmlFor={idOf(field)}>{field.description}</label>
              </>
            ) : (
              <>
                <label htmlFor={idOf(field)}>{field.description}</label>
                <Control
                  field={field}
                  value={values[field.name]}
                  onChange={onChange}
                  onUpload={onUpload}
                  disabled={disabled}
                />
              </>
            )}
            <Hint field={field} value={values[field.name]} />
          </div>
        ))}
    </fieldset>
  );
}
