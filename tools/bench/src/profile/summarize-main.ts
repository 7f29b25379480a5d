/**
 * Prints the self time of a V8 CPU profile by area and by function:
 * `npx tsx tools/bench/src/profile/summarize-main.ts <file.cpuprofile | dir> [top]` (a folder: its
 * newest main-thread profile). For example, a profile of the fan-out bench:
 *
 *   node --cpu-prof --cpu-prof-dir=.bench-profiles --import tsx tools/bench/src/main.ts fanout --leaves 30000
 *   npx tsx tools/bench/src/profile/summarize-main.ts .bench-profiles 25
 */
import { statSync } from 'node:fs';
import { newestProfile, summarizeProfile } from './cpu-profile-summary';

const [target, topArg] = process.argv.slice(2);
if (target === undefined) {
  console.error('usage: summarize-main.ts <file.cpuprofile | dir> [top]');
  process.exit(2);
}
const file = statSync(target).isDirectory() ? newestProfile(target) : target;
if (file === undefined) {
  console.error(`no main-thread .cpuprofile in ${target}`);
  process.exit(1);
}
const summary = summarizeProfile(file, Number(topArg ?? 20));
const pct = (share: number) => `${(share * 100).toFixed(1).padStart(5)} %`;
console.log(`${file}: ${(summary.totalMs / 1000).toFixed(1)} s sampled`);
console.log('by area:');
for (const a of summary.areas) console.log(`  ${pct(a.share)}  ${a.ms.toFixed(0).padStart(7)} ms  ${a.name}`);
console.log('by function (self time):');
for (const f of summary.functions) console.log(`  ${pct(f.share)}  ${f.ms.toFixed(0).padStart(7)} ms  ${f.name}`);
