import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { makeBlueprintCatalog } from '../src/blueprint/catalog';
import { GeneratorErrorCodes } from '../src/errors';
import { FIXTURES, removeTempDirs, snapshot, tempDir, testGenerator } from './support';

afterAll(removeTempDirs);

describe('generation of the demo blueprint', () => {
  it('renders templates, renames paths, applies conditional folders, copies binaries and records the answers', async () => {
    const out = tempDir();
    const lines: string[] = [];
    const result = await testGenerator({}, lines).generate({
      blueprint: 'demo',
      answers: { service: 'orderDesk' },
      cwd: out,
    });
    const dest = path.join(out, 'orderDesk');
    expect(result.destination).toBe(dest);
    expect(Object.keys(snapshot(dest))).toEqual([
      '.fw-gen.json',
      '.gitignore',
      'README.md',
      'db/schema.sql',
      'hook.txt',
      'logo.png',
      'raw/raw.txt',
      'src/OrderDesk.ts',
      'src/order-desk/note.txt',
    ]);
    expect(readFileSync(path.join(dest, 'README.md'), 'utf8')).toBe(
      '# orderDesk 0.1.0\n\nGreeting: orderDeskGreeting. Pascal OrderDesk, kebab order-desk.\nWith a database.\nMarkup stays raw: @example <b>&</b>\n',
    );
    expect(readFileSync(path.join(dest, 'raw/raw.txt'), 'utf8')).toBe('kept {{as is}}\n');
    expect(readFileSync(path.join(dest, 'logo.png'))).toEqual(readFileSync(path.join(FIXTURES, 'demo/logo.png')));
    expect(readFileSync(path.join(dest, 'hook.txt'), 'utf8')).toMatch(/^hook ran for orderDesk in out\n$/);
    const record = JSON.parse(readFileSync(path.join(dest, '.fw-gen.json'), 'utf8'));
    expect(record).toMatchObject({
      blueprint: 'demo',
      blueprintVersion: '1.2.3',
      answers: { service: 'orderDesk', jpa: true, flavor: 'plain', greeting: 'orderDeskGreeting' },
    });
    expect(record.answers).not.toHaveProperty('fancyName');
    expect(lines.map((l) => l.replace(/:.*/, ''))).toEqual([
      '[1/6] load blueprint',
      '[2/6] version gate',
      '[3/6] input validation',
      '[4/6] render into staging',
      '[5/6] init hook',
      '[6/6] move into place',
    ]);
  });

  it('drops the folder whose condition does not hold and asks visibleWhen fields only when visible', async () => {
    const out = tempDir();
    await testGenerator().generate({
      blueprint: 'demo',
      answers: { service: 'shop', jpa: 'n', flavor: 'fancy' },
      cwd: out,
    });
    const files = snapshot(path.join(out, 'shop'));
    expect(Object.keys(files)).toContain('memory/store.txt');
    expect(Object.keys(files)).not.toContain('db/schema.sql');
    expect(JSON.parse(readFileSync(path.join(out, 'shop/.fw-gen.json'), 'utf8')).answers.fancyName).toBe('shopFancy');
  });

  it('gives byte-identical output when generated twice from the same answers', async () => {
    const out = tempDir();
    const answers = { service: 'twice', flavor: 'fancy' };
    await testGenerator().generate({ blueprint: 'demo', answers: { ...answers, destFolder: 'a' }, cwd: out });
    await testGenerator().generate({ blueprint: 'demo', answers: { ...answers, destFolder: 'b' }, cwd: out });
    const a = snapshot(path.join(out, 'a'));
    const b = snapshot(path.join(out, 'b'));
    // The record holds the destFolder answer itself; every other byte must match.
    delete a['.fw-gen.json'];
    delete b['.fw-gen.json'];
    expect(b).toEqual(a);
    const [ra, rb] = ['a', 'b'].map((d) => JSON.parse(readFileSync(path.join(out, d, '.fw-gen.json'), 'utf8')));
    expect({ ...rb, answers: { ...rb.answers, destFolder: 'a' } }).toEqual(ra);
  });

  it('--dry-run lists the files and writes nothing', async () => {
    const out = tempDir();
    const result = await testGenerator().generate({ blueprint: 'demo', answers: {}, cwd: out, dryRun: true });
    expect(result.files).toContain('src/OrderDesk.ts');
    expect(snapshot(out)).toEqual({});
  });
});

