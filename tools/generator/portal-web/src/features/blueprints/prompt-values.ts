/**
 * The prompts' values as the form holds them, and the answers sent to POST /api/generations. A text
 * prompt left empty takes the blueprint's default on the server (where `${application}` and
 * `${version}` are resolved against the other answers and the configuration), so it is not sent;
 * hidden prompts (`visibleWhen` not met) are not sent either, as in the CLI.
 */
import type { InputField } from '../../api/portal-client';

/** Text as typed; a checkbox's state; a list's choice; for a file prompt, the uploaded file's name ('' before). */
export type PromptValue = string | boolean;
export type PromptValues = Record<string, PromptValue>;

export function initialValue(field: InputField): PromptValue {
  if (field.type === 'boolean') return field.defaultValue === true;
  if (field.validValues && field.validValues.length > 0)
    return typeof field.defaultValue === 'string' && field.validValues.includes(field.defaultValue)
      ? field.defaultValue
      : field.validValues[0];
  return '';
}

export function initialValues(fields: InputField[]): PromptValues {
  return Object.fromEntries(fields.map((f) => [f.name, initialValue(f)]));
}

/** The default shown for an empty text prompt (the server resolves the placeholders). */
export function defaultText(field: InputField): string | undefined {
  return typeof field.defaultValue === 'string' && field.defaultValue !== '' ? field.defaultValue : undefined;
}

/** What the generator will use for a field: the value, or for an empty text prompt its plain default. */
function effective(field: InputField, value: PromptValue | undefined): PromptValue | undefined {
  if (value !== '' && value !== undefined) return value;
  const d = defaultText(field);
  return d !== undefined && !d.includes('${') ? d : value;
}

/** Whether a field is asked: every `visibleWhen` entry matches the value its field will have. */
export function isVisible(field: InputField, fields: InputField[], values: PromptValues): boolean {
  return Object.entries(field.visibleWhen ?? {}).every(([key, expected]) => {
    const other = fields.find((f) => f.name === key);
    return String(other ? effective(other, values[key]) : values[key]) === String(expected);
  });
}

/** The answers of the visible prompts; an empty text prompt is left to its default. */
export function answersOf(fields: InputField[], values: PromptValues): Record<string, PromptValue> {
  const out: Record<string, PromptValue> = {};
  for (const field of fields) {
    if (!isVisible(field, fields, values)) continue;
    const value = values[field.name];
    if (value === '' || value === undefined) continue;
    out[field.name] = value;
  }
  return out;
}
