/** A workspace folder as a zip (yazl streams it: nothing is built in memory or on disk first). */
import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { Writable } from 'node:stream';
import yazl from 'yazl';

/** Files a download leaves out: installed packages and build output can be recreated. */
const SKIPPED = new Set(['node_modules', 'dist']);

function addFolder(zip: yazl.ZipFile, dir: string, prefix: string): void {
  for (const entry of readdirSync(dir).sort()) {
    if (SKIPPED.has(entry)) continue;
    const full = path.join(dir, entry);
    const name = prefix ? `${prefix}/${entry}` : entry;
    const stat = statSync(full);
    if (stat.isDirectory()) addFolder(zip, full, name);
    else if (stat.isFile()) zip.addFile(full, name, { mode: stat.mode });
  }
}

export function streamZip(dir: string, rootName: string, out: Writable): void {
  const zip = new yazl.ZipFile();
  addFolder(zip, dir, rootName);
  zip.outputStream.pipe(out);
  zip.end();
}
