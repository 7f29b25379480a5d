/**
 * A JWKS file is followed while the server runs: a real file on disk, rotated during the test
 * (renamed over, rewritten in place, caught half written), and tokens checked by the verifier the
 * API uses. A new key works at once (its unknown key id makes the file be read again), a retired
 * key stops at the next read, the cool-down bounds reads for unknown key ids, and a broken file
 * keeps the keys read before.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { makeJwtVerifier } from '../../src';
import { AUDIENCE, ISSUER, makeSigningKey, signToken, type SigningKey } from './jwks-fixture';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('JWKS file rotated while the server runs', () => {
  let dir: string;
  let file: string;
  let keyA: SigningKey;
  let keyB: SigningKey;
  let tokenA: string;
  let tokenB: string;

  /** Writes the set the way a deployment does: a new file renamed over the old one. */
  function publish(keys: readonly SigningKey[]): void {
    const next = `${file}.next`;
    writeFileSync(next, JSON.stringify({ keys: keys.map((k) => k.publicJwk) }));
    renameSync(next, file);
  }

  /** The verifier's answer for a token: the actor, or the reason it was refused. */
  async function check(verifier: ReturnType<typeof makeJwtVerifier>, token: string): Promise<string> {
    return verifier.verify(token).then(
      (caller) => caller.actor,
      (err: { description?: string }) => `refused: ${err.description ?? String(err)}`,
    );
  }

  beforeAll(async () => {
    [keyA, keyB] = await Promise.all([makeSigningKey('file-a'), makeSigningKey('file-b', 'ES256')]);
    [tokenA, tokenB] = await Promise.all([signToken(keyA, { sub: 'ann' }), signToken(keyB, { sub: 'bob' })]);
  });
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'fw-jwks-file-'));
    file = path.join(dir, 'jwks.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('takes a new key at once (its unknown key id reads the file again) and drops the retired one', async () => {
    publish([keyA]);
    const verifier = makeJwtVerifier({
      jwksFile: file,
      issuer: ISSUER,
      audience: AUDIENCE,
      jwksFileCheckMillis: 60_000,
      jwksCooldownMillis: 0,
    });
    expect(await check(verifier, tokenA)).toBe('jwt:ann');
    expect(await check(verifier, tokenB)).toMatch(/^refused: .*does not publish/);

    publish([keyB]);
    expect(await check(verifier, tokenB)).toBe('jwt:bob');
    expect(await check(verifier, tokenA)).toMatch(/^refused: .*does not publish/);
  });

  it('reads the file again when it changed, at most once per check interval; unknown key ids read it at most once per cool-down', async () => {
    publish([keyA]);
    const verifier = makeJwtVerifier({
      jwksFile: file,
      issuer: ISSUER,
      audience: AUDIENCE,
      jwksFileCheckMillis: 300,
      jwksCooldownMillis: 60_000,
    });
    expect(await check(verifier, tokenA)).toBe('jwt:ann');
    // An unknown key id spends the cool-down on a read that finds nothing new.
    expect(await check(verifier, tokenB)).toMatch(/^refused/);

    // Rewritten in place (same file, new content and time).
    writeFileSync(file, JSON.stringify({ keys: [keyB.publicJwk] }));
    expect(await check(verifier, tokenB)).toMatch(/^refused/); // within the cool-down and the check interval
    await sleep(400);
    expect(await check(verifier, tokenB)).toBe('jwt:bob');
    expect(await check(verifier, tokenA)).toMatch(/^refused: .*does not publish/);
  });

  it('keeps the keys read before while the file is missing or half written', async () => {
    publish([keyA]);
    const verifier = makeJwtVerifier({
      jwksFile: file,
      issuer: ISSUER,
      audience: AUDIENCE,
      jwksFileCheckMillis: 50,
      jwksCooldownMillis: 0,
    });
    expect(await check(verifier, tokenA)).toBe('jwt:ann');

    writeFileSync(file, '{"keys": [');
    await sleep(100);
    expect(await check(verifier, tokenA)).toBe('jwt:ann');
    expect(await check(verifier, tokenB)).toMatch(/^refused/);

    rmSync(file);
    await sleep(100);
    expect(await check(verifier, tokenA)).toBe('jwt:ann');

    publish([keyA, keyB]);
    await sleep(100);
    expect(await check(verifier, tokenA)).toBe('jwt:ann');
    expect(await check(verifier, tokenB)).toBe('jwt:bob');
  });

  it('refuses at start-up a file that is missing or holds no key set', () => {
    const options = { issuer: ISSUER, audience: AUDIENCE };
    expect(() => makeJwtVerifier({ ...options, jwksFile: file })).toThrow(/Cannot read the JWKS file/);
    writeFileSync(file, '{"no":"keys"}');
    expect(() => makeJwtVerifier({ ...options, jwksFile: file })).toThrow(/no "keys" array/);
  });
});
