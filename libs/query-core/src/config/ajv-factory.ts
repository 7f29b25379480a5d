import Ajv from 'ajv';

/** An ajv instance set up the way every schema in this package expects (all errors, verbose, strict). */
export function makeAjv(): Ajv {
  return new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
}
