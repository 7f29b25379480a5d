// The switches of the {{service}} flow: every `enabledBy` property of flows/{{serviceKebab}}.xml, read
// from config/enablement.json. false turns the state or event off (a disabled event answers 422 and
// is not listed; a disabled state is removed with the events leading into it); a switch left out
// stays on.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '@fw/core';
import type { StmConfig } from '@fw/stm';

/** The file shipped with this package; {{serviceConstant}}_ENABLEMENT_FILE names another. */
export const ENABLEMENT_FILE = path.join(__dirname, '..', '..', 'config', 'enablement.json');

/** Reads the switches; each must be true or false, so a typo such as "flase" is refused at start. */
export function loadEnablement(file: string = process.env.{{serviceConstant}}_ENABLEMENT_FILE || ENABLEMENT_FILE): StmConfig {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`${file}: not readable JSON (${(err as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError(`${file}: must be an object of switch name to true or false`);
  const config: Record<string, boolean> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== 'boolean') throw new ConfigError(`${file}: switch '${name}' must be true or false, got ${JSON.stringify(value)}`);
    config[name] = value;
  }
  return config;
}
