/** Runs a command in a folder, handing every output line to `log`; rejects on a non-zero exit. */
import { spawn } from 'node:child_process';
import { GeneratorError, GeneratorErrorCodes } from '../errors';

export type CommandRunner = (
  command: string,
  args: string[],
  cwd: string,
  log: (line: string) => void,
) => Promise<void>;

export const runCommand: CommandRunner = (command, args, cwd, log) =>
  new Promise((resolve, reject) => {
    log(`$ ${command} ${args.join(' ')}`);
    const child = spawn(command, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    let pending = '';
    const onData = (d: Buffer): void => {
      pending += d.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      lines.forEach(log);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (err) =>
      reject(new GeneratorError(GeneratorErrorCodes.HOOK_FAILED, `${command} could not start: ${err.message}`)),
    );
    child.on('close', (code) => {
      if (pending) log(pending);
      if (code === 0) resolve();
      else reject(new GeneratorError(GeneratorErrorCodes.HOOK_FAILED, `${command} ${args.join(' ')} exited ${code}`));
    });
  });
