/**
 * Renders a blueprint's template tree into a (staging) folder: text files through Mustache with
 * HTML escaping off (this is source code, not HTML), binary files copied byte for byte, paths renamed
 * by the rules of ./paths. Entries are visited in sorted order and nothing depends on the clock, so
 * the same view always gives the same bytes.
 */
import Mustache from 'mustache';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { GeneratorError, GeneratorErrorCodes } from '../errors';
import { folderRule, renderSegment, type View } from './paths';

const BINARY_EXTENSIONS = new Set([
  '.png',
  '.jpg',
  '.jpeg',
  '.gif',
  '.ico',
  '.webp',
  '.woff',
  '.woff2',
  '.ttf',
  '.eot',
  '.zip',
  '.tgz',
  '.gz',
  '.jar',
  '.pdf',
  '.wasm',
  '.bin',
]);

export interface RenderOptions {
  /** The blueprint folder (template tree plus META-INF, which is never rendered). */
  sourceDir: string;
  targetDir: string;
  view: View;
  /** Path prefixes or `*.ext` suffixes (relative to sourceDir, `/`-separated) copied without rendering. */
  verbatim?: readonly string[];
}

export interface RenderResult {
  /** Written files relative to targetDir, `/`-separated, sorted. */
  files: string[];
}

/** NUL bytes in the first 8 KB, or a known binary extension: copy, do not render. */
export function isBinary(file: string, bytes: Buffer): boolean {
  if (BINARY_EXTENSIONS.has(path.extname(file).toLowerCase())) return true;
  return bytes.subarray(0, 8192).includes(0);
}

function isVerbatim(relative: string, patterns: readonly string[]): boolean {
  return patterns.some((p) =>
    p.startsWith('*.')
      ? relative.endsWith(p.slice(1))
      : relative === p || relative.startsWith(p.endsWith('/') ? p : `${p}/`),
  );
}

function renderText(source: string, relative: string, view: View): string {
  try {
    return Mustache.render(source, view, {}, { escape: (value: unknown) => String(value) });
  } catch (err) {
    throw new GeneratorError(
      GeneratorErrorCodes.RENDER_FAILED,
      `template ${relative} cannot be rendered: ${(err as Error).message}`,
    );
  }
}

interface Walk {
  options: RenderOptions;
  written: Map<string, string>;
}

function writeFile(walk: Walk, sourceFile: string, sourceRel: string, targetRel: string, view: View): void {
  const previous = walk.written.get(targetRel);
  if (previous !== undefined) {
    throw new GeneratorError(
      GeneratorErrorCodes.RENDER_FAILED,
      `templates ${previous} and ${sourceRel} both render to ${targetRel}`,
    );
  }
  walk.written.set(targetRel, sourceRel);
  const bytes = readFileSync(sourceFile);
  const target = path.join(walk.options.targetDir, targetRel);
  mkdirSync(path.dirname(target), { recursive: true });
  const copy = isBinary(sourceFile, bytes) || isVerbatim(sourceRel, walk.options.verbatim ?? []);
  writeFileSync(target, copy ? bytes : renderText(bytes.toString('utf8'), sourceRel, view));
  // Keep executables executable (bin scripts, hooks); nothing else of the source's mode matters.
  if ((statSync(sourceFile).mode & 0o111) !== 0) chmodSync(target, 0o755);
}

function walkDir(walk: Walk, sourceDir: string, sourceRel: string, targetRel: string, view: View): void {
  for (const entry of readdirSync(sourceDir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  )) {
    const rel = sourceRel ? `${sourceRel}/${entry.name}` : entry.name;
    if (rel === 'META-INF') continue;
    const full = path.join(sourceDir, entry.name);
    if (entry.isFile()) {
      const name = renderSegment(entry.name, view);
      writeFile(walk, full, rel, targetRel ? `${targetRel}/${name}` : name, view);
      continue;
    }
    if (!entry.isDirectory()) continue; // symlinks and sockets are not template content
    const rule = folderRule(entry.name, view);
    if (rule.kind === 'plain') walkDir(walk, full, rel, targetRel ? `${targetRel}/${rule.name}` : rule.name, view);
    else if (rule.kind === 'conditional' && rule.keep) walkDir(walk, full, rel, targetRel, view);
    else if (rule.kind === 'repeat')
      for (const item of rule.items) walkDir(walk, full, rel, targetRel, { ...view, ...item });
  }
}

/** @throws GeneratorError RENDER_FAILED naming the template. */
export function renderTree(options: RenderOptions): RenderResult {
  const walk: Walk = { options, written: new Map() };
  mkdirSync(options.targetDir, { recursive: true });
  walkDir(walk, options.sourceDir, '', '', options.view);
  return { files: [...walk.written.keys()].sort() };
}

/** Every file under `dir`, relative and `/`-separated, sorted (what a staged tree holds after its hook). */
export function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(path.join(dir, entry.name), rel));
    else out.push(rel);
  }
  return out.sort();
}

/** An indented tree of `files` for `--dry-run`. */
export function formatTree(files: readonly string[]): string {
  const lines: string[] = [];
  const shown = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    parts.forEach((part, depth) => {
      const key = parts.slice(0, depth + 1).join('/');
      if (shown.has(key)) return;
      shown.add(key);
      lines.push(`${'  '.repeat(depth)}${part}${depth < parts.length - 1 ? '/' : ''}`);
    });
  }
  return lines.join('\n');
}
