/**
 * Finds the mapper XML files the check command is pointed at: a folder (every `*.xml` under it,
 * recursively), a file, or a glob pattern such as `mappers/**\/*.xml` (quoted, so the shell does
 * not expand it) resolved with tinyglobby.
 */
import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { glob } from 'tinyglobby';
import { FwError } from '@fw/core';
import { MapperErrorCodes } from '../errors/mapper-error-codes';

/** A command-line argument that names no mapper file. */
export class MapperFilesError extends FwError {
  constructor(message: string) {
    super({ code: 500, subErrorCode: MapperErrorCodes.files, description: message, expose: false });
    this.name = 'MapperFilesError';
  }
}

const GLOB_CHARACTERS = /[*?[\]{}]/;

async function xmlFilesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    // Hidden folders and node_modules hold no mapper a team means to check, and can be huge.
    if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules')
      files.push(...(await xmlFilesUnder(full)));
    else if (entry.isFile() && entry.name.toLowerCase().endsWith('.xml')) files.push(full);
  }
  return files;
}

async function filesOf(target: string, cwd: string): Promise<string[]> {
  const absolute = path.resolve(cwd, target);
  const info = await stat(absolute).catch(() => undefined);
  if (info?.isDirectory()) return xmlFilesUnder(absolute);
  if (info?.isFile()) return [absolute];
  if (GLOB_CHARACTERS.test(target))
    return glob(target, { cwd, absolute: true, onlyFiles: true, expandDirectories: false });
  throw new MapperFilesError(`${target}: no such file or folder`);
}

/**
 * The absolute paths of the mapper files `targets` name, sorted, without duplicates.
 *
 * @throws MapperFilesError when a target names nothing, or no target holds an XML file.
 * @example
 * await findMapperFiles(['src/main/resources/mappers'], process.cwd());
 */
export async function findMapperFiles(targets: readonly string[], cwd: string): Promise<string[]> {
  const files = new Set<string>();
  for (const target of targets) {
    const found = await filesOf(target, cwd);
    if (found.length === 0) throw new MapperFilesError(`${target}: matches no mapper XML file`);
    for (const file of found) files.add(file);
  }
  return [...files].sort();
}
