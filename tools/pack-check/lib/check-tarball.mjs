// What a tarball may ship: built JavaScript and declarations, the README, package.json and the
// data files a package names in `files` (flows, demo, migrations). Never sources, tests or fixtures.
import { execFileSync } from 'node:child_process';

const FORBIDDEN = [
  [/(^|\/)src\//, 'a source folder'],
  [/(^|\/)test\//, 'a test folder'],
  [/(^|\/)fixtures?\//, 'test fixtures'],
  [/\.test\.(js|ts|mjs|cjs)$/, 'a test file'],
  [/(?<!\.d)\.ts$/, 'TypeScript source'],
  [/(^|\/)tsconfig[^/]*\.json$/, 'a tsconfig'],
  [/(^|\/)jest\.config\.js$/, 'a jest config'],
  [/\.tsbuildinfo$/, 'build info'],
];

/** `npm pack --dry-run` of one workspace package: { size, unpackedSize, entryCount, files }. */
export function packListing(root, name) {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--silent', '-w', name], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [listing] = JSON.parse(out);
  return listing;
}

/** @returns {string[]} problems: forbidden files, a missing entry point or declarations. */
export function checkTarball(pkg, listing) {
  const problems = [];
  const paths = listing.files.map((f) => f.path);
  for (const file of paths) {
    // The generator's blueprints are template trees of the projects it generates: their sources,
    // tests and tsconfigs are data it renders, not the package's own sources.
    if (pkg.name === '@fw/generator' && file.startsWith('blueprints/')) continue;
    const hit = FORBIDDEN.find(([pattern]) => pattern.test(file));
    if (hit) problems.push(`${pkg.name}: the tarball ships ${hit[1]}: ${file}`);
  }
  const strip = (p) => p.replace(/^\.\//, '');
  for (const required of [pkg.manifest.main, pkg.manifest.types, ...Object.values(pkg.manifest.bin ?? {}), 'README.md']
    .filter(Boolean)
    .map(strip)) {
    if (!paths.includes(required)) problems.push(`${pkg.name}: the tarball lacks ${required}`);
  }
  return problems;
}
