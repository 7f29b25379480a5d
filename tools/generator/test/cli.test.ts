import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../src/cli/cli';
import { FIXTURES, removeTempDirs, snapshot, tempDir } from './support';

afterAll(removeTempDirs);

async function cli(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l), cwd });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('fw-gen modes and exit codes', () => {
  it('--help is 0, a usage mistake is 2 with the usage line', async () => {
    const dir = tempDir();
    expect(await cli(['--help'], dir)).toMatchObject({
      code: 0,
      out: expect.stringContaining('fw-gen -g <blueprint> -o <file>.json'),
    });
    expect(await cli(['--version'], dir)).toMatchObject({ code: 0, out: '0.1.0' });
    expect(await cli(['--bogus'], dir)).toMatchObject({
      code: 2,
      err: expect.stringMatching(/unknown option '--bogus'\nusage: fw-gen/),
    });
    expect(await cli(['-g', 'demo'], dir)).toMatchObject({
      code: 2,
      err: expect.stringContaining('-g needs -o <file>.json'),
    });
    expect(await cli(['-f', 'a.json', '-e'], dir)).toMatchObject({
      code: 2,
      err: expect.stringContaining('give one mode'),
    });
  });

  it('--list names every blueprint with its version and description', async () => {
    const { code, out } = await cli(['--list', '--blueprints', path.join(FIXTURES, 'demo')], tempDir());
    expect(code).toBe(0);
    expect(out).toMatch(/^demo\s+1\.2\.3\s+A small blueprint/m);
    expect(out).toMatch(/^fw-process-management\s+0\.1\.0\s+.*\(since 2\.1\.31\)$/m);
  });

  it('-g -o writes a sample with every field and its default (and the sample processSpec); -f generates it unedited', async () => {
    const dir = tempDir();
    const sample = await cli(['-g', 'fw-process-management', '-o', 'spec.json'], dir);
    expect(sample.code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, 'spec.json'), 'utf8'))).toEqual({
      blueprint: 'fw-process-management',
      answers: {
        application: 'orders',
        applicationVersion: '0.1.0',
        destFolder: './orders',
        processSpec: 'process-spec.json',
        definitionSource: 'database',
        registerInServiceRegistry: false,
        serviceRegistryUrl: 'http://127.0.0.1:8080',
      },
    });
    expect(existsSync(path.join(dir, 'process-spec.json'))).toBe(true);
    const generated = await cli(['-f', 'spec.json'], dir);
    expect(generated.code).toBe(0);
    expect(generated.out).toMatch(
      /\[1\/6\] load blueprint: fw-process-management 0\.1\.0[\s\S]*\[6\/6\] move into place: \d+ files written to .*orders\ngenerated fw-process-management 0\.1\.0 into /,
    );
    expect(JSON.parse(readFileSync(path.join(dir, 'orders/.fw-gen.json'), 'utf8'))).toMatchObject({
      blueprint: 'fw-process-management',
      blueprintVersion: '0.1.0',
      answers: { application: 'orders' },
    });
    // Again into the same folder: refused (1), the message says what to do, nothing changed.
    const before = snapshot(path.join(dir, 'orders'));
    expect(await cli(['-f', 'spec.json'], dir)).toMatchObject({
      code: 1,
      err: expect.stringContaining('is not empty: choose another destFolder, empty it, or give --force'),
    });
    expect(snapshot(path.join(dir, 'orders'))).toEqual(before);
  });

  it('generating twice from the same answers gives zero diff', async () => {
    const dir = tempDir();
    await cli(['-g', 'fw-process-management', '-o', 'spec.json'], dir);
    const input = JSON.parse(readFileSync(path.join(dir, 'spec.json'), 'utf8'));
    for (const dest of ['one', 'two']) {
      mkdirSync(path.join(dir, dest));
      writeFileSync(
        path.join(dir, dest, 'input.json'),
        JSON.stringify({
          ...input,
          answers: { ...input.answers, destFolder: 'out', processSpec: '../process-spec.json' },
        }),
      );
      expect((await cli(['-f', 'input.json'], path.join(dir, dest))).code).toBe(0);
    }
    expect(snapshot(path.join(dir, 'two/out'))).toEqual(snapshot(path.join(dir, 'one/out')));
  });

  it('--dry-run prints the tree and writes nothing', async () => {
    const dir = tempDir();
    await cli(['-g', 'fw-process-management', '-o', 'spec.json'], dir);
    const { code, out } = await cli(['-f', 'spec.json', '--dry-run'], dir);
    expect(code).toBe(0);
    expect(out).toContain('(dry run: nothing written)');
    expect(out).toMatch(/^orders-service\/\n {2}package\.json$/m);
    expect(out).toMatch(/^ {6}file-import\.ts$/m);
    expect(existsSync(path.join(dir, 'orders'))).toBe(false);
  });

  it('-e writes ./config/generator.json, later runs read it (a lower fwVersion refuses a newer blueprint)', async () => {
    const dir = tempDir();
    expect((await cli(['-e'], dir)).code).toBe(0);
    const file = path.join(dir, 'config/generator.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      fwVersion: '2.1.31',
      package: 'example',
      version: '0.1.0',
      destFolder: '.',
      packageSource: 'registry',
    });
    expect(await cli(['-e'], dir)).toMatchObject({
      code: 1,
      err: expect.stringContaining('exists: edit it, or give --force'),
    });
    writeFileSync(
      file,
      JSON.stringify({
        fwVersion: '2.1.4',
        package: 'acme',
        version: '1.0.0',
        destFolder: 'out',
        packageSource: 'registry',
      }),
    );
    await cli(['-g', 'fw-process-management', '-o', 'spec.json'], dir);
    expect(JSON.parse(readFileSync(path.join(dir, 'spec.json'), 'utf8')).answers).toMatchObject({
      applicationVersion: '1.0.0',
      destFolder: 'out/orders',
    });
    const refused = await cli(['-f', 'spec.json'], dir);
    expect(refused).toMatchObject({
      code: 1,
      err: expect.stringContaining(
        'needs framework 2.1.31 or newer, the configuration says fwVersion 2.1.4: raise fwVersion',
      ),
    });
    expect(existsSync(path.join(dir, 'out'))).toBe(false);
  });

  it('a broken configuration is refused naming the file and the field', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'config'));
    writeFileSync(
      path.join(dir, 'config/generator.json'),
      JSON.stringify({ fwVersion: 'two', package: 'acme', version: '1.0.0', destFolder: '.', packageSource: 'ftp:x' }),
    );
    const { code, err } = await cli(['--list'], dir);
    expect(code).toBe(1);
    expect(err).toContain(`${path.join(dir, 'config/generator.json')} is not a valid generator configuration`);
    expect(err).toMatch(/fwVersion: must match pattern/);
    expect(err).toMatch(/packageSource: must match pattern/);
  });

  it('packageSource local:<folder> makes @fw dependencies file: tarballs; registry makes them ^ranges', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'config'));
    mkdirSync(path.join(dir, 'tarballs'));
    writeFileSync(
      path.join(dir, 'config/generator.json'),
      JSON.stringify({
        fwVersion: '2.1.31',
        package: 'acme',
        version: '1.0.0',
        destFolder: '.',
        packageSource: 'local:tarballs',
      }),
    );
    await cli(['-g', 'fw-process-management', '-o', 'spec.json'], dir);
    expect((await cli(['-f', 'spec.json'], dir)).code).toBe(0);
    const service = JSON.parse(readFileSync(path.join(dir, 'orders/orders-service/package.json'), 'utf8'));
    expect(service.name).toBe('@acme/orders-service');
    expect(service.dependencies['@fw/core']).toBe(`file:${path.join(dir, 'tarballs/fw-core-0.1.0.tgz')}`);
    const other = tempDir();
    await cli(['-g', 'fw-process-management', '-o', 'spec.json'], other);
    await cli(['-f', 'spec.json'], other);
    expect(
      JSON.parse(readFileSync(path.join(other, 'orders/orders-service/package.json'), 'utf8')).dependencies['@fw/core'],
    ).toBe('^0.1.0');
  });

  it('-f with a spec that has a cycle: exit 1 naming the cycle, nothing written', async () => {
    const dir = tempDir();
    await cli(['-g', 'fw-process-management', '-o', 'spec.json'], dir);
    const spec = JSON.parse(readFileSync(path.join(dir, 'process-spec.json'), 'utf8'));
    spec.processes.find((p: { processType: string }) => p.processType === 'file-chunk').children = ['file-import'];
    spec.processes.find((p: { processType: string }) => p.processType === 'file-chunk').implementation = 'custom';
    writeFileSync(path.join(dir, 'process-spec.json'), JSON.stringify(spec));
    const { code, err } = await cli(['-f', 'spec.json'], dir);
    expect(code).toBe(1);
    expect(err).toContain('cycle in children: file-import → file-chunk → file-import');
    expect(existsSync(path.join(dir, 'orders'))).toBe(false);
  });

  it('--blueprints DIR adds blueprints that -f then runs', async () => {
    const dir = tempDir();
    expect((await cli(['-g', 'demo', '-o', 'demo.json', '--blueprints', FIXTURES], dir)).code).toBe(0);
    expect((await cli(['-f', 'demo.json', '--blueprints', FIXTURES], dir)).code).toBe(0);
    expect(readFileSync(path.join(dir, 'orderDesk/src/OrderDesk.ts'), 'utf8')).toBe(
      "export const name = 'orderDesk';\n",
    );
    expect(await cli(['-f', 'demo.json'], dir)).toMatchObject({
      code: 1,
      err: expect.stringContaining("no blueprint named 'demo'"),
    });
  });
});
