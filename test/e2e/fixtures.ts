import type { E2eSession } from './harness.ts';

/**
 * A brief of one STE folding carton through the API: 120 x 40 x 180 mm in GC1 350 g/m2, 5,000
 * printed 4/0 on the recto; the job the e2e scenarios quote. Answers the created brief.
 */
export async function createCartonBrief(api: E2eSession['api'], companyId: string, name: string) {
  const products = (await api('GET', '/api/products')) as { id: string; code: string }[];
  const boards = (await api('GET', '/api/material-references')) as { id: string; code: string }[];
  return api('POST', '/api/briefs', {
    name,
    companyId,
    briefElements: [
      {
        position: 0,
        productId: products.find((p) => p.code === 'STE')!.id,
        lengthDimension: 120,
        widthDimension: 40,
        heightDimension: 180,
        materialReferenceId: boards.find((b) => b.code === 'GC1-350')!.id,
        decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
        wantDecoration: true,
        sidePrinted: 'RECTO',
        rectoColorCount: 4,
        versoColorCount: 0,
      },
    ],
  });
}
