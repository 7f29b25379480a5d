// Every process of the processSpec, end to end on PGlite through the real durable worker host
// (outbox, JDBC work-item queue, runner): file processes read real files and their SHA-256 is
// checked; custom processes fail with "not implemented" until their code is written.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Process } from '@fw/process-api';
import { argsFor, chunkSizeOf, runToEnd, sha256, startTestEnv, successorOf, type TestEnv } from './support';

let env: TestEnv;

before(async () => {
  env = await startTestEnv();
});

after(async () => {
  await env.close();
});

function assertNotImplemented(done: Process): void {
  assert.equal(done.state.stateId, 'PROCESSED_WITH_ERRORS');
  assert.match(JSON.stringify(done.errors), /not implemented yet/);
}

function assertFileDigest(done: Process, args: Record<string, unknown>): void {
  assert.equal(done.state.stateId, 'PROCESSED', JSON.stringify(done.errors));
  const bytes = readFileSync(String(args.path));
  assert.deepEqual(done.output, { path: args.path, offset: 0, bytes: bytes.length, sha256: sha256(bytes) });
}

function assertFileChunks(done: Process, args: Record<string, unknown>, chunkBytes: number): void {
  assert.equal(done.state.stateId, 'PROCESSED', JSON.stringify(done.errors));
  const bytes = readFileSync(String(args.path));
  const chunks = Math.ceil(bytes.length / chunkBytes);
  const expected = Array.from({ length: chunks }, (_, i) => sha256(bytes.subarray(i * chunkBytes, (i + 1) * chunkBytes)));
  assert.deepEqual(done.output, { path: args.path, bytes: bytes.length, chunks, sha256: sha256(bytes), chunkSha256: expected });
}
{{#processes}}

test('{{processType}} ({{implementation}}) runs end to end', async () => {
  const args = argsFor(env, '{{processType}}');
  const done = await runToEnd(env, '{{processType}}', args);
{{#isCustom}}
  assertNotImplemented(done);
{{/isCustom}}
{{#isFileRead}}
  assertFileDigest(done, args);
{{/isFileRead}}
{{#isFileSplit}}
  assertFileChunks(done, args, chunkSizeOf('{{processType}}'));
{{/isFileSplit}}
});
{{#hasPredecessor}}

test('{{processType}} starts when {{predecessorProcessType}} completes, with predecessorArgs {{predecessorArgs}}', async () => {
  const predecessor = await runToEnd(env, '{{predecessorProcessType}}', argsFor(env, '{{predecessorProcessType}}'));
  const successor = await successorOf(env, predecessor.id, '{{processType}}');
  assert.equal(successor.predecessorId, predecessor.id);
  const mode: string = '{{predecessorArgs}}';
  if (mode === 'INPUT') assert.deepEqual(successor.input, predecessor.input);
  if (mode === 'OUTPUT') assert.deepEqual(successor.input, predecessor.output);
  if (mode === 'BOTH') assert.deepEqual(successor.input, { input: predecessor.input, output: predecessor.output });
});
{{/hasPredecessor}}
{{/processes}}
