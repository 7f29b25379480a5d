#!/usr/bin/env node
// `{{ecosystemKebab}}-env <host> [dev|prod]`: the host's variables as `export NAME='value'` lines.
import { envOf, HOSTS, type Profile } from './index';

const [name, profile = 'dev'] = process.argv.slice(2);
if (!name || (profile !== 'dev' && profile !== 'prod')) {
  console.error(`usage: {{ecosystemKebab}}-env <host> [dev|prod]; hosts: ${HOSTS.map((h) => h.name).join(', ')}`);
  process.exit(2);
}
for (const [key, value] of Object.entries(envOf(name, profile as Profile))) console.log(`export ${key}='${value.replace(/'/g, `'\\''`)}'`);
