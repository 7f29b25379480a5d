/**
 * Renders a project again from its record with the blueprint installed now: the generator's own
 * chain (load, version gate, input validation, staging, init hook) followed by a step that reads
 * the staged tree into memory instead of moving it anywhere. Nothing is written to the project.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Answers } from '../blueprint/answers';
import type { BlueprintCatalog } from '../blueprint/catalog';
import type { GeneratorConfig } from '../config/generator-config';
import { RECORD_FILE, type Processor } from '../processors/context';
import { makeGenerator } from '../processors/generator';
import { initHookStep, inputValidationStep, loadStep, stagingStep, versionGateStep } from '../processors/steps';
import { listFiles } from '../render/render-tree';
import { encodeBase, type UpdatableRecord } from './record';
import { GENERATOR_OWNED, readTree, type Tree } from './tree';

export interface Rendered {
  /** The new render without `.fw-gen.json`. */
  tree: Tree;
  /** The record the new render comes with, its `base` being `tree`. */
  record: UpdatableRecord;
  /** Recorded answers the blueprint no longer asks for (left out of the new record). */
  dropped: string[];
}

export interface RenderOptions {
  catalog: BlueprintCatalog;
  config: GeneratorConfig;
  projectDir: string;
  progress?: (line: string) => void;
}

/**
 * File answers are paths relative to the input file of the first generation, which need not exist
 * any more; the record keeps the parsed documents. They are written under a temporary folder at
 * the recorded relative paths, so the answers (and the views that show them) stay as they were.
 * A recorded absolute path is replaced by the document itself.
 */
function placeDocuments(
  record: UpdatableRecord,
  fileFields: ReadonlySet<string>,
  root: string,
): { answers: Answers; baseDir: string; inline: Map<string, string> } {
  const answers: Answers = { ...record.answers };
  const inline = new Map<string, string>();
  const relative = [...fileFields].filter((f) => typeof answers[f] === 'string' && f in record.documents);
  const depth = Math.max(
    0,
    ...relative.map(
      (f) =>
        path
          .normalize(String(answers[f]))
          .split(path.sep)
          .filter((s) => s === '..').length,
    ),
  );
  const baseDir = path.join(root, ...Array.from({ length: depth + 1 }, () => 'docs'));
  mkdirSync(baseDir, { recursive: true });
  for (const field of relative) {
    const answer = String(answers[field]);
    const document = record.documents[field];
    if (path.isAbsolute(answer)) {
      inline.set(field, answer);
      answers[field] = document as Answers[string];
      continue;
    }
    const target = path.resolve(baseDir, answer);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, typeof document === 'string' ? document : `${JSON.stringify(document, null, 2)}\n`);
  }
  return { answers, baseDir, inline };
}

export async function renderFromRecord(record: UpdatableRecord, options: RenderOptions): Promise<Rendered> {
  const descriptor = options.catalog.get(record.blueprint).descriptor;
  const known = new Set(descriptor.inputFields.map((f) => f.name));
  const dropped = Object.keys(record.answers).filter((k) => !known.has(k));
  const kept: UpdatableRecord = {
    ...record,
    answers: Object.fromEntries(Object.entries(record.answers).filter(([k]) => known.has(k))),
  };
  const fileFields = new Set(descriptor.inputFields.filter((f) => f.type === 'file').map((f) => f.name));
  const root = mkdtempSync(path.join(tmpdir(), 'fw-gen-update-docs-'));
  try {
    const { answers, baseDir, inline } = placeDocuments(kept, fileFields, root);
    let captured: Omit<Rendered, 'dropped'> | undefined;
    const capture: Processor = {
      name: 'read the new render',
      async run(ctx) {
        const staged = ctx.stagingDir!;
        const files = listFiles(staged).filter((f) => !GENERATOR_OWNED.has(f));
        const tree = readTree(staged, files);
        const stagedRecord = JSON.parse(readFileSync(path.join(staged, RECORD_FILE), 'utf8')) as UpdatableRecord;
        for (const [field, answer] of inline) stagedRecord.answers[field] = answer;
        captured = { tree, record: { ...stagedRecord, base: encodeBase(tree) } };
        return `${files.length} files`;
      },
    };
    const generator = makeGenerator({
      catalog: options.catalog,
      config: options.config,
      progress: options.progress,
      processors: [loadStep, versionGateStep, inputValidationStep, stagingStep, initHookStep, capture],
    });
    await generator.generate({
      blueprint: record.blueprint,
      answers,
      baseDir,
      cwd: options.projectDir,
      destination: options.projectDir,
      force: true,
    });
    if (!captured) throw new Error('internal: the new render was not captured');
    return { ...captured, dropped };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
