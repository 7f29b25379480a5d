import { type FwError, type FwErrorDetail, type Severity } from '../errors/fw-error';

/** Successful framework response: `{ success: true, code, payload }`. */
export interface SuccessEnvelope<T> {
  success: true;
  code: number;
  payload: T;
}

/**
 * Failed framework response; the HTTP status always equals `code`. `message` repeats
 * `description` (the field clients of `{ message }` bodies read); `legacyCode` is the old
 * spelling of a renamed `subErrorCode`, present for one release.
 */
export interface ErrorEnvelope {
  success: false;
  code: number;
  severity: Severity;
  subErrorCode: string;
  legacyCode?: string;
  description: string;
  message: string;
  payload: null;
  errors: FwErrorDetail[];
}

export type ResponseEnvelope<T> = SuccessEnvelope<T> | ErrorEnvelope;

export function successEnvelope<T>(payload: T, code = 200): SuccessEnvelope<T> {
  return { success: true, code, payload };
}

/** The body of every error answer of a framework host: the one function that writes it. */
export function errorEnvelope(error: FwError): ErrorEnvelope {
  return {
    success: false,
    code: error.code,
    severity: error.severity,
    subErrorCode: error.subErrorCode,
    ...(error.legacyCode === undefined ? {} : { legacyCode: error.legacyCode }),
    description: error.description,
    message: error.description,
    payload: null,
    errors: error.details,
  };
}
