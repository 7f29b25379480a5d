import { FwError, FwErrorDetail, Severity } from '../errors/fw-error';

/** Successful framework response: `{ success: true, code, payload }`. */
export interface SuccessEnvelope<T> {
  success: true;
  code: number;
  payload: T;
}

/** Failed framework response; the HTTP status always equals `code`. */
export interface ErrorEnvelope {
  success: false;
  code: number;
  severity: Severity;
  subErrorCode: string;
  description: string;
  payload: null;
  errors: FwErrorDetail[];
}

export type ResponseEnvelope<T> = SuccessEnvelope<T> | ErrorEnvelope;

export function successEnvelope<T>(payload: T, code = 200): SuccessEnvelope<T> {
  return { success: true, code, payload };
}

export function errorEnvelope(error: FwError): ErrorEnvelope {
  return {
    success: false,
    code: error.code,
    severity: error.severity,
    subErrorCode: error.subErrorCode,
    description: error.description,
    payload: null,
    errors: error.details,
  };
}
