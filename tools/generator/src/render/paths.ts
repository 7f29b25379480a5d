/**
 * Template paths: placeholders, conditional folders and repeated folders.
 *
 * - `__key__` → the value of input `key`; `__Key__` → its PascalCase; `__key_kebab__` → its kebab-case
 *   (`__service__`, `__Service__`, `__service_kebab__`, generalised to every string input).
 *   A placeholder naming nothing stays as written (`__init__.py` is a real file name).
 * - `%%key=value%%` as a whole folder name: the folder's content is kept (moved up one level) when
 *   input `key` equals `value`, else the folder is dropped.
 * - `@@list@@` as a whole folder name: the content is written once per item of the list `list` of the
 *   view, with the item's fields added to the view (one file per process, say), moved up one level.
 * - `_gitignore` / `_npmrc` → `.gitignore` / `.npmrc`: npm leaves those out of package tarballs, so a
 *   blueprint shipped on npm cannot carry them under their real names.
 */
import { kebabCase, pascalCase } from './names';

export type View = Record<string, unknown>;

const PLACEHOLDER = /__([A-Za-z][A-Za-z0-9]*?)(_kebab)?__/g;
const CONDITIONAL = /^%%([A-Za-z][A-Za-z0-9_]*)(!?=)(.*)%%$/;
const REPEAT = /^@@([A-Za-z][A-Za-z0-9_]*)@@$/;
const DOT_FILES: Record<string, string> = { _gitignore: '.gitignore', _npmrc: '.npmrc' };

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : undefined;
}

/** Replaces the placeholders of one path segment. */
export function renderSegment(segment: string, view: View): string {
  const renamed = DOT_FILES[segment] ?? segment;
  return renamed.replace(PLACEHOLDER, (whole, name: string, kebab: string | undefined) => {
    const exact = stringOf(view[name]);
    if (exact !== undefined) return kebab ? kebabCase(exact) : exact;
    const lower = name.charAt(0).toLowerCase() + name.slice(1);
    const value = lower !== name ? stringOf(view[lower]) : undefined;
    if (value !== undefined) return kebab ? kebabCase(value) : pascalCase(value);
    return whole;
  });
}

export type SegmentRule =
  | { kind: 'plain'; name: string }
  | { kind: 'conditional'; keep: boolean }
  | { kind: 'repeat'; items: View[]; list: string };

/** What a folder name means: a plain (renamed) folder, a condition, or a repetition. */
export function folderRule(segment: string, view: View): SegmentRule {
  const cond = CONDITIONAL.exec(segment);
  if (cond) {
    const actual = stringOf(view[cond[1]]) ?? '';
    const equal = actual === cond[3];
    return { kind: 'conditional', keep: cond[2] === '=' ? equal : !equal };
  }
  const repeat = REPEAT.exec(segment);
  if (repeat) {
    const value = view[repeat[1]];
    const items = Array.isArray(value)
      ? value.filter((v): v is View => typeof v === 'object' && v !== null && !Array.isArray(v))
      : [];
    return { kind: 'repeat', items, list: repeat[1] };
  }
  return { kind: 'plain', name: renderSegment(segment, view) };
}