describe('nothing is written unless every step succeeded', () => {
  async function refusedWith(code: string, request: Record<string, unknown>, config = {}): Promise<void> {
    await expect(
      testGenerator(config).generate({ blueprint: 'demo', answers: {}, ...request } as never),
    ).rejects.toMatchObject({ code });
  }

  function existing(): { out: string; dest: string; before: Record<string, string> } {
    const out = tempDir();
    const dest = path.join(out, 'dest');
    mkdirSync(dest);
    writeFileSync(path.join(dest, 'mine.txt'), 'keep me');
    return { out, dest, before: snapshot(dest) };
  }

  it.each([
    ['version gate', GeneratorErrorCodes.VERSION_GATE, {}, { fwVersion: '1.9.9' }],
    ['input validation: unsafe name', GeneratorErrorCodes.INPUT_INVALID, { answers: { service: '../evil' } }, {}],
    ['input validation: not a valid value', GeneratorErrorCodes.INPUT_INVALID, { answers: { flavor: 'sour' } }, {}],
    ['input validation: unknown input', GeneratorErrorCodes.INPUT_INVALID, { answers: { servise: 'typo' } }, {}],
    ['init hook fails', GeneratorErrorCodes.HOOK_FAILED, { answers: { hookMode: 'fail' } }, {}],
    ['init hook runs past its time limit', GeneratorErrorCodes.HOOK_TIMEOUT, { answers: { hookMode: 'hang' } }, {}],
  ])(
    '%s: refused, the destination is untouched (with --force into an existing folder too)',
    async (_name, code, request, config) => {
      const { out, dest, before } = existing();
      await refusedWith(code, { cwd: out, destination: 'fresh', ...request }, config);
      expect(snapshot(path.join(out, 'fresh'))).toEqual({});
      await refusedWith(code, { cwd: out, destination: dest, force: true, ...request }, config);
      expect(snapshot(dest)).toEqual(before);
    },
  );

  it('a template Mustache cannot parse: RENDER_FAILED naming the file, nothing written', async () => {
    const out = tempDir();
    await expect(testGenerator().generate({ blueprint: 'bad-template', answers: {}, cwd: out })).rejects.toThrow(
      /template file.txt cannot be rendered/,
    );
    expect(snapshot(out)).toEqual({});
  });

  it('the move fails (the destination is under a file): MOVE_FAILED, nothing written', async () => {
    const out = tempDir();
    writeFileSync(path.join(out, 'afile'), 'x');
    await expect(
      testGenerator().generate({ blueprint: 'demo', answers: {}, cwd: out, destination: 'afile/sub' }),
    ).rejects.toMatchObject({ code: GeneratorErrorCodes.MOVE_FAILED });
    expect(snapshot(out)).toEqual({ afile: Buffer.from('x').toString('base64') });
  });

  it('an existing non-empty destination is refused without --force, written over with it', async () => {
    const { out, dest, before } = existing();
    await expect(
      testGenerator().generate({ blueprint: 'demo', answers: {}, cwd: out, destination: dest }),
    ).rejects.toThrow(/is not empty: choose another destFolder, empty it, or give --force/);
    expect(snapshot(dest)).toEqual(before);
    await testGenerator().generate({ blueprint: 'demo', answers: {}, cwd: out, destination: dest, force: true });
    expect(Object.keys(snapshot(dest))).toEqual(expect.arrayContaining(['mine.txt', 'README.md', 'hook.txt']));
  });
});

describe('blueprint descriptors', () => {
  it('a broken descriptor names the file and each bad field', () => {
    const catalog = makeBlueprintCatalog([FIXTURES], false);
    let message = '';
    try {
      catalog.get('broken');
    } catch (err) {
      message = (err as Error).message;
      expect(err).toMatchObject({ code: GeneratorErrorCodes.DESCRIPTOR_INVALID });
    }
    expect(message).toContain(path.join(FIXTURES, 'broken/META-INF/blueprint.json'));
    expect(message).toContain('inputFields.0.type: must be one of');
    expect(message).toContain("inputFields.1: unknown property 'colour'");
  });

  it('an unknown blueprint names the ones there are; a broken one does not hide the others', () => {
    const catalog = makeBlueprintCatalog([FIXTURES], false);
    expect(() => catalog.get('nope')).toThrow(/no blueprint named 'nope'; there are: bad-template, broken, demo/);
    expect(catalog.get('demo').version).toBe('1.2.3');
  });

  it('the built-in catalogue loads every shipped blueprint', () => {
    const names = makeBlueprintCatalog()
      .list()
      .map((b) => b.descriptor.name);
    expect(names).toEqual(expect.arrayContaining(['fw-process-management']));
  });
});
