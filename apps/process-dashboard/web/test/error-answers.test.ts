import { createApiClient, isApiError } from '../src/api/client';

/** A client whose every call is answered with `status` and `body`. */
function answering(status: number, body: unknown, statusText = 'Bad Request') {
  const fetch = async () =>
    ({
      ok: false,
      status,
      statusText,
      json: async () => (typeof body === 'string' ? JSON.parse(body) : body),
    }) as Response;
  return createApiClient({ credential: { kind: 'key', secret: 'k' }, tenant: 't1', fetch });
}

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isApiError(error)) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('reading error answers', () => {
  it('shows the message of the error envelope and the field it names', async () => {
    const error = await refusal(
      answering(400, {
        success: false,
        code: 400,
        severity: 'ERROR',
        subErrorCode: 'PM400',
        description: "'payload.args' must be an object",
        message: "'payload.args' must be an object",
        payload: null,
        errors: [],
      }).info(),
    );
    expect(error.status).toBe(400);
    expect(error.message).toBe("'payload.args' must be an object");
    expect(error.field).toBe('payload.args');
  });

  it('reads description when an envelope has no message, and the status text when the body is no envelope', async () => {
    const envelope = await refusal(answering(409, { success: false, code: 409, description: 'changed' }).info());
    expect(envelope.message).toBe('changed');
    const page = await refusal(answering(502, '"<html>"', 'Bad Gateway').info());
    expect(page.message).toBe('Bad Gateway');
  });
});
