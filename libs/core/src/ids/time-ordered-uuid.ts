/**
 * Time-ordered UUIDs (version 7): the first 48 bits are the Unix time in milliseconds, the rest
 * random. The ids a fan-out writes by the thousand each second (processes, their completion
 * events, child reports and work-item keys) are keys of B-tree indexes on tables that hold
 * millions of rows: with random (version 4) ids every insert lands on a random page of each such
 * index, and after each checkpoint the first change to a page writes the whole page to the WAL.
 * With time-ordered ids the inserts of a run share a few pages at the index's newest end.
 *
 * Node's crypto makes version 4 only; this takes one (Node batches their random bytes, which a
 * generator of its own would not) and puts the time in front: the version-4 id's other random
 * bits stay as they are (74 of them, incl. the 12 the layout calls `rand_a`), its variant too.
 * Within one millisecond the ids are not ordered among themselves (the layout allows it).
 */
import { randomUUID } from 'node:crypto';

let prefixMillis = -1;
let prefix = '';

/**
 * A new UUID version 7 (RFC 9562), e.g. `019ac5d4-3f2a-7b1e-9c4d-0a1b2c3d4e5f`.
 *
 * @example
 * const manager = makeProcessManager({ ...options, newId: timeOrderedUuid }); // the default
 */
export function timeOrderedUuid(): string {
  const now = Date.now();
  if (now !== prefixMillis) {
    // The time's 12 hex digits as `tttttttt-tttt-7` (the version nibble follows), once a millisecond.
    const hex = now.toString(16).padStart(12, '0');
    prefix = `${hex.slice(0, 8)}-${hex.slice(8)}-7`;
    prefixMillis = now;
  }
  // A version-4 id is `xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx`: keep what follows its version nibble.
  return prefix + randomUUID().slice(15);
}
