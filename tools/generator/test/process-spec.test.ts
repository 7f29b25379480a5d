import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { GeneratorErrorCodes } from '../src/errors';
import { parseProcessSpec, processSpecProblems } from '../src/process-spec/parse-process-spec';
import { parseBatchHierarchy } from '../src/batch/batch-hierarchy';
import { BUILTIN_BLUEPRINTS_DIR, makeBlueprintCatalog } from '../src/blueprint/catalog';
import { DEFAULT_CONFIG } from '../src/config/generator-config';
import { makeGenerator } from '../src/processors/generator';
import { removeTempDirs, snapshot, tempDir } from './support';

afterAll(removeTempDirs);

const SAMPLE = JSON.parse(
  readFileSync(path.join(BUILTIN_BLUEPRINTS_DIR, 'fw-process-management/META-INF/samples/process-spec.json'), 'utf8'),
);

const leaf = (processType: string, extra: Record<string, unknown> = {}) => ({
  processType,
  inputType: `${processType.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase())}Input`,
  fields: {},
  children: [],
  ...extra,
});

function problemsOf(spec: unknown): string[] {
  return processSpecProblems(spec).problems;
}

describe('processSpec validation', () => {
  it('accepts the shipped sample, filling defaults', () => {
    const spec = parseProcessSpec(SAMPLE);
    expect(spec.processes.find((p) => p.processType === 'region-sync')).toMatchObject({
      implementation: 'custom',
      config: {},
    });
    expect(spec.cronTriggers[0]).toMatchObject({ tenant: 'default', timezone: 'Europe/Paris' });
  });

  it('names a cycle through children', () => {
    const spec = {
      processes: [leaf('a', { children: ['b'] }), leaf('b', { children: ['c'] }), leaf('c', { children: ['a'] })],
    };
    expect(problemsOf(spec)).toContain('cycle in children: a → b → c → a');
  });

  it('names a cycle through predecessors', () => {
    const spec = {
      processes: [leaf('a', { predecessorProcessType: 'b' }), leaf('b', { predecessorProcessType: 'a' })],
    };
    expect(problemsOf(spec).join('\n')).toMatch(/cycle in predecessors: (a → b → a|b → a → b)/);
  });

  it.each([
    [
      'a dangling child',
      { processes: [leaf('a', { children: ['ghost'] })] },
      "processes[0].children[0]: 'ghost' is not a process of this spec (dangling reference)",
    ],
    [
      'a dangling predecessor',
      { processes: [leaf('a', { predecessorProcessType: 'ghost' })] },
      "processes[0].predecessorProcessType: 'ghost' is not a process of this spec",
    ],
    [
      'an unsafe process type',
      { processes: [leaf('../etc')] },
      'processes[0].processType: "../etc" is not a safe process type',
    ],
    [
      'an unsafe input type',
      { processes: [leaf('a', { inputType: 'x; drop' })] },
      'processes[0].inputType: "x; drop" is not a safe type name',
    ],
    [
      'an unsafe field name',
      { processes: [leaf('a', { fields: { 'x-y': 'string' } })] },
      "processes[0].fields.x-y: 'x-y' is not a safe field name",
    ],
    [
      'a bad field type',
      { processes: [leaf('a', { fields: { n: 'float' } })] },
      'processes[0].fields.n: type "float" is not one of string, int, integer, long, boolean, double',
    ],
    [
      'an unknown implementation',
      { processes: [leaf('a', { implementation: 'magic' })] },
      'processes[0].implementation: "magic" is not one of custom, fileSplit, fileRead',
    ],
    [
      'two parents',
      { processes: [leaf('a', { children: ['c'] }), leaf('b', { children: ['c'] }), leaf('c')] },
      "processes[1].children[0]: 'c' already has the parent 'a'",
    ],
    [
      'a duplicate type',
      { processes: [leaf('a'), { ...leaf('a'), inputType: 'OtherInput' }] },
      "processes[1].processType: 'a' is already the type of processes[0]",
    ],
    [
      'a fileSplit without a fileRead child',
      {
        processes: [leaf('a', { implementation: 'fileSplit', fields: { path: 'string' }, children: ['b'] }), leaf('b')],
      },
      'processes[0].children: a fileSplit process needs exactly one child, of implementation fileRead',
    ],
    [
      'a file process without path',
      { processes: [leaf('a', { implementation: 'fileRead' })] },
      'processes[0].fields.path: a fileRead process needs the field path of type string',
    ],
    [
      'an invalid cron expression',
      { processes: [leaf('a')], cronTriggers: [{ name: 'n', cronExpression: '61 * * * *', processType: 'a' }] },
      'cronTriggers[0].cronExpression: "61 * * * *" is not a valid cron expression',
    ],
    [
      'an invalid time zone',
      {
        processes: [leaf('a')],
        cronTriggers: [{ name: 'n', cronExpression: '0 2 * * *', timezone: 'Mars/Base', processType: 'a' }],
      },
      'cronTriggers[0].timezone: "Mars/Base" is not an IANA time zone',
    ],
    [
      'cron args of the wrong type',
      {
        processes: [leaf('a', { fields: { n: 'int' } })],
        cronTriggers: [{ name: 'n', cronExpression: '0 2 * * *', processType: 'a', args: { n: 1.5 } }],
      },
      'cronTriggers[0].args.n: 1.5 is not a int',
    ],
    [
      'a cron trigger of a child',
      {
        processes: [leaf('a', { children: ['b'] }), leaf('b')],
        cronTriggers: [{ name: 'n', cronExpression: '0 2 * * *', processType: 'b' }],
      },
      "cronTriggers[0].processType: 'b' is a child process",
    ],
    ['an unknown property', { processes: [leaf('a', { childs: [] })] }, 'processes[0].childs: unknown property'],
  ])('refuses %s', (_name, spec, expected) => {
    expect(problemsOf(spec).join('\n')).toContain(expected);
  });

  it('a spec with a cycle writes nothing and the error names the cycle', async () => {
    const dir = tempDir();
    const bad = {
      ...SAMPLE,
      processes: SAMPLE.processes.map((p: { processType: string; children: string[] }) =>
        p.processType === 'page-sync' ? { ...p, children: ['order-sync'] } : p,
      ),
    };
    writeFileSync(path.join(dir, 'cyclic.json'), JSON.stringify(bad));
    const generator = makeGenerator({ catalog: makeBlueprintCatalog(), config: DEFAULT_CONFIG });
    const attempt = generator.generate({
      blueprint: 'fw-process-management',
      answers: { processSpec: 'cyclic.json', destFolder: 'out' },
      cwd: dir,
    });
    await expect(attempt).rejects.toMatchObject({ code: GeneratorErrorCodes.SPEC_INVALID });
    await expect(attempt).rejects.toThrow('cycle in children: order-sync → region-sync → page-sync → order-sync');
    expect(Object.keys(snapshot(dir))).toEqual(['cyclic.json']);
  });
});

describe('batch hierarchy', () => {
  it('flattens nested steps into processes with derived parents and input types', () => {
    const spec = parseBatchHierarchy({
      steps: [
        {
          processType: 'nightly',
          config: { day: 'today' },
          children: [{ processType: 'load', fields: { region: 'string' } }],
        },
        { processType: 'report', predecessorProcessType: 'nightly', predecessorArgs: 'OUTPUT' },
      ],
    });
    expect(spec.processes.map((p) => [p.processType, p.inputType, p.children])).toEqual([
      ['nightly', 'NightlyInput', ['load']],
      ['load', 'LoadInput', []],
      ['report', 'ReportInput', []],
    ]);
  });

  it('refuses what a processSpec refuses, naming the step', () => {
    expect(() => parseBatchHierarchy({ steps: [{ processType: 'a', children: [{ processType: 'a' }] }] })).toThrow(
      /'a' is already the type of processes\[0\]/,
    );
    expect(() =>
      parseBatchHierarchy({ steps: [{ processType: 'a', children: [{ processType: 'b', colour: 1 }] }] }),
    ).toThrow(/steps\[0\]\.children\[0\]\.colour: unknown property/);
  });
});
