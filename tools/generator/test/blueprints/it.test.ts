/**
 * it: each prompt's effect on the generated integration-test project, and the sample (and the
 * secured variant) type-checked against the workspace's packages.
 */
import * as path from 'node:path';
import { removeTempDirs } from '../support';
import { generate, typeCheckProject } from './support';

afterAll(removeTempDirs);

describe('it', () => {
  it('the sample (defaults) generates the CRUD tests, the target selection and the reference app, and type-checks', async () => {
    const g = await generate('it');
    expect(g.run).toMatchObject({ code: 0, err: [] });
    expect(path.basename(g.project)).toBe('orders-it');
    expect(g.files).toEqual(
      expect.arrayContaining([
        'README.md',
        'package.json',
        'src/target.ts',
        'src/client.ts',
        'src/reference/entity-service.ts',
        'src/reference/reference-app.ts',
        'src/reference/main.ts',
        'test/order-crud.test.ts',
        'test/target.test.ts',
      ]),
    );
    const crud = g.read('test/order-crud.test.ts');
    for (const check of [
      'client.create({ name })',
      'client.read(created.body.payload.id)',
      'read.status, 404',
      "'SVC400'",
      "'body.name'",
    ])
      expect(crud).toContain(check);
    expect(g.read('src/target.ts')).toMatch(/IT_BASE_URL[\s\S]*IT_APP_COMMAND/);
    typeCheckProject(g.project, ['src/**/*.ts', 'test/**/*.ts']);
  }, 120_000);

  it('app names the package and the reference host', async () => {
    const g = await generate('it', { app: 'shop', destFolder: 'shop-it' });
    expect(JSON.parse(g.read('package.json')).name).toBe('@example/shop-it');
    expect(g.read('src/reference/reference-app.ts')).toContain("name: 'shop-reference'");
    expect(g.read('README.md')).toMatch(/^# shop integration tests$/m);
  });

  it('appVersion is the package version', async () => {
    const g = await generate('it', { appVersion: '1.4.0' });
    expect(JSON.parse(g.read('package.json')).version).toBe('1.4.0');
  });

  it('entity names the route, the test file and the client', async () => {
    const g = await generate('it', { entity: 'lineItem' });
    expect(g.files).toContain('test/line-item-crud.test.ts');
    expect(g.files).not.toContain('test/order-crud.test.ts');
    expect(g.read('src/client.ts')).toContain("ENTITY_PATH = '/line-item'");
    expect(g.read('src/client.ts')).toContain('export function makeLineItemClient(');
    expect(g.read('src/reference/entity-service.ts')).toContain("path: '/line-item/{id}'");
  });

  it('destFolder is where the project goes', async () => {
    const g = await generate('it', { destFolder: 'tests/it' });
    expect(g.project).toBe(path.join(g.dir, 'tests/it'));
    expect(g.files).toContain('src/target.ts');
  });

  it('security = no: no tokens, no jose', async () => {
    const g = await generate('it', { security: false });
    expect(g.files).not.toContain('src/jwt.ts');
    expect(JSON.parse(g.read('package.json')).dependencies).not.toHaveProperty('jose');
    for (const file of g.files.filter((f) => f.endsWith('.ts')))
      expect(g.read(file)).not.toMatch(/jose|IT_JWT_SECRET|authorization/);
  });

  it('security = yes: signs tokens with jose from IT_JWT_SECRET and checks a request without one is refused; type-checks', async () => {
    const g = await generate('it', { security: true });
    expect(g.run.code).toBe(0);
    expect(g.files).toContain('src/jwt.ts');
    expect(JSON.parse(g.read('package.json')).dependencies).toHaveProperty('jose');
    expect(g.read('src/jwt.ts')).toContain('new SignJWT(');
    expect(g.read('src/target.ts')).toContain('IT_JWT_SECRET');
    const crud = g.read('test/order-crud.test.ts');
    expect(crud).toContain('authorization: `Bearer ${await signToken(target.jwt)}`');
    expect(crud).toContain('created.status, 401');
    typeCheckProject(g.project, ['src/**/*.ts', 'test/**/*.ts']);
  }, 120_000);
});
