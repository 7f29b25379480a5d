// Byte chunking of files for the fileSplit and fileRead processes: ranges of a fixed size, each read
// as a stream (a chunk is never held in memory whole) and hashed with SHA-256 while it is read.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

/** Chunk size when the definition's config has no `chunkBytes`. */
export const DEFAULT_CHUNK_BYTES = 1024 * 1024;

export interface ByteRange {
  offset: number;
  length: number;
}

export interface ChunkDigest {
  path: string;
  offset: number;
  bytes: number;
  sha256: string;
}

/** The ranges covering `size` bytes in pieces of `chunkBytes` (the last one shorter). */
export function chunkRanges(size: number, chunkBytes: number): ByteRange[] {
  if (!Number.isInteger(chunkBytes) || chunkBytes <= 0) throw new Error(`chunkBytes must be a positive whole number, got ${chunkBytes}`);
  const ranges: ByteRange[] = [];
  for (let offset = 0; offset < size; offset += chunkBytes) ranges.push({ offset, length: Math.min(chunkBytes, size - offset) });
  return ranges;
}

export async function fileSize(path: string): Promise<number> {
  return (await stat(path)).size;
}

/** Reads `length` bytes from `offset` (to the end when absent) and returns their count and SHA-256. */
export function readByteRange(path: string, offset = 0, length?: number, signal?: AbortSignal): Promise<ChunkDigest> {
  return new Promise((resolve, reject) => {
    if (length === 0) {
      resolve({ path, offset, bytes: 0, sha256: createHash('sha256').digest('hex') });
      return;
    }
    const hash = createHash('sha256');
    let bytes = 0;
    const end = length === undefined ? undefined : offset + length - 1;
    const stream = createReadStream(path, { start: offset, end, signal });
    stream.on('data', (chunk: string | Buffer) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      bytes += buffer.length;
      hash.update(buffer);
    });
    stream.on('error', reject);
    stream.on('end', () => resolve({ path, offset, bytes, sha256: hash.digest('hex') }));
  });
}
