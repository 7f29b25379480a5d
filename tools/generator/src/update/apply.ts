/**
 * Carries out a plan as close to all-or-nothing as a file system allows: every new content is
 * first written to a staging folder inside the project (same file system, so the moves are
 * renames), then each target is moved aside and replaced. If anything fails, what was moved is put
 * back and the staging folder removed: the project is as it was, and the error says so.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { GeneratorError, GeneratorErrorCodes } from '../errors';
import type { Change } from './plan';

/** The staging folder's name prefix (a leftover one, after a killed update, may be removed). */
export const UPDATE_STAGING_PREFIX = '.fw-gen-update-';

interface Done {
  target: string;
  backup?: string;
  wrote: boolean;
}

function targetOf(projectDir: string, rel: string): string {
  const target = path.resolve(projectDir, ...rel.split('/'));
  if (!target.startsWith(projectDir + path.sep))
    throw new GeneratorError(GeneratorErrorCodes.PATH_OUTSIDE, `${rel} leaves the project folder ${projectDir}`);
  return target;
}

function rollback(done: readonly Done[]): void {
  for (const step of [...done].reverse()) {
    if (step.wrote) rmSync(step.target, { force: true });
    if (step.backup) renameSync(step.backup, step.target);
  }
}

/** Removes folders left empty by deletions, up to (not including) the project folder. */
function pruneEmptyParents(projectDir: string, target: string): void {
  for (let dir = path.dirname(target); dir.startsWith(projectDir + path.sep); dir = path.dirname(dir)) {
    if (!existsSync(dir) || readdirSync(dir).length > 0) return;
    rmdirSync(dir);
  }
}

function swapIn(projectDir: string, stage: string, changes: readonly Change[]): void {
  const done: Done[] = [];
  try {
    changes.forEach((change, i) => {
      const target = targetOf(projectDir, change.path);
      const step: Done = { target, wrote: false };
      if (existsSync(target)) {
        step.backup = path.join(stage, 'old', String(i));
        renameSync(target, step.backup);
      }
      done.push(step);
      if (change.file) {
        mkdirSync(path.dirname(target), { recursive: true });
        renameSync(path.join(stage, 'new', String(i)), target);
        step.wrote = true;
      }
    });
  } catch (err) {
    rollback(done);
    throw err;
  }
}

/** @throws GeneratorError MOVE_FAILED (the project unchanged) or PATH_OUTSIDE. */
export function applyChanges(projectDir: string, changes: readonly Change[]): void {
  if (changes.length === 0) return;
  const stage = mkdtempSync(path.join(projectDir, UPDATE_STAGING_PREFIX));
  try {
    mkdirSync(path.join(stage, 'new'));
    mkdirSync(path.join(stage, 'old'));
    changes.forEach((change, i) => {
      targetOf(projectDir, change.path);
      if (!change.file) return;
      const staged = path.join(stage, 'new', String(i));
      writeFileSync(staged, change.file.bytes);
      chmodSync(staged, change.file.executable ? 0o755 : 0o644);
    });
    swapIn(projectDir, stage, changes);
  } catch (err) {
    if (err instanceof GeneratorError) throw err;
    throw new GeneratorError(
      GeneratorErrorCodes.MOVE_FAILED,
      `cannot write the update into ${projectDir}: ${(err as Error).message}; nothing was changed`,
    );
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  for (const change of changes) if (!change.file) pruneEmptyParents(projectDir, targetOf(projectDir, change.path));
}
