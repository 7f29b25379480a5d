// A strict TypeScript consumer of every package's public entry point, compiled against the
// installed tarballs with the compiler's defaults for library checking (skipLibCheck false):
// the published declarations must compile without the workspace's types around them.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { run } from './processes.mjs';

export function checkStrictConsumer(app, packages, tsc) {
  // Every code entry point: '.' and subpaths such as '@fw/core/http' (data files and package.json aside).
  const entries = packages.flatMap((p) =>
    Object.entries(p.manifest.exports ?? { '.': p.manifest.main })
      .filter(([, target]) => typeof target === 'object' || /\.js$/.test(String(target)))
      .map(([subpath]) => (subpath === '.' ? p.name : `${p.name}/${subpath.replace(/^\.\//, '')}`)),
  );
  const lines = entries.map((entry, i) => `import * as entry${i} from '${entry}';`);
  lines.push(`export const entryPoints = [${entries.map((_, i) => `entry${i}`).join(', ')}];`);
  writeFileSync(path.join(app, 'consumer.ts'), `${lines.join('\n')}\n`);
  writeFileSync(
    path.join(app, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'node16',
          moduleResolution: 'node16',
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          types: ['node'],
        },
        files: ['consumer.ts'],
      },
      null,
      2,
    ),
  );
  const result = run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app });
  assert.equal(
    result.status,
    0,
    `a strict consumer (skipLibCheck: false) does not compile against the tarballs:\n${result.stdout}${result.stderr}`,
  );
  console.log(
    `  a strict consumer importing ${entries.length} entry points of ${packages.length} packages compiles (skipLibCheck: false): ${entries.filter((e) => e.split('/').length > 2).join(', ')} besides the main ones`,
  );
}
