/**
 * The generation record `.fw-gen.json` as `fw-gen update` reads and writes it. Besides generator,
 * blueprint, version, configuration, answers and documents it holds `base`: the pristine render of
 * the generation (after the init hook), file by file. That is the merge base of the next update —
 * an installed @fw/generator ships only the current blueprint, so the old version's output cannot
 * be rendered again; it is kept instead. One record file rather than a snapshot folder, so the
 * project's tree holds no second copy of its sources for compilers, linters and searches to find.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseConfig } from '../config/generator-config';
import { GeneratorError, GeneratorErrorCodes } from '../errors';
import { RECORD_FILE, type GenerationRecord } from '../processors/context';
import { listFiles } from '../render/render-tree';
import { GENERATOR_OWNED, isText, readTree, type Tree } from './tree';

/** A text file is a JSON string; anything else (binary, executable) an object. */
export type BaseEntry = string | { text?: string; base64?: string; executable?: boolean };

export interface UpdatableRecord extends GenerationRecord {
  /** The pristine render, without `.fw-gen.json` itself. Absent in projects generated before it existed. */
  base?: Record<string, BaseEntry>;
}

export function encodeBase(tree: Tree): Record<string, BaseEntry> {
  const out: Record<string, BaseEntry> = {};
  for (const rel of [...tree.keys()].sort()) {
    const file = tree.get(rel)!;
    const text = isText(rel, file.bytes);
    if (text && !file.executable) out[rel] = file.bytes.toString('utf8');
    else
      out[rel] = {
        ...(text ? { text: file.bytes.toString('utf8') } : { base64: file.bytes.toString('base64') }),
        ...(file.executable ? { executable: true } : {}),
      };
  }
  return out;
}

export function decodeBase(base: Record<string, BaseEntry>): Tree {
  const tree: Tree = new Map();
  for (const [rel, entry] of Object.entries(base)) {
    if (typeof entry === 'string') tree.set(rel, { bytes: Buffer.from(entry, 'utf8'), executable: false });
    else
      tree.set(rel, {
        bytes: entry.base64 !== undefined ? Buffer.from(entry.base64, 'base64') : Buffer.from(entry.text ?? '', 'utf8'),
        executable: entry.executable === true,
      });
  }
  return tree;
}

/** The record's text: the generation fields first (what a reader looks for), `base` last. */
export function formatRecord(record: UpdatableRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

/**
 * Called on a staged tree just before it is moved into place: adds the staged files as `base` to
 * the staged record, so every generated project can be updated later.
 */
export function addBaseToStagedRecord(stagedDir: string): void {
  const file = path.join(stagedDir, RECORD_FILE);
  const record = JSON.parse(readFileSync(file, 'utf8')) as UpdatableRecord;
  const files = listFiles(stagedDir).filter((f) => !GENERATOR_OWNED.has(f));
  writeFileSync(file, formatRecord({ ...record, base: encodeBase(readTree(stagedDir, files)) }));
}

function invalid(file: string, problems: string[]): GeneratorError {
  return new GeneratorError(
    GeneratorErrorCodes.UPDATE_REFUSED,
    `${file} is not a generation record fw-gen can update from`,
    problems,
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads and checks `<projectDir>/.fw-gen.json`. @throws GeneratorError UPDATE_REFUSED naming each problem. */
export function readRecord(projectDir: string): UpdatableRecord {
  const file = path.join(projectDir, RECORD_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    throw new GeneratorError(
      GeneratorErrorCodes.UPDATE_REFUSED,
      missing
        ? `${projectDir} holds no ${RECORD_FILE}: it is not a project fw-gen generated (run fw-gen update in the project's folder, or name it: fw-gen update <folder>)`
        : `${file}: not readable JSON (${(err as Error).message})`,
    );
  }
  if (!isObject(raw)) throw invalid(file, ['(top level): must be an object']);
  const problems: string[] = [];
  for (const key of ['blueprint', 'blueprintVersion'] as const)
    if (typeof raw[key] !== 'string') problems.push(`${key}: must be a string`);
  for (const key of ['config', 'answers', 'documents'] as const)
    if (!isObject(raw[key])) problems.push(`${key}: must be an object`);
  if (raw.base !== undefined && !isObject(raw.base)) problems.push('base: must be an object');
  if (problems.length > 0) throw invalid(file, problems);
  const record = raw as unknown as UpdatableRecord;
  return { ...record, config: parseConfig(record.config, `${file} (config)`, projectDir) };
}
