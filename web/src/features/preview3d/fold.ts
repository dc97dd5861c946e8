/**
 * The fold geometry lives with the engine's die-line (src/pricing/geometry/fold.ts, pure) so the
 * server draws the same folded box in its PDFs; the 3D preview imports it from here.
 */
export * from '../../../../src/pricing/geometry/fold.ts';
