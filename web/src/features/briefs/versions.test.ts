import { describe, expect, it } from 'vitest';
import { differences, elementValue, same } from './versions.ts';

const element = (overrides: Record<string, unknown> = {}) => ({
  position: 0,
  productId: 'ste',
  lengthDimension: 120,
  widthDimension: 40,
  heightDimension: 180,
  materialReferenceId: 'gc1',
  decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
  wantDecoration: true,
  sidePrinted: 'RECTO',
  rectoColorCount: 4,
  versoColorCount: 0,
  ...overrides,
});

describe('differences between two priced versions', () => {
  it('finds nothing between equal requests (key order and empty lists do not matter)', () => {
    const a = { briefElements: [element({ layoutCounts: [] })] };
    const b = { briefElements: [{ ...element(), position: 0 }] };
    expect(differences(a, b)).toEqual([]);
    expect(same({ x: 1, y: [1] }, { y: [1], x: 1 })).toBe(true);
  });

  it('names each changed field with both values: quantity, dimension, a finish, the packing', () => {
    const before = { briefElements: [element()] };
    const after = {
      packingType: 'BUNDLE',
      briefElements: [
        element({
          decorationsCount: [
            { decorationIndex: 1, quantity: 2000 },
            { decorationIndex: 0, quantity: 20000 },
          ],
          widthDimension: 45,
          wantLaminationRecto: true,
        }),
      ],
    };
    expect(differences(before, after)).toEqual([
      { element: null, field: 'packingType', from: undefined, to: 'BUNDLE' },
      { element: 0, field: 'widthDimension', from: 40, to: 45 },
      { element: 0, field: 'quantities', from: [5000], to: [20000, 2000] },
      { element: 0, field: 'wantLaminationRecto', from: false, to: true },
    ]);
  });

  it('reports an element added or removed once, not field by field', () => {
    const one = { briefElements: [element()] };
    const two = { briefElements: [element(), element({ position: 1, productId: '0201' })] };
    expect(differences(one, two)).toEqual([{ element: 1, field: 'element', from: undefined, to: '0201' }]);
    expect(differences(two, one)).toEqual([{ element: 1, field: 'element', from: '0201', to: undefined }]);
  });

  it('ignores printing details of an unprinted element and finish details without the finish', () => {
    const a = element({ wantDecoration: false, rectoColorCount: 4 });
    const b = element({ wantDecoration: false, rectoColorCount: 2, hotStampings: [{ width: 1 }] });
    expect(differences({ briefElements: [a] }, { briefElements: [b] })).toEqual([]);
    expect(elementValue(element({ wantWindow: true, windowWidth: 50, windowHeight: 40 }), 'window')).toEqual({
      width: 50,
      height: 40,
    });
  });
});
