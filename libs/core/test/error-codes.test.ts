import {
  canonicalErrorCode,
  ConfigError,
  ERROR_CODE_ALIASES,
  ERROR_ENVELOPE_SCHEMA,
  errorEnvelope,
  FwError,
  isConfigError,
  isFwError,
  legacyErrorCodeOf,
} from '../src';

describe('renamed error codes', () => {
  it('reads an old code as its new one and back, and leaves other codes alone', () => {
    expect(canonicalErrorCode('P423')).toBe('P011');
    expect(canonicalErrorCode('T410')).toBe('T004');
    expect(canonicalErrorCode('P011')).toBe('P011');
    expect(canonicalErrorCode('Q730')).toBe('Q730');
    expect(legacyErrorCodeOf('P005')).toBe('P405');
    expect(legacyErrorCodeOf('Q731')).toBeUndefined();
    expect(legacyErrorCodeOf('toString')).toBeUndefined();
  });

  it('has no new code that reads like an HTTP status, and one new code per old one', () => {
    const news = Object.keys(ERROR_CODE_ALIASES);
    for (const code of news) expect(code).toMatch(/^[PT]0\d\d$/);
    expect(new Set(Object.values(ERROR_CODE_ALIASES)).size).toBe(news.length);
  });

  it('gives an FwError with a renamed code its legacyCode', () => {
    expect(new FwError({ code: 422, subErrorCode: 'P010', description: 'no' }).legacyCode).toBe('P422');
    expect(new FwError({ code: 400, subErrorCode: 'Q725', description: 'no' }).legacyCode).toBeUndefined();
  });
});

describe('the error envelope', () => {
  it('repeats the description as message and lists every field its schema names', () => {
    const envelope = errorEnvelope(new FwError({ code: 409, subErrorCode: 'P011', description: 'changed' }));
    expect(envelope).toMatchObject({ message: 'changed', description: 'changed', legacyCode: 'P423' });
    const properties = Object.keys((ERROR_ENVELOPE_SCHEMA as { properties: object }).properties);
    for (const key of Object.keys(envelope)) expect(properties).toContain(key);
    for (const key of ERROR_ENVELOPE_SCHEMA.required as string[]) expect(envelope).toHaveProperty(key);
  });
});

describe('ConfigError', () => {
  it('is an FwError that is not exposed, also in subclasses', () => {
    class MapperProblem extends ConfigError {
      constructor(message: string) {
        super(message);
        this.name = 'MapperProblem';
      }
    }
    const error = new MapperProblem('bad mapper');
    expect(isFwError(error)).toBe(true);
    expect(isConfigError(error)).toBe(true);
    expect(error.expose).toBe(false);
    expect(error.message).toBe('bad mapper');
    expect(isConfigError(new FwError({ code: 400, subErrorCode: 'X', description: 'x' }))).toBe(false);
  });
});
