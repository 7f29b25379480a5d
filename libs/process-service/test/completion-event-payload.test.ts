import type { ProcessCompletedEvent } from '@fw/process-api';
import { completionEventColumnsOf, completionEventOf, storedCompletionPayloadOf } from '@fw/process-service';

/** The row's columns without its payload (each test puts the payload it checks). */
const columnsOf = (event: ProcessCompletedEvent) => {
  const { payload: _payload, ...columns } = completionEventColumnsOf(event);
  return columns;
};

describe('completion event payload', () => {
  const input = { text: 'a b' };
  const event: ProcessCompletedEvent = {
    processDefName: 'wordcount',
    args: input,
    triggerId: 'manual:t1:x',
    description: 'count words',
    processId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    processType: 'wordcount',
    tenantId: 't1',
    state: 'PROCESSED',
    input,
    output: { words: 2 },
    successful: true,
  };

  it('stores only what the columns do not hold, and reads the whole event back', () => {
    expect(columnsOf(event)).toEqual({
      process_id: event.processId,
      process_type: 'wordcount',
      tenant: 't1',
      trigger_id: 'manual:t1:x',
      state: 'PROCESSED',
      successful: true,
    });
    const stored = storedCompletionPayloadOf(event);
    expect(stored).toEqual({ description: 'count words', input, output: { words: 2 } });
    // Through JSON, as the row holds it.
    const payload: unknown = JSON.parse(JSON.stringify(stored));
    expect(completionEventOf({ ...columnsOf(event), payload })).toEqual(event);
  });

  it('keeps processDefName and args where they differ from the type and the input', () => {
    const odd = { ...event, processDefName: 'legacy-name', args: { other: true } };
    const payload: unknown = JSON.parse(JSON.stringify(storedCompletionPayloadOf(odd)));
    expect(payload).toMatchObject({ processDefName: 'legacy-name', args: { other: true } });
    expect(completionEventOf({ ...columnsOf(odd), payload })).toEqual(odd);
  });

  it('reads a row of an earlier release (the whole event in the payload) as the same event', () => {
    const payload: unknown = JSON.parse(JSON.stringify(event));
    expect(completionEventOf({ ...columnsOf(event), payload })).toEqual(event);
  });

  it('reads a payload that is no JSON object as the columns alone', () => {
    expect(completionEventOf({ ...columnsOf(event), payload: 'by hand' })).toEqual({
      ...event,
      processDefName: 'wordcount',
      args: null,
      description: null,
      input: null,
      output: null,
    });
  });
});
