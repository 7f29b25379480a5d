import { isFwError, type FwError } from '@fw/core';

/**
 * The `FwError` a promise rejects with, for assertions on its code and message; anything else
 * (a fulfilled promise, a plain Error) fails the test with what happened instead.
 *
 * @example
 * expect(await fwRejection(service.search('nope', {}, {}))).toMatchObject({ code: 404 });
 */
export async function fwRejection(promise: Promise<unknown>): Promise<FwError> {
  try {
    await promise;
  } catch (err) {
    if (isFwError(err)) return err;
    throw err;
  }
  throw new Error('expected an FwError');
}
