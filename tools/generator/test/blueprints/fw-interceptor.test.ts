/**
 * fw-interceptor: each prompt's effect on the generated package, and the sample (and a renamed
 * one) type-checked against the workspace's packages. The package's own `npm install && npm test`
 * runs in tools/pack-check.
 */
import * as path from 'node:path';
import { removeTempDirs } from '../support';
import { generate, typeCheckProject } from './support';

afterAll(removeTempDirs);

describe('fw-interceptor', () => {
  it('the sample generates one package: the interceptor factory, its README and its tests, and type-checks', async () => {
    const g = await generate('fw-interceptor');
    expect(g.run).toMatchObject({ code: 0, err: [] });
    expect(path.basename(g.project)).toBe('rate-limit');
    expect(g.files).toEqual([
      '.fw-gen.json',
      '.gitignore',
      'README.md',
      'package.json',
      'src/index.ts',
      'src/rate-limit.ts',
      'test/rate-limit.test.ts',
      'tsconfig.json',
    ]);
    const pkg = JSON.parse(g.read('package.json'));
    expect(pkg).toMatchObject({
      name: '@example/rate-limit',
      main: './dist/src/index.js',
      scripts: { test: 'npm run build && node --test dist/test/' },
    });
    expect(Object.keys(pkg.dependencies)).toEqual(['@fw/core', '@fw/service']);
    const source = g.read('src/rate-limit.ts');
    expect(source).toContain('export function makeRateLimitInterceptor(options: RateLimitOptions): Interceptor');
    expect(source).toContain("name: 'rate-limit'");
    expect(source).toContain("RATE_LIMIT_REFUSED = 'RATE_LIMIT_429'");
    // It short-circuits: a refusal throws before next() is called.
    expect(source.indexOf('throw new FwError')).toBeLessThan(source.indexOf('return next()'));
    const tests = g.read('test/rate-limit.test.ts');
    expect(tests).toContain('registry.invoke(');
    expect(tests).toContain('makeServiceRouter(registry)');
    expect(tests).toContain("['outer:before', 'outer:after']");
    const readme = g.read('README.md');
    expect(readme).toContain('// Service level');
    expect(readme).toContain('// Operation level');
    typeCheckProject(g.project, ['src/**/*.ts', 'test/**/*.ts']);
  }, 120_000);

  it('interceptorName names the package, the files, the factory, the interceptor and its error code', async () => {
    const g = await generate('fw-interceptor', { interceptorName: 'tenantQuota', destFolder: 'quota' });
    expect(g.run.code).toBe(0);
    expect(g.files).toEqual(expect.arrayContaining(['src/tenant-quota.ts', 'test/tenant-quota.test.ts']));
    expect(JSON.parse(g.read('package.json')).name).toBe('@example/tenant-quota');
    expect(g.read('src/index.ts')).toContain(
      "export { defaultKeyOf, makeTenantQuotaInterceptor, REMAINING_ATTRIBUTE, TENANT_QUOTA_REFUSED } from './tenant-quota'",
    );
    expect(g.read('src/tenant-quota.ts')).toContain("name: 'tenant-quota'");
    expect(g.read('src/tenant-quota.ts')).toContain("REMAINING_ATTRIBUTE = 'tenantQuota.remaining'");
    expect(g.read('README.md')).toMatch(/^# @example\/tenant-quota 0\.1\.0$/m);
    typeCheckProject(g.project, ['src/**/*.ts', 'test/**/*.ts']);
  }, 120_000);

  it('interceptorVersion is the package version', async () => {
    const g = await generate('fw-interceptor', { interceptorVersion: '3.1.4' });
    expect(JSON.parse(g.read('package.json')).version).toBe('3.1.4');
    expect(g.read('README.md')).toMatch(/^# @example\/rate-limit 3\.1\.4$/m);
  });

  it('destFolder is where the package goes', async () => {
    const g = await generate('fw-interceptor', { destFolder: 'policies/limits' });
    expect(g.project).toBe(path.join(g.dir, 'policies/limits'));
    expect(g.files).toContain('src/rate-limit.ts');
  });
});
