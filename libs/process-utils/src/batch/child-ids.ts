/**
 * Deterministic child ids: the same split delivered twice names the same children, so it creates
 * and counts nothing twice.
 *
 * Children of a parent whose id is time-ordered (UUID version 7, what the process manager makes
 * by default, or version 8, a child id of this layout) are numbered after their parent: the
 * parent's first 48 bits (for version 7 its creation time), then the child's position, then bits
 * of a hash of the parent id, with version 8 (the RFC 9562 version for layouts of one's own). A
 * split's children are then consecutive keys of every index keyed by process id (the process's
 * primary key, its work item's key, its completion event and its child report): a fan-out of a
 * million leaves writes the same few index pages over and over instead of one random page of
 * each index per leaf, which on a table of millions of rows meant a full page image in the WAL
 * for most leaves after each checkpoint.
 *
 * Children of other parents (version 4 ids, version 5 child ids of earlier releases, ids given by
 * a caller) keep the earlier layout, a version-5 hash of parent and position: a split under way
 * while an installation is upgraded names its children as it did before.
 */
import { createHash } from 'node:crypto';

/** The largest position the ordered layout holds (32 bits); beyond it the hashed layout is used. */
const MAX_ORDERED_INDEX = 0xffffffff;

/** The version-5 layout of earlier releases: a SHA-1 of parent and position. */
function hashedChildId(parentId: string, index: number): string {
  const hex = createHash('sha1').update(`${parentId.toLowerCase()}/child/${index}`).digest('hex');
  const variant = ((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16).padStart(2, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}

/** What a parent's children share: the parent's first 48 bits as text, and 42 bits of its hash. */
interface ParentPart {
  parentId: string;
  /** `tttttttt-tttt-8` */
  prefix: string;
  /** The hash's first two bits (0..3), then 40 more as 10 hex digits. */
  hashHigh: number;
  hashRest: string;
}

let lastParent: ParentPart | undefined;

function parentPartOf(parentId: string): ParentPart {
  // A split names its children one after the other: the parent's part is made once.
  if (lastParent?.parentId === parentId) return lastParent;
  const id = parentId.toLowerCase();
  const hash = createHash('sha1').update(id).digest('hex');
  lastParent = {
    parentId,
    prefix: `${id.slice(0, 8)}-${id.slice(9, 13)}-8`,
    hashHigh: parseInt(hash.slice(0, 1), 16) & 0x3,
    hashRest: hash.slice(1, 11),
  };
  return lastParent;
}

const hex2 = (n: number) => n.toString(16).padStart(2, '0');

/**
 * The id of the child at `index` (0-based across all batches of the split) of `parentId`; see
 * the module comment for the two layouts.
 *
 * @example
 * deterministicChildId('019ac5d4-3f2a-7b1e-9c4d-0a1b2c3d4e5f', 0); // '019ac5d4-3f2a-8000-8000-0…' (then the hash)
 */
export function deterministicChildId(parentId: string, index: number): string {
  const version = parentId.charAt(14);
  if ((version !== '7' && version !== '8') || !Number.isInteger(index) || index < 0 || index > MAX_ORDERED_INDEX)
    return hashedChildId(parentId, index);
  const parent = parentPartOf(parentId);
  // 32 bits of position, most significant first, around the version and variant bits:
  // 4 after the version nibble, 8, 6 after the variant bits, 8, and the last 6 before the hash.
  const i = index >>> 0;
  const versionByte = ((i >>> 28) & 0x0f).toString(16);
  const byte7 = hex2((i >>> 20) & 0xff);
  const variantByte = hex2(0x80 | ((i >>> 14) & 0x3f));
  const byte9 = hex2((i >>> 6) & 0xff);
  const byte10 = hex2(((i & 0x3f) << 2) | parent.hashHigh);
  return `${parent.prefix}${versionByte}${byte7}-${variantByte}${byte9}-${byte10}${parent.hashRest}`;
}
