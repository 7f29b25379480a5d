/**
 * The framework's error model. Every error class of the framework is an {@link FwError}: it
 * carries the HTTP status (`code`), a stable sub-error code (`subErrorCode`, e.g. `Q725`), a
 * human description and optional per-field details. Errors meant for clients are `expose`d;
 * the others (configuration, parsing, transport failures inside the server) answer as a generic
 * 500 like unknown errors, never leaking their message or stack.
 *
 * @example
 * throw new FwError({ code: 400, subErrorCode: 'Q725', description: "Filter 'price' is not allowed",
 *   params: ['price', 'books'], field: 'filters.price' });
 */
import { legacyErrorCodeOf } from './error-code-aliases';

export type Severity = 'ERROR' | 'WARN' | 'INFO';

export interface FwErrorDetail {
  /** HTTP status as a string, as in the envelope's `errors[].code`. */
  code: string;
  subErrorCode: string;
  description: string;
  params: unknown[];
  field?: string;
  severity: Severity;
}

export interface FwErrorInit {
  code: number;
  subErrorCode: string;
  description: string;
  params?: unknown[];
  field?: string;
  severity?: Severity;
  /** Further problems found together with the first (for example several invalid fields). */
  details?: Array<Omit<FwErrorDetail, 'code' | 'severity'> & { severity?: Severity }>;
  /**
   * Whether an HTTP answer may carry this error's status, code and description (default true).
   * False for errors of the server's own making: they answer as a generic 500 (FW500).
   */
  expose?: boolean;
  cause?: unknown;
}

export class FwError extends Error {
  /** Stable discriminator, usable across package copies where `instanceof` fails. */
  readonly type = 'FwError' as const;
  readonly code: number;
  readonly subErrorCode: string;
  readonly description: string;
  readonly params: unknown[];
  readonly field?: string;
  readonly severity: Severity;
  readonly details: FwErrorDetail[];
  /** False when an HTTP answer must not show this error (see {@link FwErrorInit.expose}). */
  readonly expose: boolean;
  /** The code's spelling before it was renamed (for one release), when it was renamed. */
  readonly legacyCode?: string;

  constructor(init: FwErrorInit) {
    super(init.description, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'FwError';
    this.code = init.code;
    this.subErrorCode = init.subErrorCode;
    this.description = init.description;
    this.params = init.params ?? [];
    this.field = init.field;
    this.severity = init.severity ?? 'ERROR';
    this.expose = init.expose ?? true;
    const legacyCode = legacyErrorCodeOf(init.subErrorCode);
    if (legacyCode !== undefined) this.legacyCode = legacyCode;
    const first: FwErrorDetail = {
      code: String(init.code),
      subErrorCode: init.subErrorCode,
      description: init.description,
      params: this.params,
      ...(init.field === undefined ? {} : { field: init.field }),
      severity: this.severity,
    };
    const rest = (init.details ?? []).map((d) => ({
      code: String(init.code),
      subErrorCode: d.subErrorCode,
      description: d.description,
      params: d.params,
      ...(d.field === undefined ? {} : { field: d.field }),
      severity: d.severity ?? this.severity,
    }));
    this.details = [first, ...rest];
  }
}

/** True for an {@link FwError}, also when it comes from another copy of this package. */
export function isFwError(value: unknown): value is FwError {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'FwError';
}

/** Codes owned by the core itself (other packages own their prefixes: `Q` query, `P` process). */
export const CoreErrorCodes = {
  malformedJson: 'FW400',
  /** A control character (U+0000 and other C0 controls but tab, newline, CR) in a request. */
  controlCharacter: 'FW400C',
  /** A value the database refused as input (a byte sequence it cannot store, a value too long). */
  invalidValue: 'FW400V',
  /** A request body nested deeper than the input policy allows (64 levels). */
  tooDeep: 'FW400D',
  notFound: 'FW404',
  /** A method the path does not take (405, with Allow). */
  methodNotAllowed: 'FW405',
  payloadTooLarge: 'FW413',
  unsupportedMediaType: 'FW415',
  internal: 'FW500',
  unavailable: 'FW503',
  /** A {@link ConfigError} (never answered as such: it is not exposed). */
  invalidConfiguration: 'FW_CONFIG',
} as const;

/**
 * Raised when configuration is invalid. Hosts print `message` and exit non-zero before
 * listening; the message always names the file, key or setting to fix. An {@link FwError}
 * (500 `FW_CONFIG`, not exposed: an HTTP answer shows the generic FW500, never the message).
 */
export class ConfigError extends FwError {
  constructor(message: string, options?: { cause?: unknown }) {
    super({
      code: 500,
      subErrorCode: CoreErrorCodes.invalidConfiguration,
      description: message,
      expose: false,
      cause: options?.cause,
    });
    this.name = 'ConfigError';
  }
}

/** True for a {@link ConfigError}, also when it comes from another copy of this package. */
export function isConfigError(value: unknown): value is ConfigError {
  // The code, not the name: subclasses (a query mapper's MapperLoadError) rename themselves.
  return isFwError(value) && value.subErrorCode === CoreErrorCodes.invalidConfiguration;
}
