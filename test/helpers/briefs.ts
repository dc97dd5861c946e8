import type { Catalogue } from '../../src/pricing/index.ts';

/** The id of a catalogue record by its code; a missing code fails the test with its name. */
export const idOf = (list: { id: string; code: string }[], code: string) => {
  const found = list.find((r) => r.code === code);
  if (!found) throw new Error(`no catalogue record ${code}`);
  return found.id;
};

/**
 * The brief element most tests price: a straight tuck end carton of 120 x 40 x 180 mm on GC1-350,
 * printed 4/0 on the recto, for `quantity` boxes, from the organisation's own catalogue.
 */
export const carton = (catalogue: Catalogue, { position = 0, quantity = 5000 } = {}) => ({
  position,
  productId: idOf(catalogue.products, 'STE'),
  lengthDimension: 120,
  widthDimension: 40,
  heightDimension: 180,
  materialReferenceId: idOf(catalogue.materialReferences, 'GC1-350'),
  decorationsCount: [{ decorationIndex: 0, quantity }],
  wantDecoration: true,
  sidePrinted: 'RECTO',
  rectoColorCount: 4,
  versoColorCount: 0,
});
