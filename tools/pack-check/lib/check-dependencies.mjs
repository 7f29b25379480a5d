// Every publishable package declares exactly the packages its shipped code imports: an import of a
// package that is not in dependencies/peerDependencies fails (it would break once installed
// alone), and so does a declared dependency that nothing imports (it bloats every install).
// Test files and test-only helpers are not shipped and are not scanned.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';

const BUILTINS = new Set(builtinModules);
// import … from 'x' | export … from 'x' | import 'x' | import('x') | require('x')
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"\n]+)['"]/g;

function sourceFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (
      /\.(ts|tsx|mts|cts)$/.test(entry.name) &&
      !/\.test\.tsx?$/.test(entry.name) &&
      !entry.name.endsWith('.d.ts')
    )
      out.push(full);
  }
  return out;
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or undefined for relative and builtin ones. */
export function packageOf(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return BUILTINS.has(name) ? undefined : name;
}

/** Imported package names of one package's shipped sources (src/, test files excluded), with a file that imports each. */
export function importedPackages(pkgDir) {
  const imported = new Map();
  for (const file of sourceFiles(path.join(pkgDir, 'src'))) {
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
    for (const match of text.matchAll(SPECIFIER)) {
      const name = packageOf(match[1]);
      if (name && !imported.has(name)) imported.set(name, path.relative(pkgDir, file));
    }
  }
  return imported;
}

/**
 * A declared dependency nothing imports is still used when it fills an optional peer of one of
 * the package's own @fw dependencies (the admin server installs PGlite for @fw/core's `pglite:`
 * URLs).
 * @returns {string[]} problems, one line each
 */
export function checkDependencies(pkg, workspace = []) {
  const { manifest, dir } = pkg;
  const peersFilled = new Set();
  for (const dep of Object.keys(manifest.dependencies ?? {})) {
    const sibling = workspace.find((p) => p.name === dep);
    for (const [peer, meta] of Object.entries(sibling?.manifest.peerDependenciesMeta ?? {}))
      if (meta.optional) peersFilled.add(peer);
  }
  const declared = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  const imported = importedPackages(dir);
  const problems = [];
  for (const [name, file] of imported) {
    if (!declared.has(name) && !declared.has(`@types/${name}`))
      problems.push(
        `${manifest.name}: ${file} imports '${name}', which package.json does not declare in dependencies or peerDependencies`,
      );
  }
  for (const name of declared) {
    const typesOf = name.startsWith('@types/')
      ? name.slice('@types/'.length).replace(/^(.+)__(.+)$/, '@$1/$2')
      : undefined;
    if (!imported.has(name) && !(typesOf && imported.has(typesOf)) && !peersFilled.has(name))
      problems.push(`${manifest.name}: package.json declares '${name}', which no shipped source imports`);
  }
  return problems;
}
