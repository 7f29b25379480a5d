#!/usr/bin/env node
// {{service}} as a process: an event consumer over standard input. Each input line is one event
// `{ "operation": "quote", "input": { … }, "correlationId": "…" }`; each outcome is written as one
// JSON line on standard output (logs go to standard error, so the output stays machine-readable).
// The process ends once its input has ended and every event is answered. To consume a broker
// instead, emit its messages on an emitter the same way: the adapter needs only on/off.
import { EventEmitter } from 'node:events';
import { createInterface } from 'node:readline';
import { createLogger } from '@fw/core';
import { EVENT_CHANNEL, subscribe } from './events';
import { make{{servicePascal}}Registry } from './registry';
{{#registerInServiceRegistry}}
import { loadRegistrationSettings, startRegistration } from './registration';
{{/registerInServiceRegistry}}

export async function main(input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout): Promise<number> {
  const logger = createLogger({ name: '{{serviceKebab}}', destination: process.stderr });
  const registry = make{{servicePascal}}Registry(logger);
{{#registerInServiceRegistry}}
  const delegate = startRegistration(registry, loadRegistrationSettings(), logger);
{{/registerInServiceRegistry}}
  const source = new EventEmitter();
  let inFlight = 0;
  let ended = false;
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const stop = subscribe(
    source,
    registry,
    (outcome) => {
      output.write(`${JSON.stringify(outcome)}\n`);
      inFlight -= 1;
      if (ended && inFlight === 0) finish();
    },
    logger,
  );
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    let event: unknown = line; // a line that is not JSON is answered with a 400 envelope
    try {
      event = JSON.parse(line) as unknown;
    } catch {
      // keep the text
    }
    inFlight += 1;
    source.emit(EVENT_CHANNEL, event);
  }
  ended = true;
  if (inFlight === 0) finish();
  await done;
  stop();
{{#registerInServiceRegistry}}
  await delegate.stop();
{{/registerInServiceRegistry}}
  return 0;
}

if (require.main === module) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      console.error(`{{serviceKebab}}: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    },
  );
}
