/**
 * `npm run bench -- generator`: generation time per built-in blueprint (the whole processor chain:
 * load, version gate, input validation with the processSpec rules, render into staging, hook,
 * move), from each blueprint's own sample; then fw-process-management from a processSpec of 200
 * processes, to show how rendering scales with the processSpec. Median and range of `--runs` runs (default
 * 5) after one warm-up, each into a fresh folder.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  DEFAULT_CONFIG,
  makeBlueprintCatalog,
  makeGenerator,
  writeSampleInput,
  readInputFile,
  type Answers,
} from '@fw/generator';
import type { BenchIo, BenchOptions, BenchRunner } from '../bench-types';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** A processSpec of `count` processes: roots of three levels (splitter → splitter → leaf). */
function largeSpec(count: number): unknown {
  const processes: Record<string, unknown>[] = [];
  for (let i = 0; processes.length + 3 <= count; i++) {
    processes.push({
      processType: `root-${i}`,
      inputType: `Root${i}Input`,
      fields: { day: 'string', limit: 'int' },
      children: [`mid-${i}`],
    });
    processes.push({
      processType: `mid-${i}`,
      inputType: `Mid${i}Input`,
      fields: { day: 'string', part: 'int' },
      children: [`leaf-${i}`],
    });
    processes.push({
      processType: `leaf-${i}`,
      inputType: `Leaf${i}Input`,
      fields: { day: 'string', part: 'int', rate: 'double' },
      children: [],
    });
  }
  return { processes, cronTriggers: [] };
}

async function measure(
  runs: number,
  once: (dest: string) => Promise<number>,
): Promise<{ median: number; min: number; max: number; files: number }> {
  const times: number[] = [];
  let files = 0;
  for (let i = 0; i <= runs; i++) {
    const dest = mkdtempSync(path.join(tmpdir(), 'fw-bench-gen-'));
    try {
      const started = process.hrtime.bigint();
      files = await once(path.join(dest, 'out'));
      const millis = Number(process.hrtime.bigint() - started) / 1e6;
      if (i > 0) times.push(millis); // the first run warms up module and template caches
    } finally {
      rmSync(dest, { recursive: true, force: true });
    }
  }
  return { median: median(times), min: Math.min(...times), max: Math.max(...times), files };
}

export const generatorBench: BenchRunner = {
  description:
    'fw-gen: generation time per built-in blueprint from its sample, and fw-process-management from a 200-process spec',
  async run(options: BenchOptions, io: BenchIo) {
    const runs = options.runs ?? 5;
    const catalog = makeBlueprintCatalog();
    const generator = makeGenerator({ catalog, config: DEFAULT_CONFIG });
    const work = mkdtempSync(path.join(tmpdir(), 'fw-bench-gen-input-'));
    try {
      const cases: { label: string; blueprint: string; answers: Answers }[] = [];
      for (const blueprint of catalog.list()) {
        const file = path.join(work, `${blueprint.descriptor.name}.input.json`);
        writeSampleInput(blueprint, DEFAULT_CONFIG, file, true);
        cases.push({
          label: blueprint.descriptor.name,
          blueprint: blueprint.descriptor.name,
          answers: readInputFile(file).answers,
        });
      }
      writeFileSync(path.join(work, 'large-spec.json'), JSON.stringify(largeSpec(200)));
      cases.push({
        label: 'fw-process-management, 200 processes',
        blueprint: 'fw-process-management',
        answers: { processSpec: 'large-spec.json' },
      });
      for (const c of cases) {
        const r = await measure(
          runs,
          async (dest) =>
            (
              await generator.generate({
                blueprint: c.blueprint,
                answers: { ...c.answers, destFolder: dest },
                baseDir: work,
                cwd: work,
              })
            ).files.length,
        );
        io.out(
          `${c.label.padEnd(38)} ${String(r.files).padStart(4)} files  median ${r.median.toFixed(1)} ms  (min ${r.min.toFixed(1)}, max ${r.max.toFixed(1)}; ${runs} runs)`,
        );
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
