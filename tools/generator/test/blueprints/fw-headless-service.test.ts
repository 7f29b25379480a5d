/**
 * fw-headless-service: each prompt's effect on the generated project, and the sample (and the
 * variant without registration) type-checked against the workspace's packages.
 */
import * as path from 'node:path';
import { removeTempDirs } from '../support';
import { generate, typeCheckProject } from './support';

afterAll(removeTempDirs);

const REGISTRATION_FILES = ['config/registry.json', 'src/registration.ts', 'test/registration.test.ts'];

describe('fw-headless-service', () => {
  it('the sample (defaults) generates a headless service with its adapters and registration, and type-checks', async () => {
    const g = await generate('fw-headless-service');
    expect(g.run).toMatchObject({ code: 0, err: [] });
    expect(path.basename(g.project)).toBe('pricing');
    expect(g.files).toEqual(
      expect.arrayContaining([
        '.gitignore',
        'README.md',
        'package.json',
        'tsconfig.json',
        'src/service.ts',
        'src/events.ts',
        'src/serverless.ts',
        'src/main.ts',
        'src/index.ts',
        'test/service.test.ts',
        'test/events.test.ts',
        'test/serverless.test.ts',
        'test/main.test.ts',
        ...REGISTRATION_FILES,
      ]),
    );
    expect(g.read('src/service.ts')).toContain("kind: 'headless'");
    expect(g.read('src/service.ts')).not.toMatch(/method:|path:/);
    expect(g.read('src/index.ts')).toContain('export { makePricingService');
    typeCheckProject(g.project, ['src/**/*.ts', 'test/**/*.ts']);
  }, 120_000);

  it('service names the package, the registered service, the factory and the event channel', async () => {
    const g = await generate('fw-headless-service', { service: 'billingEngine', destFolder: 'be' });
    expect(JSON.parse(g.read('package.json'))).toMatchObject({
      name: '@example/billing-engine',
      bin: { 'billing-engine': './dist/src/main.js' },
    });
    expect(g.read('src/service.ts')).toContain("SERVICE_NAME = 'billingEngine'");
    expect(g.read('src/service.ts')).toContain('export function makeBillingEngineService()');
    expect(g.read('src/events.ts')).toContain("EVENT_CHANNEL = 'billingEngine'");
    expect(g.read('README.md')).toMatch(/^# billingEngine$/m);
  });

  it('serviceVersion is the package version and the service version', async () => {
    const g = await generate('fw-headless-service', { serviceVersion: '2.3.4' });
    expect(JSON.parse(g.read('package.json')).version).toBe('2.3.4');
    expect(g.read('src/service.ts')).toContain("SERVICE_VERSION = '2.3.4'");
    expect(g.read('test/registration.test.ts')).toContain("'headless', '2.3.4'");
  });

  it('destFolder is where the project goes', async () => {
    const g = await generate('fw-headless-service', { destFolder: 'services/headless/pricing' });
    expect(g.project).toBe(path.join(g.dir, 'services/headless/pricing'));
    expect(g.files).toContain('src/service.ts');
  });

  it('registerInServiceRegistry = yes registers through the registry delegate, with the URL from env/config', async () => {
    const g = await generate('fw-headless-service', { registerInServiceRegistry: true });
    expect(g.read('src/registration.ts')).toContain('makeRegistryDelegate(');
    expect(JSON.parse(g.read('config/registry.json'))).toMatchObject({
      serviceRegistryUrl: '${SERVICE_REGISTRY_URL:-http://127.0.0.1:8080}',
    });
    expect(g.read('src/main.ts')).toContain('startRegistration(registry, loadRegistrationSettings(), logger)');
    expect(g.read('test/registration.test.ts')).toContain('makeServiceRegistryService()');
    expect(JSON.parse(g.read('package.json')).devDependencies).toHaveProperty('express');
  });

  it('registerInServiceRegistry = no leaves no registration code at all, and type-checks', async () => {
    const g = await generate('fw-headless-service', { registerInServiceRegistry: false });
    expect(g.run.code).toBe(0);
    for (const file of REGISTRATION_FILES) expect(g.files).not.toContain(file);
    for (const file of g.files.filter((f) => f.endsWith('.ts') || f === 'package.json'))
      expect(g.read(file)).not.toMatch(/registration|RegistryDelegate|SERVICE_REGISTRY_URL|express/i);
    expect(g.read('README.md')).toContain('registerInServiceRegistry = no');
    typeCheckProject(g.project, ['src/**/*.ts', 'test/**/*.ts']);
  }, 120_000);

  it('is refused before anything is written when the configured framework is older than 2.1.31 (sinceVersion)', async () => {
    const g = await generate('fw-headless-service', {}, { fwVersion: '2.1.4' });
    expect(g.run.code).toBe(1);
    expect(g.run.err.join('\n')).toMatch(/2\.1\.31/);
    expect(g.files).toEqual([]);
  });
});
