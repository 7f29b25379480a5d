/**
 * The last step: the staged tree becomes the destination. A rename when the destination does not
 * exist (or is empty) and is on the same file system, so the project appears at once; otherwise a
 * copy over it (another file system, or `--force` into an existing folder).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmdirSync } from 'node:fs';
import * as path from 'node:path';
import { GeneratorError, GeneratorErrorCodes } from '../errors';

function isCrossDevice(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'EXDEV';
}

/** @throws GeneratorError MOVE_FAILED */
export function moveIntoPlace(staged: string, destination: string): void {
  try {
    mkdirSync(path.dirname(destination), { recursive: true });
    const empty = existsSync(destination) && readdirSync(destination).length === 0;
    if (!existsSync(destination) || empty) {
      if (empty) rmdirSync(destination);
      try {
        renameSync(staged, destination);
        return;
      } catch (err) {
        if (!isCrossDevice(err)) throw err;
      }
    }
    cpSync(staged, destination, { recursive: true, force: true });
  } catch (err) {
    throw new GeneratorError(GeneratorErrorCodes.MOVE_FAILED, `cannot write ${destination}: ${(err as Error).message}`);
  }
}
