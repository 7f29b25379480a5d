import { shortId } from '../src/components/time';

describe('shortId', () => {
  it('keeps the part that tells ids apart: the start of a random id, the end of a time-ordered one, a child’s position', () => {
    expect(shortId('3b241101-e2bb-4255-8caf-4136c566a962')).toBe('3b241101…');
    // Two processes created in the same millisecond share their first 12 digits.
    const a = shortId('019ac5d4-3f2a-7b1e-9c4d-0a1b2c3d4e5f');
    const b = shortId('019ac5d4-3f2a-7c33-8e01-77aa00bb11cc');
    expect([a, b]).toEqual(['…2c3d4e5f', '…00bb11cc']);
    // Siblings of one split share their parent's start and a hash at the end; their positions differ.
    const siblings = [0, 1, 64, 4096].map((i) =>
      shortId(
        `019ac5d4-3f2a-8000-8${(i >> 6).toString(16).padStart(3, '0')}-${((i & 0x3f) << 2).toString(16).padStart(2, '0')}dd26cd0a44`,
      ),
    );
    expect(new Set(siblings).size).toBe(4);
    expect(shortId('short-id')).toBe('short-id');
  });
});
