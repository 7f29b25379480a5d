import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from '../src/cli/args';
import { runCli } from '../src/cli/cli';
import { applyChanges } from '../src/update/apply';
import { planUpdate, type PlanInput } from '../src/update/plan';
import { decodeBase, encodeBase } from '../src/update/record';
import type { Tree } from '../src/update/tree';
import { removeTempDirs, snapshot, tempDir } from './support';

afterAll(removeTempDirs);

const V1 = path.join(__dirname, 'fixtures/update/v1');
const V2 = path.join(__dirname, 'fixtures/update/v2');

async function cli(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l), cwd });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function git(cwd: string, ...args: string[]): string {
  const run = spawnSync(
    'git',
    ['-c', 'user.name=fw-gen test', '-c', 'user.email=test@example.invalid', '-c', 'init.defaultBranch=main', ...args],
    { cwd, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

/** A project generated from upd-demo 0.1.0; committed to a fresh git repository unless `inGit` is false. */
async function generateV1(inGit = true): Promise<string> {
  const dir = tempDir('fw-gen-update-');
  writeFileSync(path.join(dir, 'settings.json'), '{ "theme": "dark" }\n');
  writeFileSync(path.join(dir, 'input.json'), JSON.stringify({ blueprint: 'upd-demo', answers: { shop: 'corner' } }));
  expect(await cli(['--blueprints', V1, '-f', 'input.json'], dir)).toMatchObject({ code: 0 });
  // The input file and its settings are gone by the time of the update: the record must suffice.
  rmSync(path.join(dir, 'settings.json'));
  const project = path.join(dir, 'corner');
  if (inGit) {
    git(project, 'init', '-q');
    commitAll(project, 'generated');
  }
  return project;
}

function commitAll(project: string, message: string): void {
  git(project, 'add', '-A');
  git(project, 'commit', '-q', '-m', message);
}

function edit(project: string, file: string, from: string, to: string): void {
  const full = path.join(project, file);
  const text = readFileSync(full, 'utf8');
  expect(text).toContain(from);
  writeFileSync(full, text.replace(from, to));
}

const read = (project: string, file: string): string => readFileSync(path.join(project, file), 'utf8');
const record = (
  project: string,
): { blueprintVersion: string; answers: Record<string, unknown>; base: Record<string, unknown> } =>
  JSON.parse(read(project, '.fw-gen.json'));

describe('the generation record keeps the pristine render', () => {
  it('records every generated file (after the init hook) as base, but not the record itself', async () => {
    const project = await generateV1(false);
    const base = record(project).base;
    expect(Object.keys(base)).toEqual([
      'README.md',
      'hook.txt',
      'kept-old.txt',
      'logo.png',
      'old-only.txt',
      'src/corner.txt',
    ]);
    expect(base['hook.txt']).toBe('hook of 0.1.0 for corner\n');
    expect(base['logo.png']).toEqual({ base64: readFileSync(path.join(project, 'logo.png')).toString('base64') });
  });

  it('encodes text, binary and executable files so that they decode to the same bytes', () => {
    const tree: Tree = new Map([
      ['a.txt', { bytes: Buffer.from('héllo\n'), executable: false }],
      ['bin/run', { bytes: Buffer.from('#!/bin/sh\n'), executable: true }],
      ['b.bin', { bytes: Buffer.from([0, 1, 2, 255]), executable: false }],
      ['latin1.txt', { bytes: Buffer.from([0x63, 0x61, 0x66, 0xe9]), executable: false }],
    ]);
    const encoded = encodeBase(tree);
    expect(encoded['a.txt']).toBe('héllo\n');
    expect(encoded['bin/run']).toEqual({ text: '#!/bin/sh\n', executable: true });
    expect(decodeBase(JSON.parse(JSON.stringify(encoded)))).toEqual(tree);
  });
});

describe('fw-gen update --check', () => {
  it('is 0 on a fresh project, 1 after an edit (naming the file), 1 after a blueprint change', async () => {
    const project = await generateV1();
    const fresh = await cli(['--blueprints', V1, 'update', '--check'], project);
    expect(fresh).toMatchObject({ code: 0, out: expect.stringContaining('no drift') });

    edit(project, 'src/corner.txt', 'line 2\n', 'line 2 edited\n');
    rmSync(path.join(project, 'hook.txt'));
    const edited = await cli(['--blueprints', V1, 'update', '--check', project], path.dirname(project));
    expect(edited.code).toBe(1);
    expect(edited.out).toMatch(
      /drifted from what upd-demo 0\.1\.0 generates.*; 2 files:\n {2}hook\.txt \(missing\)\n {2}src\/corner\.txt \(differs\)$/,
    );
    git(project, 'checkout', '--', '.');

    const changed = await cli(['--blueprints', V2, 'update', '--check'], project);
    expect(changed.code).toBe(1);
    expect(changed.out).toContain('.fw-gen.json (blueprint 0.1.0 → 0.2.0; answers differ (a prompt added or removed))');
    expect(changed.out).toContain('new-file.txt (new in the blueprint, missing)');
    expect(changed.out).toContain('old-only.txt (removed from the blueprint, still in the project)');
    expect(changed.out).toContain('src/corner.txt (differs)');
    // The check writes nothing and a file of the user's own is not drift.
    expect(git(project, 'status', '--porcelain')).toBe('');
  });
});

describe('fw-gen update', () => {
  it('merges a user edit and a blueprint change in different places cleanly and takes every other change', async () => {
    const project = await generateV1();
    edit(project, 'src/corner.txt', 'line 2\n', 'line 2, edited by the user\n');
    writeFileSync(path.join(project, 'mine.txt'), 'my own file\n');
    commitAll(project, 'my edits');

    const result = await cli(['--blueprints', V2, 'update'], project);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toContain('update upd-demo 0.1.0 → 0.2.0 in');
    expect(result.out).toMatch(/^ {2}merged {6}src\/corner\.txt$/m);
    expect(result.out).toMatch(/^ {2}added {7}new-file\.txt$/m);
    expect(result.out).toMatch(/^ {2}deleted {5}old-only\.txt$/m);
    expect(result.out).toMatch(/^ {2}deleted {5}kept-old\.txt$/m);
    expect(result.out).toContain('answer legacy dropped');
    expect(result.out).toMatch(/7 files: 4 merged, 0 conflicted, 1 added, 2 deleted, 0 unchanged/);

    expect(read(project, 'src/corner.txt')).toBe(
      'line 1 of corner\nline 2, edited by the user\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9, changed by 0.2.0\nline 10\n',
    );
    expect(read(project, 'README.md')).toContain('Flavour: plain.');
    expect(read(project, 'README.md')).toContain('Settings come from settings.json.');
    expect(read(project, 'hook.txt')).toBe('hook of 0.2.0 for corner\n');
    expect(read(project, 'new-file.txt')).toBe('new in 0.2.0 for corner\n');
    expect(existsSync(path.join(project, 'old-only.txt'))).toBe(false);
    expect(read(project, 'mine.txt')).toBe('my own file\n');
    const after = record(project);
    expect(after.blueprintVersion).toBe('0.2.0');
    expect(after.answers).toEqual({
      shop: 'corner',
      destFolder: './corner',
      settings: 'settings.json',
      flavour: 'plain',
    });
    expect(Object.keys(after.base)).toContain('new-file.txt');
    expect(existsSync(path.join(project, 'node_modules'))).toBe(false);
    expect(
      git(project, 'status', '--porcelain')
        .split('\n')
        .filter((l) => l.includes('.fw-gen-update-')),
    ).toEqual([]);
  });

  it('marks a conflict inline, naming both sides, says so in the summary and exits 1', async () => {
    const project = await generateV1();
    edit(project, 'src/corner.txt', 'line 9\n', 'line 9, edited by the user\n');
    edit(project, 'kept-old.txt', 'kept by the user', 'kept and changed by the user');
    commitAll(project, 'my edits');

    const result = await cli(['--blueprints', V2, 'update'], project);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/^ {2}conflicted {2}src\/corner\.txt \(1 conflict marked inline\)$/m);
    expect(result.out).toMatch(
      /^ {2}conflicted {2}kept-old\.txt \(removed from the blueprint but changed by you: yours kept\)$/m,
    );
    expect(result.out).toMatch(/7 files: 3 merged, 2 conflicted, 1 added, 1 deleted, 0 unchanged/);
    expect(result.err).toMatch(/fw-gen: 2 files conflicted: resolve the <<<<<<< \/ ======= \/ >>>>>>> markers/);
    expect(read(project, 'src/corner.txt')).toBe(
      'line 1 of corner\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\n' +
        '<<<<<<< src/corner.txt (yours)\nline 9, edited by the user\n=======\nline 9, changed by 0.2.0\n>>>>>>> src/corner.txt (upd-demo 0.2.0)\nline 10\n',
    );
    expect(read(project, 'kept-old.txt')).toContain('kept and changed by the user');
    // The update is written (the rest merged, the record moved on): the next update starts from 0.2.0.
    expect(record(project).blueprintVersion).toBe('0.2.0');
  });

  it('is refused on a dirty work tree, writing nothing', async () => {
    const project = await generateV1();
    edit(project, 'README.md', '# corner', '# corner, uncommitted');
    const before = snapshot(project);
    const result = await cli(['--blueprints', V2, 'update'], project);
    expect(result).toMatchObject({
      code: 1,
      err: expect.stringContaining('has uncommitted changes; commit or stash them first'),
    });
    expect(result.err).toContain(' M README.md');
    expect(snapshot(project)).toEqual(before);

    // An untracked file counts too: the update could write over it.
    git(project, 'checkout', '--', '.');
    writeFileSync(path.join(project, 'new-file.txt'), 'mine\n');
    expect(await cli(['--blueprints', V2, 'update'], project)).toMatchObject({
      code: 1,
      err: expect.stringContaining('?? new-file.txt'),
    });
  });

  it('outside git (or ignored by it) is refused unless --force; with --force it updates in place', async () => {
    const project = await generateV1(false);
    const before = snapshot(project);
    expect(await cli(['--blueprints', V2, 'update'], project)).toMatchObject({
      code: 1,
      err: expect.stringContaining('is not in a git work tree'),
    });
    expect(snapshot(project)).toEqual(before);
    // Inside a repository that ignores it: the same, git holds nothing to go back to.
    git(path.dirname(project), 'init', '-q');
    writeFileSync(path.join(path.dirname(project), '.gitignore'), 'corner/\n');
    expect(await cli(['--blueprints', V2, 'update'], project)).toMatchObject({
      code: 1,
      err: expect.stringContaining('is not tracked by git (ignored?)'),
    });
    expect(snapshot(project)).toEqual(before);
    const forced = await cli(['--blueprints', V2, 'update', '--force'], project);
    expect(forced.code).toBe(0);
    expect(read(project, 'new-file.txt')).toBe('new in 0.2.0 for corner\n');
  });

  it('--dry-run prints the summary and writes nothing', async () => {
    const project = await generateV1();
    const before = snapshot(project);
    const result = await cli(['--blueprints', V2, 'update', '--dry-run'], project);
    expect(result.code).toBe(0);
    expect(result.out).toContain('(dry run: nothing written)');
    expect(result.out).toMatch(/^ {2}added {7}new-file\.txt$/m);
    expect(snapshot(project)).toEqual(before);
  });

  it('a failing render (the init hook) writes nothing', async () => {
    const project = await generateV1();
    const before = snapshot(project);
    process.env.FW_GEN_TEST_HOOK_FAIL = '1';
    try {
      expect(await cli(['--blueprints', V2, 'update'], project)).toMatchObject({
        code: 1,
        err: expect.stringContaining('the hook refuses'),
      });
    } finally {
      delete process.env.FW_GEN_TEST_HOOK_FAIL;
    }
    expect(snapshot(project)).toEqual(before);
  });

  it('is refused for a project without a record, or whose record has no base', async () => {
    const empty = tempDir();
    expect(await cli(['update'], empty)).toMatchObject({
      code: 1,
      err: expect.stringContaining('holds no .fw-gen.json'),
    });
    const project = await generateV1();
    const old = record(project) as Partial<ReturnType<typeof record>>;
    delete old.base;
    writeFileSync(path.join(project, '.fw-gen.json'), JSON.stringify(old));
    commitAll(project, 'an old record');
    expect(await cli(['--blueprints', V2, 'update'], project)).toMatchObject({
      code: 1,
      err: expect.stringContaining('has no base'),
    });
    // --check needs no base.
    expect((await cli(['--blueprints', V1, 'update', '--check'], project)).code).toBe(0);
  });
});

describe('the merge rules', () => {
  const file = (text: string, executable = false): { bytes: Buffer; executable: boolean } => ({
    bytes: Buffer.from(text),
    executable,
  });
  const never: PlanInput['merge'] = {
    merge: () => {
      throw new Error('no line merge expected');
    },
  };
  const plan = (base: Tree, ours: Tree, theirs: Tree) =>
    planUpdate({ base, ours, theirs, merge: never, oldLabel: 'bp 1', newLabel: 'bp 2' });

  it('deleted by you and changed by the blueprint: the new version is written and reported as a conflict', () => {
    const p = plan(new Map([['a', file('1')]]), new Map(), new Map([['a', file('2')]]));
    expect(p.outcomes).toEqual([
      {
        path: 'a',
        status: 'conflicted',
        note: "deleted by you, changed by the blueprint: the blueprint's version written",
      },
    ]);
    expect(p.changes).toEqual([{ path: 'a', file: file('2') }]);
  });

  it('deleted by you and unchanged in the blueprint: stays deleted', () => {
    const p = plan(new Map([['a', file('1')]]), new Map(), new Map([['a', file('1')]]));
    expect(p).toEqual({ outcomes: [{ path: 'a', status: 'unchanged' }], changes: [] });
  });

  it('a binary file changed on both sides: yours kept, the blueprint version beside it', () => {
    const bin = (b: number): { bytes: Buffer; executable: boolean } => ({
      bytes: Buffer.from([0, b]),
      executable: false,
    });
    const p = plan(new Map([['logo.png', bin(1)]]), new Map([['logo.png', bin(2)]]), new Map([['logo.png', bin(3)]]));
    expect(p.outcomes[0]).toMatchObject({ status: 'conflicted', note: expect.stringContaining('logo.png.fw-gen-new') });
    expect(p.changes).toEqual([{ path: 'logo.png.fw-gen-new', file: bin(3) }]);
  });

  it('a mode change of the blueprint reaches an unedited file', () => {
    const p = plan(new Map([['run', file('x')]]), new Map([['run', file('x')]]), new Map([['run', file('y', true)]]));
    expect(p.changes).toEqual([{ path: 'run', file: file('y', true) }]);
  });
});

describe('applying an update', () => {
  it('puts every file back when a write fails midway', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'a.txt'), 'old a\n');
    writeFileSync(path.join(dir, 'blocker'), 'a file where the update wants a folder\n');
    mkdirSync(path.join(dir, 'gone'));
    writeFileSync(path.join(dir, 'gone/b.txt'), 'b\n');
    const before = snapshot(dir);
    expect(() =>
      applyChanges(dir, [
        { path: 'a.txt', file: { bytes: Buffer.from('new a\n'), executable: false } },
        { path: 'gone/b.txt' },
        { path: 'blocker/c.txt', file: { bytes: Buffer.from('c\n'), executable: false } },
      ]),
    ).toThrow(/cannot write the update into .*; nothing was changed/);
    expect(snapshot(dir)).toEqual(before);
    expect(statSync(path.join(dir, 'gone')).isDirectory()).toBe(true);
  });

  it('refuses a path that leaves the project', () => {
    const dir = tempDir();
    expect(() => applyChanges(dir, [{ path: '../x', file: { bytes: Buffer.from(''), executable: false } }])).toThrow(
      /leaves the project folder/,
    );
  });
});

describe('command line', () => {
  it('parses update, update --check and a folder; --check alone is a usage mistake', () => {
    expect(parseArgs(['update']).mode).toEqual({ kind: 'update', projectDir: '.', check: false });
    expect(parseArgs(['update', '--check', 'proj']).mode).toEqual({ kind: 'update', projectDir: 'proj', check: true });
    expect(() => parseArgs(['--check'])).toThrow('--check goes with update');
    expect(() => parseArgs(['update', 'a', 'b'])).toThrow('update takes at most one folder');
  });
});
