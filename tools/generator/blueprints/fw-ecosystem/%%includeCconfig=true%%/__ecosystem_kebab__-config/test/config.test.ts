import assert from 'node:assert/strict';
import { it } from 'node:test';
import { envOf, HOSTS } from '../src/index';

it('gives every host its own port', () => {
  assert.equal(new Set(HOSTS.map((h) => h.port)).size, HOSTS.length);
});

it('answers each host its environment; dev has a PGlite folder, prod none', () => {
  for (const host of HOSTS) {
    assert.equal(envOf(host.name).PORT, String(host.port));
    assert.match(envOf(host.name, 'dev')[`${host.envPrefix}_DATABASE_URL`], /^pglite:/);
    assert.equal(envOf(host.name, 'prod')[`${host.envPrefix}_DATABASE_URL`], undefined);
  }
  assert.throws(() => envOf('nowhere'), /no host nowhere/);
});
{{#includeServiceRegistry}}

it('points every other host at the registry', () => {
  for (const host of HOSTS.filter((h) => h.name !== '{{serviceRegistryMonolithKebab}}')) assert.equal(envOf(host.name).SERVICE_REGISTRY_URL, '{{serviceRegistryUrl}}');
});
{{/includeServiceRegistry}}
