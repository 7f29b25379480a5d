/**
 * Paths inside a session's workspace. Every path a client names is resolved against the workspace
 * folder and refused when it leaves it (`..`, an absolute path, a symlink pointing out), so one
 * session can never read or write another's files or anything else on the machine.
 */
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { GeneratorError, GeneratorErrorCodes } from '../errors';

function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root + path.sep);
}

/** @throws GeneratorError PATH_OUTSIDE (answered 400) when `relative` leaves `root`. */
export function resolveInside(root: string, relative: string): string {
  // eslint-disable-next-line no-control-regex
  if (relative.includes('\0') || /[\u0000-\u001f]/.test(relative))
    throw new GeneratorError(GeneratorErrorCodes.PATH_OUTSIDE, 'the path contains a control character');
  if (path.isAbsolute(relative))
    throw new GeneratorError(
      GeneratorErrorCodes.PATH_OUTSIDE,
      `${relative} is absolute: give a path inside the workspace`,
    );
  const full = path.resolve(root, relative);
  if (!isInside(root, full))
    throw new GeneratorError(GeneratorErrorCodes.PATH_OUTSIDE, `${relative} leaves the workspace`);
  let real: string;
  try {
    real = realpathSync(full);
  } catch {
    return full; // not there (yet): the lexical check is what counts
  }
  if (!isInside(realpathSync(root), real))
    throw new GeneratorError(GeneratorErrorCodes.PATH_OUTSIDE, `${relative} leads out of the workspace`);
  return full;
}

/** A file name for an upload: one safe segment, nothing else. */
export function safeUploadName(name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(name) || name.includes('..')) {
    throw new GeneratorError(
      GeneratorErrorCodes.PATH_OUTSIDE,
      `'${name}' is not a valid upload name (letters, digits, '.', '_', '-'; at most 100)`,
    );
  }
  return name;
}
