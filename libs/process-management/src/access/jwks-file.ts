/**
 * A JWKS kept in a file (an identity provider's keys copied there by a deployment, or a key set of
 * one's own), followed while the server runs so a key rotation needs no restart:
 *
 * - the file's modification time, size and inode are looked at, at most once per `checkMillis`,
 *   when a token is checked, and the set is read again when they changed (a rotation written in
 *   place or renamed over the old file); a retired key stops working at that check;
 * - a token naming a key id the set does not hold makes the file be read again at once, at most
 *   once per `cooldownMillis` (a new key can be in use before the next check), then it is refused.
 *
 * A read that fails or finds no valid key set (a file caught half written) keeps the keys in use
 * and is logged; the next check tries again. The first read happens at start-up and fails it.
 *
 * @example
 * const initial = readKeySetFile('/etc/fw/jwks.json');   // at start-up: ConfigError when unreadable
 * const keys = makeFileKeySet({ file: '/etc/fw/jwks.json', initial, jose, checkMillis: 5_000, cooldownMillis: 30_000, logger });
 * await jose.jwtVerify(token, keys.resolve, { issuer, audience });
 */
import { ConfigError, type Logger } from '@fw/core';
import { readFileSync, statSync, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { Jose } from './jose-loader';

type LocalKeySet = ReturnType<Jose['createLocalJWKSet']>;
type KeySetInput = Parameters<Jose['createLocalJWKSet']>[0];

export interface FileKeySetOptions {
  file: string;
  /** The start-up read ({@link readKeySetFile}); read now when absent. */
  initial?: KeySetSnapshot;
  jose: Jose;
  /** Shortest time between two looks at the file's modification (default 5 s). */
  checkMillis?: number;
  /** Shortest time between two reads caused by an unknown key id (default 30 s). */
  cooldownMillis?: number;
  logger?: Logger;
  /** The clock (milliseconds). */
  now?: () => number;
}

export interface FileKeySet {
  /** The key resolver to hand to `jwtVerify`. */
  resolve: LocalKeySet;
  /** How often the file was read (start-up included). */
  reads(): number;
}

/** The JWKS in `text`, or why it is none. */
export function parseKeySet(text: string): KeySetInput {
  const parsed = JSON.parse(text) as { keys?: unknown };
  if (typeof parsed !== 'object' || parsed === null || !Array.isArray(parsed.keys))
    throw new Error('the JWKS has no "keys" array');
  return parsed as KeySetInput;
}

/** The file's identity: a change of any part means it was rewritten. */
function stampOf(stats: Stats): string {
  return `${stats.mtimeMs}:${stats.size}:${stats.ino}`;
}

/** The key set of the file as read at one time. */
export interface KeySetSnapshot {
  set: KeySetInput;
  stamp: string;
}

/**
 * Reads the file at start-up, so a missing or broken file stops the server before it listens.
 * @throws ConfigError naming the file and what is wrong.
 */
export function readKeySetFile(file: string): KeySetSnapshot {
  try {
    const stamp = stampOf(statSync(file));
    return { set: parseKeySet(readFileSync(file, 'utf8')), stamp };
  } catch (err) {
    throw new ConfigError(`Cannot read the JWKS file ${file}: ${(err as Error).message}`, { cause: err });
  }
}

export function makeFileKeySet(options: FileKeySetOptions): FileKeySet {
  const { file, jose } = options;
  const now = options.now ?? Date.now;
  const checkMillis = options.checkMillis ?? 5_000;
  const cooldownMillis = options.cooldownMillis ?? 30_000;
  const first = options.initial ?? readKeySetFile(file);
  let keys = jose.createLocalJWKSet(first.set);
  let stamp = first.stamp;
  let reads = 1;
  let checkedAt = now();
  let forcedAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | undefined;

  /** Reads the file again (one read at a time); keeps the current keys when it fails. */
  function reread(): Promise<void> {
    reading ??= (async () => {
      try {
        const stats = await stat(file);
        const set = parseKeySet(await readFile(file, 'utf8'));
        keys = jose.createLocalJWKSet(set);
        stamp = stampOf(stats);
        reads += 1;
      } catch (err) {
        options.logger?.warn({ err, file }, 'the JWKS file could not be read again; the keys read before stay in use');
      }
    })().finally(() => {
      reading = undefined;
    });
    return reading;
  }

  async function rereadIfChanged(): Promise<void> {
    if (now() - checkedAt < checkMillis) return;
    checkedAt = now();
    try {
      if (stampOf(await stat(file)) !== stamp) await reread();
    } catch (err) {
      options.logger?.warn({ err, file }, 'the JWKS file cannot be looked at; the keys read before stay in use');
    }
  }

  const resolve = (async (header, token) => {
    await rereadIfChanged();
    try {
      return await keys(header, token);
    } catch (err) {
      const unknownKey = (err as { code?: unknown }).code === 'ERR_JWKS_NO_MATCHING_KEY';
      if (!unknownKey || now() - forcedAt < cooldownMillis) throw err;
      forcedAt = now();
      await reread();
      return keys(header, token);
    }
  }) as LocalKeySet;
  resolve.jwks = () => keys.jwks();
  return { resolve, reads: () => reads };
}
