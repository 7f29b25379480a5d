// One shape for the result of a call that did not come from the registry's own HTTP binding (an
// event, a serverless invocation): the framework's response envelope, so consumers of events and
// serverless callers read the same `{ success, code, payload }` / error envelope an HTTP caller
// would. Anything that is not an FwError becomes a 500 whose details go to the log only.
import { errorEnvelope, FwError, isFwError, successEnvelope, type Logger, type ResponseEnvelope } from '@fw/core';

export function successOutcome(output: unknown): ResponseEnvelope<unknown> {
  return successEnvelope(output);
}

export function failureOutcome(err: unknown, logger: Logger): ResponseEnvelope<unknown> {
  if (isFwError(err)) return errorEnvelope(err);
  logger.error({ err }, 'unexpected failure of a {{service}} call');
  return errorEnvelope(new FwError({ code: 500, subErrorCode: 'FW500', description: 'Internal server error' }));
}
