import { fireEvent, render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { useState } from 'react';
import type { InputField } from '../../api/portal-client';
import { PromptForm } from './prompt-form';
import { answersOf, initialValues } from './prompt-values';

// The real descriptors of the built-in blueprints: the form is tested against what the portal serves.
function fieldsOf(blueprint: string): InputField[] {
  const file = path.resolve(__dirname, '../../../../blueprints', blueprint, 'META-INF/blueprint.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { inputFields: InputField[] }).inputFields;
}

/** The form with its state, and the answers it would send shown beside it. */
function Harness({
  fields,
  onUpload = () => undefined,
}: {
  fields: InputField[];
  onUpload?: (field: InputField, file: File) => void;
}) {
  const [values, setValues] = useState(initialValues(fields));
  return (
    <>
      <PromptForm
        fields={fields}
        values={values}
        onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
        onUpload={onUpload}
      />
      <output data-testid="answers">{JSON.stringify(answersOf(fields, values))}</output>
    </>
  );
}

const answers = (): Record<string, unknown> =>
  JSON.parse(screen.getByTestId('answers').textContent ?? '{}') as Record<string, unknown>;

describe('the prompt form', () => {
  it('shows defaults: a list has its default chosen among the validValues, a text field its default, a checkbox its state', () => {
    render(<Harness fields={fieldsOf('fw-process-management')} />);
    const source = screen.getByLabelText<HTMLSelectElement>('Where the process definitions live at run time');
    expect([...source.options].map((o) => o.value)).toEqual(['json', 'database']);
    expect(source.value).toBe('database');
    const application = screen.getByLabelText<HTMLInputElement>('Application name (package and folder names)');
    expect(application.value).toBe('');
    expect(application.placeholder).toBe('orders');
    expect(screen.getByLabelText<HTMLInputElement>('Folder to generate into').placeholder).toBe(
      '${destFolder}/${application}',
    );
    expect(application.getAttribute('aria-describedby')).toBe('f-application-hint');
    expect(document.getElementById('f-application-hint')?.textContent).toBe(
      'application · empty for the default: orders',
    );
    expect(screen.getByLabelText<HTMLInputElement>('Register the process services in a service registry').checked).toBe(
      false,
    );
    // Empty text fields are left to the server's defaults (which resolve ${…}); lists and checkboxes are sent.
    expect(answers()).toEqual({ definitionSource: 'database', registerInServiceRegistry: false });
    fireEvent.change(application, { target: { value: 'webshop' } });
    fireEvent.change(source, { target: { value: 'json' } });
    expect(answers()).toEqual({ application: 'webshop', definitionSource: 'json', registerInServiceRegistry: false });
  });

  it('asks a visibleWhen prompt only while its condition holds, and sends it only then', () => {
    render(<Harness fields={fieldsOf('fw-process-management')} />);
    expect(screen.queryByLabelText('Base URL of the service registry')).toBeNull();
    fireEvent.click(screen.getByLabelText('Register the process services in a service registry'));
    const url = screen.getByLabelText<HTMLInputElement>('Base URL of the service registry');
    expect(url.placeholder).toBe('http://127.0.0.1:8080');
    fireEvent.change(url, { target: { value: 'http://registry:8080' } });
    expect(answers()).toMatchObject({ registerInServiceRegistry: true, serviceRegistryUrl: 'http://registry:8080' });
    fireEvent.click(screen.getByLabelText('Register the process services in a service registry'));
    expect(screen.queryByLabelText('Base URL of the service registry')).toBeNull();
    expect(answers()).not.toHaveProperty('serviceRegistryUrl');
  });

  it('hands a chosen file of a file prompt to the upload, and checkbox defaults of true are ticked', () => {
    const uploads: string[] = [];
    const { unmount } = render(
      <Harness
        fields={fieldsOf('fw-process-management')}
        onUpload={(field, file) => uploads.push(`${field.name}:${file.name}`)}
      />,
    );
    const input = screen.getByLabelText<HTMLInputElement>('The processSpec JSON file (processes and cronTriggers)');
    expect(input.type).toBe('file');
    fireEvent.change(input, { target: { files: [new File(['{}'], 'spec.json', { type: 'application/json' })] } });
    expect(uploads).toEqual(['processSpec:spec.json']);
    unmount();
    render(<Harness fields={fieldsOf('generator-blueprint')} />);
    expect(screen.getByLabelText<HTMLInputElement>('The new blueprint ships a database schema template').checked).toBe(
      true,
    );
    expect(answers()).toEqual({ security: false, jpa: true, cloudSwitchEnabled: false });
  });
});
