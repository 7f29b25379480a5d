import { deterministicChildId } from '@fw/process-utils';
import { childPositionOf, shortId } from '../src/components/time';

describe('shortId', () => {
  it('keeps the part that tells ids apart: the start of a random id, the end of a time-ordered one', () => {
    expect(shortId('3b241101-e2bb-4255-8caf-4136c566a962')).toBe('3b241101…');
    // Two processes created in the same millisecond share their first 12 digits.
    const a = shortId('019ac5d4-3f2a-7b1e-9c4d-0a1b2c3d4e5f');
    const b = shortId('019ac5d4-3f2a-7c33-8e01-77aa00bb11cc');
    expect([a, b]).toEqual(['…2c3d4e5f', '…00bb11cc']);
    expect(shortId('short-id')).toBe('short-id');
  });

  it('shows a split child as its position and the end its siblings share', () => {
    const parent = '019ac5d4-3f2a-7b1e-9c4d-0a1b2c3d4e5f';
    const child = (i: number) => deterministicChildId(parent, i);
    const tail = child(0).slice(-4);
    expect([0, 1, 63, 64, 4096].map((i) => shortId(child(i)))).toEqual(
      ['#0', '#1', '#63', '#64', '#4096'].map((p) => `${p}…${tail}`),
    );
    // Another parent's children have other ends, so a table of both tells them apart.
    const cousin = shortId(deterministicChildId('019ac5d4-3f2a-7c33-8e01-77aa00bb11cc', 0));
    expect(cousin).toMatch(/^#0…[0-9a-f]{4}$/);
    expect(cousin).not.toBe(shortId(child(0)));
  });
});

describe('childPositionOf', () => {
  it('reads back every bit of the position the split wrote', () => {
    const parent = '019ac5d4-3f2a-7b1e-9c4d-0a1b2c3d4e5f';
    const positions = [
      0, 1, 0x3f, 0x40, 0x3fff, 0x4000, 0xfffff, 0x100000, 0x0fffffff, 0x10000000, 999_999, 0xffffffff,
    ];
    for (const i of positions) expect(childPositionOf(deterministicChildId(parent, i))).toBe(i);
    // A child of a child (its parent is of version 8) is numbered the same way.
    expect(childPositionOf(deterministicChildId(deterministicChildId(parent, 7), 12))).toBe(12);
  });

  it('is undefined for ids of other layouts', () => {
    expect(childPositionOf('019ac5d4-3f2a-7b1e-9c4d-0a1b2c3d4e5f')).toBeUndefined();
    expect(childPositionOf('3b241101-e2bb-4255-8caf-4136c566a962')).toBeUndefined();
    // A version-5 child id of earlier releases.
    expect(childPositionOf(deterministicChildId('3b241101-e2bb-4255-8caf-4136c566a962', 3))).toBeUndefined();
    expect(shortId('019ac5d4-3f2a-8000-zz00-00dd26cd0a44')).toBe('019ac5d4…');
  });
});
