/**
 * Runs a blueprint's init hook: a JavaScript module shipped in the blueprint, started with this
 * node in the staging folder. A child process rather than an in-process call, so its time limit is
 * real (a hook stuck in a loop is killed) and its failures cannot disturb the generator. It reads
 * the generation from the JSON file named by `FW_GEN_CONTEXT`.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { GeneratorError, GeneratorErrorCodes } from '../errors';

export const DEFAULT_HOOK_TIMEOUT_MILLIS = 30_000;

export interface HookRun {
  module: string;
  cwd: string;
  /** Written to a file next to the staging folder (not in it: it is not part of the output). */
  context: unknown;
  contextFile: string;
  timeoutMillis: number;
}

function tail(text: string): string {
  const lines = text.trim().split('\n').filter(Boolean);
  return lines.slice(-5).join(' | ') || '(no output)';
}

/** @throws GeneratorError HOOK_FAILED (non-zero exit, could not start) or HOOK_TIMEOUT. */
export function runInitHook(run: HookRun): Promise<string> {
  writeFileSync(run.contextFile, JSON.stringify(run.context));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [run.module], {
      cwd: run.cwd,
      env: { ...process.env, FW_GEN_CONTEXT: run.contextFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, run.timeoutMillis);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(
        new GeneratorError(
          GeneratorErrorCodes.HOOK_FAILED,
          `init hook ${path.basename(run.module)} could not start: ${err.message}`,
        ),
      );
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut)
        reject(
          new GeneratorError(
            GeneratorErrorCodes.HOOK_TIMEOUT,
            `init hook ${path.basename(run.module)} ran longer than ${run.timeoutMillis} ms and was stopped; nothing was written`,
          ),
        );
      else if (code !== 0)
        reject(
          new GeneratorError(
            GeneratorErrorCodes.HOOK_FAILED,
            `init hook ${path.basename(run.module)} failed (exit ${code ?? signal}); nothing was written: ${tail(output)}`,
          ),
        );
      else resolve(tail(output));
    });
  });
}
