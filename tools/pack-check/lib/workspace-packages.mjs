// The workspace's publishable packages: every libs/*, apps/*, tools/* package.json that is not private.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** @returns {{ name: string, version: string, dir: string, manifest: Record<string, any> }[]} in folder order */
export function publishablePackages(root) {
  const found = [];
  for (const group of ['libs', 'apps', 'tools']) {
    const groupDir = path.join(root, group);
    for (const entry of readdirSync(groupDir).sort()) {
      const file = path.join(groupDir, entry, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      if (manifest.private === true) continue;
      found.push({ name: manifest.name, version: manifest.version, dir: path.dirname(file), manifest });
    }
  }
  return found;
}
