/**
 * A generated tree held in memory: relative `/`-separated path → bytes and whether the file is
 * executable. `fw-gen update` compares three of them (the pristine render recorded at generation,
 * the user's project, the new render), so they share one shape and one reader.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { isBinary } from '../render/render-tree';

export interface TreeFile {
  bytes: Buffer;
  executable: boolean;
}

export type Tree = Map<string, TreeFile>;

/** The record of a generation; never merged, always rewritten by the generator (see record.ts). */
export const GENERATOR_OWNED = new Set(['.fw-gen.json']);

/** Reads `files` (relative to `dir`) into a tree; a file that does not exist is left out. */
export function readTree(dir: string, files: readonly string[]): Tree {
  const tree: Tree = new Map();
  for (const rel of files) {
    const full = path.join(dir, ...rel.split('/'));
    if (!existsSync(full) || !statSync(full).isFile()) continue;
    tree.set(rel, { bytes: readFileSync(full), executable: (statSync(full).mode & 0o111) !== 0 });
  }
  return tree;
}

/** Text that survives a round trip through a JSON string: no NUL byte, no binary extension, valid UTF-8. */
export function isText(rel: string, bytes: Buffer): boolean {
  return !isBinary(rel, bytes) && Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);
}

export function sameFile(a: TreeFile | undefined, b: TreeFile | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.bytes.equals(b.bytes);
}
