/**
 * Time-ordered UUIDs (version 7): the first 48 bits are the Unix time in milliseconds, the rest
 * random. The ids a fan-out writes by the thousand each second (processes, their completion
 * events, child reports and work-item keys) are keys of B-tree indexes on tables that hold
 * millions of rows: with random (version 4) ids every insert lands on a random page of each such
 * index, and after each checkpoint the first change to a page writes the whole page to the WAL.
 * With time-ordered ids the inserts of a run share a few pages at the index's newest end.
 *
 * The random bits come from a pool of random bytes filled 4 KiB at a time (as Node's own
 * `randomUUID` does with its 2 KiB); each id is written as ASCII into one scratch buffer and read
 * out as one string. Building it from hex pieces made about twenty intermediate strings per id
 * (some 700 bytes for the collector: a fan-out makes three ids a leaf). Within one millisecond
 * the ids are not ordered among themselves (the layout allows it).
 */
import { randomFillSync } from 'node:crypto';

/** Random bytes per refill: 10 of them make an id's random part, so 409 ids a refill. */
const POOL_BYTES = 4096;
const RANDOM_BYTES = 10;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

/** The ASCII codes of the hex digits. */
const HEX = Buffer.from('0123456789abcdef', 'latin1');
/** One id's text: `tttttttt-tttt-7rrr-vrrr-rrrrrrrrrrrr`. */
const text = Buffer.alloc(36);
text[8] = text[13] = text[18] = text[23] = 0x2d; // '-'
text[14] = 0x37; // version 7

let prefixMillis = -1;

/** Writes byte `b` as two hex digits at `at`. */
function writeHex(b: number, at: number): void {
  text[at] = HEX[b >> 4];
  text[at + 1] = HEX[b & 15];
}

/**
 * A new UUID version 7 (RFC 9562), e.g. `019ac5d4-3f2a-7b1e-9c4d-0a1b2c3d4e5f`.
 *
 * @example
 * const manager = makeProcessManager({ ...options, newId: timeOrderedUuid }); // the default
 */
export function timeOrderedUuid(): string {
  const now = Date.now();
  if (now !== prefixMillis) {
    // The time's 12 hex digits, written once a millisecond: `tttttttt-tttt`.
    const hex = now.toString(16).padStart(12, '0');
    for (let i = 0; i < 8; i++) text[i] = hex.charCodeAt(i);
    for (let i = 8; i < 12; i++) text[i + 1] = hex.charCodeAt(i);
    prefixMillis = now;
  }
  if (poolOffset + RANDOM_BYTES > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const r = poolOffset;
  poolOffset += RANDOM_BYTES;
  // 12 random bits after the version nibble (`rand_a`), the variant `10` and 62 random bits.
  text[15] = HEX[pool[r] & 15];
  writeHex(pool[r + 1], 16);
  text[19] = HEX[8 | (pool[r + 2] & 3)];
  text[20] = HEX[pool[r + 2] >> 4];
  writeHex(pool[r + 3], 21);
  for (let i = 0; i < 6; i++) writeHex(pool[r + 4 + i], 24 + 2 * i);
  return text.toString('latin1', 0, 36);
}
