/**
 * What `fw-gen update` needs from git, behind two small ports so a library (node-diff3, isomorphic-git)
 * could replace the git binary: the state of the work tree around the project, and a three-way
 * merge of one file with `git merge-file` semantics. Git is run with a fixed configuration of its
 * own (`-c`), so a user's `merge.conflictStyle` cannot change what the markers look like.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { GeneratorError, GeneratorErrorCodes } from '../errors';

export type WorkTreeState =
  { kind: 'outside-git' } | { kind: 'not-tracked' } | { kind: 'clean' } | { kind: 'dirty'; entries: string[] };

export interface WorkTreePort {
  /** Whether `dir` is in a git work tree and, if so, whether anything under it is uncommitted. */
  state(dir: string): WorkTreeState;
}

export interface MergeLabels {
  ours: string;
  base: string;
  theirs: string;
}

export interface MergeResult {
  text: Buffer;
  conflicts: number;
}

export interface MergePort {
  /** base = the old render, ours = the user's file, theirs = the new render (text files only). */
  merge(base: Buffer, ours: Buffer, theirs: Buffer, labels: MergeLabels): MergeResult;
}

function git(
  args: readonly string[],
  cwd: string,
): { status: number | null; stdout: Buffer; stderr: string; missing: boolean } {
  const run = spawnSync('git', ['-c', 'merge.conflictStyle=merge', '-c', 'core.quotePath=false', ...args], {
    cwd,
    maxBuffer: 256 * 1024 * 1024,
  });
  const missing = (run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
  return { status: run.status, stdout: run.stdout ?? Buffer.alloc(0), stderr: run.stderr?.toString() ?? '', missing };
}

function gitMissing(): GeneratorError {
  return new GeneratorError(
    GeneratorErrorCodes.UPDATE_REFUSED,
    'fw-gen update needs git (it merges with git merge-file): install git and put it on the PATH',
  );
}

export const gitWorkTree: WorkTreePort = {
  state(dir) {
    const inside = git(['rev-parse', '--is-inside-work-tree'], dir);
    if (inside.missing) throw gitMissing();
    if (inside.status !== 0 || inside.stdout.toString().trim() !== 'true') return { kind: 'outside-git' };
    // Untracked files count: an update may add a file at the same path, and an untracked file has
    // no committed version to go back to. Only the project's folder is looked at (`-- .`), so a
    // project inside a larger repository is not blocked by unrelated work elsewhere.
    const status = git(['status', '--porcelain=v1', '--untracked-files=all', '--', '.'], dir);
    if (status.status !== 0)
      throw new GeneratorError(
        GeneratorErrorCodes.UPDATE_REFUSED,
        `git status failed in ${dir}: ${status.stderr.trim()}`,
      );
    const entries = status.stdout
      .toString()
      .split('\n')
      .filter((l) => l.trim() !== '');
    if (entries.length > 0) return { kind: 'dirty', entries };
    // A git-ignored project shows no changes either, yet git holds nothing to go back to.
    const tracked = git(['ls-files', '--', '.fw-gen.json'], dir);
    return tracked.stdout.toString().trim() === '' ? { kind: 'not-tracked' } : { kind: 'clean' };
  },
};

export const gitMergeFile: MergePort = {
  merge(base, ours, theirs, labels) {
    const dir = mkdtempSync(path.join(tmpdir(), 'fw-gen-merge-'));
    try {
      const files = { ours: path.join(dir, 'ours'), base: path.join(dir, 'base'), theirs: path.join(dir, 'theirs') };
      writeFileSync(files.ours, ours);
      writeFileSync(files.base, base);
      writeFileSync(files.theirs, theirs);
      const run = git(
        [
          'merge-file',
          '-p',
          '-L',
          labels.ours,
          '-L',
          labels.base,
          '-L',
          labels.theirs,
          files.ours,
          files.base,
          files.theirs,
        ],
        dir,
      );
      if (run.missing) throw gitMissing();
      // The exit status is the number of conflicts (0..127); a failure is negative, seen as 255.
      if (run.status === null || run.status > 127)
        throw new GeneratorError(
          GeneratorErrorCodes.UPDATE_REFUSED,
          `git merge-file failed for ${labels.ours}: ${run.stderr.trim()}`,
        );
      return { text: run.stdout, conflicts: run.status };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
