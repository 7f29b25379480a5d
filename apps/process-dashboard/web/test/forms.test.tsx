/** @jest-environment jsdom */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { DEFINITIONS, fakeApi, INFO, page, renderAt } from './harness';

describe('manual trigger', () => {
  it('checks the JSON before sending, shows the API error beside the field and retries with the same key', async () => {
    let sent = 0;
    const api = fakeApi({
      'GET /definitions': { body: page(DEFINITIONS) },
      'POST /triggers': (req) => {
        const body = req.body as { triggerId: string; payload: { args: Record<string, unknown> } };
        if (body.payload.args.text === 7)
          return { status: 400, body: { message: "'payload.args.text' must be a string, got a number" } };
        sent += 1;
        return {
          body: {
            triggerId: `manual:demo:${body.triggerId}`,
            eventId: 'e',
            logId: 'l',
            dispatched: sent === 1,
            duplicate: sent > 1,
          },
        };
      },
    });
    renderAt('/t/demo/trigger');
    await screen.findByRole('option', { name: 'word-count' });
    // child-only types cannot be roots: not offered
    expect(screen.queryByRole('option', { name: 'word-count-chunk' })).toBeNull();
    const args = screen.getByLabelText('Args (JSON object)');
    fireEvent.change(args, { target: { value: '[1, 2]' } });
    fireEvent.click(screen.getByRole('button', { name: 'Trigger' }));
    expect((await screen.findByText(/must be a JSON object, got array/)).id).toBe('trigger-args-error');
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.change(args, { target: { value: '{"text": 7}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Trigger' }));
    expect(
      (await screen.findByText(/must be a string, got a number/)).closest('.field')?.querySelector('textarea'),
    ).toBe(args);
    expect(args.getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(args, { target: { value: '{"text": "to be"}' } });
    fireEvent.change(screen.getByLabelText('Trigger key (optional)'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Trigger' }));
    await screen.findByRole('heading', { name: 'Triggered' });
    const key = (screen.getByLabelText('Trigger key (optional)') as HTMLInputElement).value;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    fireEvent.click(screen.getByRole('button', { name: 'Send again with the same key' }));
    await screen.findByRole('heading', { name: 'Duplicate: this key was already used' });
    const posts = api.calls.filter((c) => c.method === 'POST').slice(-2);
    expect(posts.map((c) => (c.body as { triggerId: string }).triggerId)).toEqual([key, key]);
  });

  it('checks the args against the definition input schema', async () => {
    fakeApi({ 'GET /definitions': { body: page(DEFINITIONS) } });
    renderAt('/t/demo/trigger?definition=word-count-report');
    await screen.findByRole('option', { name: 'word-count-report' });
    await waitFor(() =>
      expect((screen.getByLabelText('Definition') as HTMLSelectElement).value).toBe('word-count-report'),
    );
    fireEvent.change(screen.getByLabelText('Args (JSON object)'), { target: { value: '{}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Trigger' }));
    expect(await screen.findByText(/Missing required field 'totalWords'/)).toBeTruthy();
  });
});

describe('cron editor', () => {
  it('explains the expression in words with the next five times in the zone before saving', async () => {
    fakeApi({ 'GET /definitions': { body: page(DEFINITIONS) }, 'GET /info': { body: INFO } });
    renderAt('/t/demo/cron/new');
    await screen.findByRole('option', { name: 'word-count' });
    fireEvent.change(screen.getByLabelText('Cron expression (six fields, seconds first)'), {
      target: { value: '0 30 6 * * 1-5' },
    });
    fireEvent.change(screen.getByLabelText('Time zone (IANA)'), { target: { value: 'America/New_York' } });
    expect(await screen.findByText('At 06:30, Monday through Friday')).toBeTruthy();
    const times = document.querySelectorAll('ol.next-runs li');
    expect(times).toHaveLength(5);
    expect(times[0].textContent).toMatch(/06:30:00/);
    fireEvent.change(screen.getByLabelText('Time zone (IANA)'), { target: { value: 'Mars/Olympus' } });
    expect(await screen.findByText(/'Mars\/Olympus' is not an IANA time zone/)).toBeTruthy();
  });

  it('shows 409 beside the name, 400 beside the expression and 503 above the form', async () => {
    let answer: { status: number; body: { message: string } } = {
      status: 409,
      body: { message: "A crontab named 'nightly' already exists in tenant demo" },
    };
    fakeApi({ 'GET /definitions': { body: page(DEFINITIONS) }, 'POST /crontabs': () => answer });
    renderAt('/t/demo/cron/new');
    await screen.findByRole('option', { name: 'word-count' });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'nightly' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create schedule' }));
    expect((await screen.findByText(/Conflict \(409\)/)).id).toBe('cron-name-error');
    answer = { status: 400, body: { message: "'cronExpression' must have six fields, seconds first" } };
    fireEvent.click(screen.getByRole('button', { name: 'Create schedule' }));
    expect((await screen.findByText(/\(400\): 'cronExpression'/)).id).toBe('cron-expression-error');
    answer = {
      status: 503,
      body: { message: 'The cron scheduler is not configured on this host: crontabs cannot be changed' },
    };
    fireEvent.click(screen.getByRole('button', { name: 'Create schedule' }));
    expect(await screen.findByText(/This server runs no cron scheduler/)).toBeTruthy();
    expect(screen.getByText(/Not available on this server \(503\)/)).toBeTruthy();
  });
});

describe('definitions', () => {
  it('is read-only with the reason when the source is JSON', async () => {
    fakeApi({
      'GET /info': { body: { ...INFO, definitionSource: 'json', definitionsWritable: false } },
      'GET /definitions/{name}': { body: DEFINITIONS[0] },
    });
    renderAt('/t/demo/definitions/word-count');
    expect(await screen.findByText(/Read-only: definitions come from the JSON source/)).toBeTruthy();
    expect((screen.getByLabelText('Definition (JSON, read-only)') as HTMLTextAreaElement).readOnly).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
  });

  it('shows a predecessor cycle as the API words it', async () => {
    fakeApi({
      'GET /info': { body: INFO },
      'GET /definitions/{name}': { body: DEFINITIONS[0] },
      'PUT /definitions/{name}': {
        status: 400,
        body: { message: "Definition 'word-count' would close a predecessor cycle: word-count → audit → word-count" },
      },
    });
    renderAt('/t/demo/definitions/word-count');
    const editor = await screen.findByLabelText('Definition (JSON)');
    fireEvent.change(editor, {
      target: { value: JSON.stringify({ ...DEFINITIONS[0], predecessorProcessType: 'audit' }) },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(/predecessor cycle: word-count → audit → word-count/)).toBeTruthy();
    fireEvent.change(editor, { target: { value: '{"leaf": true}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByText(/'processType' must be a non-empty string/)).id).toBe('definition-json-error');
  });
});
