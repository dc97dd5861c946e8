/**
 * Issue 18's packing example: "10,000 RSCs: 27 pallets and 2,106 EUR delivery in cases, where
 * strapped bundles give 13 pallets and 1,014 EUR". The figures are those of the engine before
 * issue 18 (commit 7273de2) for an E-flute RSC such as 300 x 200 x 200 mm in CORR-E-WK delivered
 * to FR-NATIONAL (78 EUR a pallet: 27 x 78 = 2,106, 13 x 78 = 1,014). They cannot be those of the
 * 400 x 300 x 300 B-flute RSC of the reference jobs: folded flat it is 706 x 606 x 6 mm, one
 * bundle per EUR pallet layer, and 10,000 of them fill 25.7 m3, more than 18 full pallets
 * (1.2 x 0.8 x 1.456 m = 1.40 m3 each) even with no gaps at all.
 */
import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../../src/pricing/default-catalogue.ts';
import { type BriefInput, priceBrief } from '../../src/pricing/index.ts';

const rsc = (
  l: number,
  w: number,
  h: number,
  materialReferenceId: string,
  packingType: 'SHIPPING_CASE' | 'BUNDLE',
): BriefInput => ({
  packingType,
  deliveryZoneId: 'FR-NATIONAL',
  briefElements: [
    {
      position: 0,
      productId: '0201',
      lengthDimension: l,
      widthDimension: w,
      heightDimension: h,
      materialReferenceId,
      wantDecoration: false,
      decorationsCount: [{ decorationIndex: 0, quantity: 10_000 }],
    },
  ],
});

describe("issue 18's 10,000 RSCs on pallets", () => {
  it('E-flute RSC: bundles by default, fewer pallets than the 13 of the issue (bundles sized to the pallet height)', () => {
    const prediction = priceBrief(rsc(300, 200, 200, 'CORR-E-WK', 'SHIPPING_CASE'), defaultCatalogue());
    const packing = prediction.briefComputed.briefElements[0]!.packing;
    expect(packing.package.kind).toBe('BUNDLE');
    // Knocked down 503 x 403 x 3.2 mm: 2 bundles a layer; bundles of 65 (208 mm) give 7 layers.
    expect(packing).toMatchObject({ unitsPerPackage: 65, packagesPerLayer: 2, layers: 7, pallets: 11 });
    expect(prediction.briefPrice.deliveryCost).toBe(11 * 78);
  });

  it('E-flute RSC in shipping cases (settings AS_BRIEF): modular cases, 15 pallets (27 before issue 18)', () => {
    const catalogue = defaultCatalogue();
    catalogue.settings.corrugatedPacking = 'AS_BRIEF';
    const prediction = priceBrief(rsc(300, 200, 200, 'CORR-E-WK', 'SHIPPING_CASE'), catalogue);
    const packing = prediction.briefComputed.briefElements[0]!.packing;
    expect(packing.package.kind).toBe('SHIPPING_CASE');
    expect(packing.pallets).toBe(15);
    expect(prediction.briefPrice.deliveryCost).toBe(15 * 78);
  });

  it('B-flute 400 x 300 x 300: one 706 x 606 bundle a layer, bundles of 30 fill 8 layers: 42 pallets', () => {
    const prediction = priceBrief(rsc(400, 300, 300, 'CORR-B-KK', 'BUNDLE'), defaultCatalogue());
    const element = prediction.briefComputed.briefElements[0]!;
    expect(element.cad.knockedDown).toMatchObject({ length: 706, width: 606, thickness: 6 });
    const packing = element.packing;
    // 15 kg bundles would hold 33 (198 mm, 7 layers: 231 a pallet, 44 pallets); 30 give 240.
    expect(packing).toMatchObject({ unitsPerPackage: 30, packagesPerLayer: 1, layers: 8, pallets: 42 });
    // The volume bound: no packing of 706 x 606 x 6 mm boxes fits 10,000 on fewer than 19 EUR pallets.
    const boxesPerPalletByVolume = (1200 * 800 * (1600 - 144)) / (706 * 606 * 6);
    expect(Math.ceil(10_000 / boxesPerPalletByVolume)).toBe(19);
  });
});
