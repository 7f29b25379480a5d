import { isWorkerPayloadError, listOf, optional, shape, type PayloadType } from '@fw/process-utils';

function failure(fn: () => unknown): { kind: string; message: string; field?: string } | undefined {
  try {
    fn();
  } catch (e) {
    if (isWorkerPayloadError(e)) return { kind: e.kind, message: e.message, field: e.field };
    throw e;
  }
  return undefined;
}

describe('payload schemas', () => {
  const item = shape({ sku: 'string', qty: 'integer' });
  const order = shape({ id: 'string', note: 'string?', items: listOf(item), meta: optional(shape({ source: 'string' })) });
  type Order = PayloadType<typeof order>;

  it('accepts valid payloads, tolerates unknown fields and never changes the raw value', () => {
    const raw = { id: 'o1', items: [{ sku: 'a', qty: 2, colour: 'red' }], extra: true, note: null };
    const parsed: Order = order.parse(raw, 'input');
    expect(parsed).toEqual(raw);
    expect(parsed).not.toBe(raw);
    expect(parsed.items[0]?.qty).toBe(2);
  });

  it('names the kind and the field of every failure', () => {
    expect(failure(() => order.parse([], 'input'))).toEqual({ kind: 'MALFORMED_PAYLOAD', message: "'input' must be a JSON object, got an array", field: 'input' });
    expect(failure(() => order.parse({ items: [] }, 'input'))).toMatchObject({ kind: 'MALFORMED_PAYLOAD', field: 'input.id' });
    expect(failure(() => order.parse({ id: 'o', items: [{ sku: 'a', qty: 1.5 }] }, 'input'))).toEqual({
      kind: 'INCOMPATIBLE_FIELD_TYPE',
      message: "'input.items[0].qty' must be an integer, got a number",
      field: 'input.items[0].qty',
    });
    expect(failure(() => order.parse({ id: 'o', items: {} }, 'input'))).toMatchObject({ kind: 'INCOMPATIBLE_FIELD_TYPE', field: 'input.items' });
    expect(failure(() => order.parse({ id: 'o', items: [], meta: { source: 1 } }, 'input'))).toMatchObject({ kind: 'INCOMPATIBLE_FIELD_TYPE', field: 'input.meta.source' });
    expect(failure(() => shape({ n: 'number' }).parse({ n: Number.NaN }, 'x'))).toMatchObject({ kind: 'INCOMPATIBLE_FIELD_TYPE' });
  });
});
