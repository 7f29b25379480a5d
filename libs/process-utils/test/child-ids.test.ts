import { deterministicChildId } from '@fw/process-utils';

const UUID_V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const V7_PARENT = '019ac5d4-3f2a-7b1e-9c4d-0a1b2c3d4e5f';

describe('deterministicChildId', () => {
  it('numbers the children of a time-ordered parent after it: version 8, the parent’s first 48 bits, in position order', () => {
    const positions = [0, 1, 2, 63, 64, 1000, 2 ** 20, 2 ** 31, 2 ** 32 - 1];
    const ids = positions.map((i) => deterministicChildId(V7_PARENT, i));
    for (const id of ids) {
      expect(id).toMatch(UUID_V8);
      expect(id.slice(0, 13)).toBe(V7_PARENT.slice(0, 13));
    }
    // As text and as PostgreSQL orders uuids (byte by byte): the children are consecutive keys.
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names the same child the same way every time, and the children of two parents of one millisecond apart', () => {
    const sibling = `${V7_PARENT.slice(0, 14)}0000-8000-000000000000`;
    const first = Array.from({ length: 2000 }, (_, i) => deterministicChildId(V7_PARENT, i));
    const again = Array.from({ length: 2000 }, (_, i) => deterministicChildId(V7_PARENT, i));
    const other = Array.from({ length: 2000 }, (_, i) => deterministicChildId(sibling, i));
    expect(again).toEqual(first);
    expect(new Set([...first, ...other]).size).toBe(4000);
  });

  it('numbers grandchildren after their own parent, a child id of this layout', () => {
    const child = deterministicChildId(V7_PARENT, 7);
    const grandchildren = [0, 1, 2].map((i) => deterministicChildId(child, i));
    for (const id of grandchildren) expect(id).toMatch(UUID_V8);
    expect(grandchildren).not.toContain(deterministicChildId(V7_PARENT, 0));
    expect([...grandchildren].sort()).toEqual(grandchildren);
  });

  it('keeps the earlier hashed layout (version 5) for other parents, so a split under way across an upgrade names its children as before', () => {
    // The id the earlier releases gave this child: a changed id would create the child twice.
    expect(deterministicChildId('3b241101-e2bb-4255-8caf-4136c566a962', 3)).toBe(
      'ecc508b0-4598-5c2c-9448-05880f0763e5',
    );
    expect(deterministicChildId('ECC508B0-4598-5C2C-9448-05880F0763E5', 0)).toMatch(/^[0-9a-f-]{14}5/);
  });
});
