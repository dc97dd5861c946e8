/** Die-lines of every product of the default catalogue, built by the engine itself. */
import fc from 'fast-check';
import { defaultCatalogue } from '../../src/pricing/default-catalogue.ts';
import { buildDieLine, type DieLine, type Product } from '../../src/pricing/index.ts';

export const products: Product[] = defaultCatalogue().products;

/** Corrugated styles get a corrugated caliper, folding cartons a boxboard one. */
export const caliperOf = (product: Product) => (product.style.startsWith('FEFCO') ? 3 : 0.5);

export function dieLineOf(
  product: Product,
  size: { length: number; width: number; height: number } = { length: 150, width: 80, height: 120 },
  caliperMm = caliperOf(product),
): DieLine {
  return buildDieLine(product.style, { ...size, caliperMm, product });
}

/** Random inside dimensions inside the product's limits, and a caliper. */
export const sizeFor = (product: Product) =>
  fc.record({
    length: fc.double({ min: product.minDimensions.length, max: product.maxDimensions.length, noNaN: true }),
    width: fc.double({ min: product.minDimensions.width, max: product.maxDimensions.width, noNaN: true }),
    height: fc.double({
      min: Math.max(product.minDimensions.height, 1),
      max: Math.max(product.maxDimensions.height, 1),
      noNaN: true,
    }),
    caliperMm: product.style.startsWith('FEFCO')
      ? fc.double({ min: 1.5, max: 7, noNaN: true })
      : fc.double({ min: 0.2, max: 0.8, noNaN: true }),
  });

/** Any product of the catalogue with random dimensions: its die-line. */
export const anyDieLine = fc
  .constantFrom(...products)
  .chain((product) => sizeFor(product).map(({ caliperMm, ...size }) => dieLineOf(product, size, caliperMm)));
