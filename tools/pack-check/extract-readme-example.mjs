// Turns the "## Example" section of a package README into a runnable folder:
// the ```ts block becomes example.mjs (ESM, top-level await; `exampleDir` is the folder itself)
// and every ```xml / ```json block is written to the path named in backticks just before it.
// usage: node extract-readme-example.mjs README.md OUT_DIR
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

const [readme, outDir] = process.argv.slice(2);
const text = readFileSync(readme, 'utf8');
const start = text.indexOf('## Example');
if (start < 0) throw new Error(`${readme} has no "## Example" section`);
const end = text.indexOf('\n## ', start + 1);
const section = text.slice(start, end < 0 ? undefined : end);

const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
  lang: m[1],
  code: m[2],
  index: m.index,
}));
const code = blocks.find((b) => b.lang === 'ts' || b.lang === 'js');
if (!code) throw new Error('the Example section has no ts block');

const lines = code.code.split('\n');
const lastImport = lines.reduce((last, line, i) => (/^import /.test(line) ? i : last), -1);
lines.splice(lastImport + 1, 0, 'const exampleDir = path.dirname(fileURLToPath(import.meta.url));');
lines.unshift("import * as path from 'node:path';", "import { fileURLToPath } from 'node:url';");
lines.push("console.log('ROWS ' + JSON.stringify(page.list.map((r) => r.row)) + ' MAXROWS ' + page.maxRows);");
mkdirSync(outDir, { recursive: true });
writeFileSync(path.join(outDir, 'example.mjs'), lines.join('\n'));

for (const block of blocks.filter((b) => b.lang === 'xml' || b.lang === 'json')) {
  const before = section.slice(0, block.index);
  const named = [...before.matchAll(/`([\w./-]+\.(?:xml|json))`/g)].pop();
  if (!named) throw new Error(`no file name before the ${block.lang} block`);
  const file = path.join(outDir, named[1]);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, block.code);
  console.log(`wrote ${named[1]}`);
}
console.log('wrote example.mjs');
