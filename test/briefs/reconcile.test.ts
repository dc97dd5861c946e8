import { describe, expect, it } from 'vitest';
import { type ElementRow, elementValues } from '../../src/modules/briefs/mapping.ts';
import { elementsChanged, reconcileElements } from '../../src/modules/briefs/reconcile.ts';
import { AppError } from '../../src/platform/errors.ts';

// Unit tests of the PATCH /briefs/:id element matching: no database, no app.

type Sent = Parameters<typeof reconcileElements>[1];
const spec = (position: number, quantity = 1000, extra: Record<string, unknown> = {}) => ({
  position,
  productId: 'box',
  decorationsCount: [{ decorationIndex: 0, quantity }],
  ...extra,
});
const row = (id: string, position: number, quantity = 1000): ElementRow =>
  ({ id, ...elementValues(spec(position, quantity) as never) }) as ElementRow;
const sent = (...elements: Record<string, unknown>[]) => elements as unknown as Sent;

const A = '0190a000-0000-7000-8000-00000000000a';
const B = '0190a000-0000-7000-8000-00000000000b';

describe('reconcileElements', () => {
  const existing = [row(A, 0), row(B, 1)];

  it('updates an element named by its id, wherever it now stands', () => {
    const result = reconcileElements(existing, sent({ ...spec(1), id: A }));
    expect(result).toHaveLength(1);
    expect(result[0]!.keep?.id).toBe(A);
    expect(result[0]!.values.position).toBe(1);
  });

  it('matches an element without id to the unclaimed element at its position', () => {
    const result = reconcileElements(existing, sent(spec(0), spec(1, 2000)));
    expect(result.map((r) => r.keep?.id)).toEqual([A, B]);
    expect(result[1]!.values.quantity).toBe(2000);
  });

  it('does not give an element claimed by id to another element at its position', () => {
    const result = reconcileElements(existing, sent(spec(0), { ...spec(5), id: A }));
    expect(result.map((r) => r.keep?.id)).toEqual([undefined, A]);
  });

  it('makes a new element where no live element stands at the position', () => {
    const result = reconcileElements(existing, sent(spec(0), spec(1), spec(2)));
    expect(result.map((r) => r.keep?.id)).toEqual([A, B, undefined]);
  });

  it('refuses an id that is not an element of the brief, with a pointer to it (422)', () => {
    const other = '0190a000-0000-7000-8000-0000000000ff';
    let error: unknown;
    try {
      reconcileElements(existing, sent(spec(0), { ...spec(1), id: other }));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 422, code: 'invalid_reference' });
    expect(JSON.stringify(error)).toContain('/briefElements/1/id');
  });

  it('does not change its inputs', () => {
    const before = JSON.stringify(existing);
    reconcileElements(existing, sent(spec(1, 5000)));
    expect(JSON.stringify(existing)).toBe(before);
  });
});

describe('elementsChanged', () => {
  const existing = [row(A, 0), row(B, 1)];

  it('is false when the same elements come back with the same specification', () => {
    expect(elementsChanged(existing, reconcileElements(existing, sent(spec(0), spec(1))))).toBe(false);
  });

  it('is true when an element is added, removed or changed', () => {
    expect(elementsChanged(existing, reconcileElements(existing, sent(spec(0))))).toBe(true);
    expect(elementsChanged(existing, reconcileElements(existing, sent(spec(0), spec(1), spec(2))))).toBe(
      true,
    );
    expect(elementsChanged(existing, reconcileElements(existing, sent(spec(0), spec(1, 3000))))).toBe(true);
  });
});
