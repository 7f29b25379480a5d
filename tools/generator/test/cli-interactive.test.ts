/**
 * Interactive mode driven through the real @inquirer/prompts, rendered by @inquirer/testing: each
 * prompt is shown, answered with keystrokes (Enter takes the default, arrows pick from a list,
 * typing replaces a default), and its screen is kept so the test can see what a user sees.
 */
import { confirm, input, select } from '@inquirer/prompts';
import { render } from '@inquirer/testing';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../src/cli/cli';
import type { PromptApi } from '../src/cli/cli-env';
import { FIXTURES, removeTempDirs, tempDir } from './support';

afterAll(removeTempDirs);

/** A key, typed text, a screen check, or `pick`: arrow down until that choice is the active one. */
type Action = string | { type: string } | { expectScreen: RegExp } | { pick: string };
interface Step {
  message: RegExp;
  actions: Action[];
}

type AnyPrompt = (config: never, context?: never) => Promise<unknown>;

/** The list grows with every blueprint added, so choices are picked by name, not by position. */
async function pick(choice: string, events: { keypress(key: string): void }, getScreen: () => string): Promise<void> {
  const active = new RegExp(`❯ ${choice}\\s*$`, 'm');
  for (let presses = 0; !active.test(getScreen()); presses++) {
    if (presses > 50) throw new Error(`no choice '${choice}' in:\n${getScreen()}`);
    events.keypress('down');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function scripted(steps: Step[], screens: string[]): PromptApi {
  const next = async <T>(prompt: AnyPrompt, config: { message: string }): Promise<T> => {
    const step = steps.shift();
    if (!step) throw new Error(`unexpected prompt: ${config.message}`);
    expect(config.message).toMatch(step.message);
    const { answer, events, getScreen } = await render(prompt as never, config as never);
    screens.push(getScreen());
    for (const action of step.actions) {
      if (typeof action === 'string') events.keypress(action);
      else if ('type' in action) events.type(action.type);
      else if ('pick' in action) await pick(action.pick, events, getScreen);
      else expect(getScreen()).toMatch(action.expectScreen);
      await new Promise((resolve) => setImmediate(resolve));
    }
    return (await answer) as T;
  };
  return {
    select: (config) => next(select as AnyPrompt, config),
    input: (config) => next(input as AnyPrompt, config),
    confirm: (config) => next(confirm as AnyPrompt, config),
  };
}

async function interactive(
  steps: Step[],
  cwd: string,
  extra: string[] = [],
): Promise<{ code: number; out: string; err: string; screens: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const screens: string[] = [];
  const code = await runCli(extra, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    cwd,
    prompts: scripted(steps, screens),
  });
  expect(steps).toEqual([]);
  return { code, out: out.join('\n'), err: err.join('\n'), screens };
}

describe('interactive mode', () => {
  it('configuration, then blueprint, then its prompts with defaults, validValues and visibleWhen', async () => {
    const dir = tempDir();
    const result = await interactive(
      [
        { message: /^Configuration$/, actions: [{ expectScreen: /built-in defaults/ }, 'enter'] },
        { message: /^Blueprint$/, actions: [{ expectScreen: /batch[\s\S]*demo/ }, { pick: 'demo' }, 'enter'] },
        // A name that is not safe is refused on the spot; the user erases it and takes another.
        {
          message: /\(service\)$/,
          actions: [
            { expectScreen: /\(orderDesk\)/ },
            { type: 'bad name' },
            'enter',
            { expectScreen: /not a safe name/ },
            ...Array(8).fill('backspace'),
            { type: 'shop' },
            'enter',
          ],
        },
        { message: /\(serviceVersion\)$/, actions: [{ expectScreen: /\(0\.1\.0\)/ }, 'enter'] },
        { message: /\(destFolder\)$/, actions: [{ expectScreen: /\(\.\/shop\)/ }, 'enter'] },
        { message: /\(greeting\)$/, actions: [{ expectScreen: /\(shopGreeting\)/ }, 'enter'] },
        { message: /\(jpa\)$/, actions: [{ type: 'n' }, 'enter'] },
        { message: /\(flavor\)$/, actions: [{ expectScreen: /plain[\s\S]*fancy/ }, 'down', 'enter'] },
        // visibleWhen flavor = fancy: asked now.
        { message: /\(fancyName\)$/, actions: [{ expectScreen: /\(shopFancy\)/ }, 'enter'] },
        { message: /\(hookMode\)$/, actions: ['enter'] },
      ],
      dir,
      ['--blueprints', path.join(FIXTURES, 'demo')],
    );
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/\[6\/6\] move into place: \d+ files written/);
    const record = JSON.parse(readFileSync(path.join(dir, 'shop/.fw-gen.json'), 'utf8'));
    expect(record.answers).toEqual({
      service: 'shop',
      serviceVersion: '0.1.0',
      destFolder: './shop',
      greeting: 'shopGreeting',
      jpa: false,
      flavor: 'fancy',
      fancyName: 'shopFancy',
      hookMode: 'ok',
    });
  });

  it('a hidden prompt is not asked; a processSpec file is checked as it is typed', async () => {
    const dir = tempDir();
    await runCli(['-g', 'fw-process-management', '-o', 'spec.json'], {
      out: () => undefined,
      err: () => undefined,
      cwd: dir,
    });
    const result = await interactive(
      [
        { message: /^Configuration$/, actions: ['enter'] },
        { message: /^Blueprint$/, actions: [{ pick: 'fw-process-management' }, 'enter'] },
        { message: /\(application\)$/, actions: [{ type: 'billing' }, 'enter'] },
        { message: /\(applicationVersion\)$/, actions: ['enter'] },
        { message: /\(destFolder\)$/, actions: [{ expectScreen: /\(\.\/billing\)/ }, 'enter'] },
        {
          message: /\(processSpec\)$/,
          actions: [{ type: 'x' }, 'enter', { expectScreen: /does not exist/ }, 'backspace', 'enter'],
        },
        { message: /\(definitionSource\)$/, actions: ['down', 'enter'] },
        // registerInServiceRegistry defaults to no, so serviceRegistryUrl is never asked.
        { message: /\(registerInServiceRegistry\)$/, actions: ['enter'] },
      ],
      dir,
    );
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(readFileSync(path.join(dir, 'billing/.fw-gen.json'), 'utf8')).answers).toEqual({
      application: 'billing',
      applicationVersion: '0.1.0',
      destFolder: './billing',
      processSpec: 'process-spec.json',
      definitionSource: 'json',
      registerInServiceRegistry: false,
    });
  });
});
