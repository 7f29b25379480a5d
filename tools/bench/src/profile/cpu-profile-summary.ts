import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  /** Self time per function, largest first. */
  functions: Array<{ name: string; ms: number; share: number }>;
  /** Self time per area: a package under node_modules, a workspace package, node internals, GC/idle. */
  areas: Array<{ name: string; ms: number; share: number }>;
}

function areaOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1];
  const ws = /\/(libs|apps|tools)\/([^/]+)\//.exec(url);
  if (ws) return `@fw/${ws[2]}`;
  if (url.startsWith('node:')) return 'node internals';
  return 'other';
}

/**
 * The main-thread `.cpuprofile` written last to `dir` (`CPU.<date>.<time>.<pid>.<thread>.<seq>`;
 * thread 0 is the main thread — tsx's loader worker writes a profile of its own).
 */
export function newestProfile(dir: string): string | undefined {
  const files = readdirSync(dir)
    .filter((f) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f))
    .map((f) => path.join(dir, f));
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

/** Sums the self time of a V8 CPU profile by function and by area. */
export function summarizeProfile(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const functions = new Map<string, number>();
  const areas = new Map<string, number>();
  let total = 0;
  for (const [id, micros] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const short = url.replace(/^file:\/\//, '').replace(/^.*\/(node_modules|libs|apps|tools)\//, '$1/');
    const name = `${functionName || '(anonymous)'} ${short ? `${short}:${lineNumber + 1}` : ''}`.trim();
    functions.set(name, (functions.get(name) ?? 0) + micros);
    const area = areaOf(url, functionName);
    areas.set(area, (areas.get(area) ?? 0) + micros);
    total += micros;
  }
  const rank = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, micros]) => ({ name, ms: micros / 1000, share: total === 0 ? 0 : micros / total }));
  return { file, totalMs: total / 1000, functions: rank(functions, top), areas: rank(areas, top) };
}
