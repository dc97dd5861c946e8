/** The SVG drawings are well-formed and draw what the data says. */
import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../../src/pricing/default-catalogue.ts';
import {
  type BriefInput,
  priceBrief,
  renderDieLineSvg,
  renderImpositionSvg,
} from '../../src/pricing/index.ts';

/** Minimal XML check: one root, every tag closed in order, attributes quoted. */
function expectWellFormedXml(svg: string) {
  expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  expect(svg.endsWith('</svg>')).toBe(true);
  const stack: string[] = [];
  const tags = svg.match(/<[^>]+>/g) ?? [];
  expect(tags.join('')).toHaveLength(svg.replace(/>[^<]*</g, '><').length);
  for (const tag of tags) {
    expect(tag).toMatch(/^<\/?[a-zA-Z][\w:-]*(\s+[\w:-]+="[^"<>]*")*\s*\/?>$/);
    if (tag.startsWith('</')) expect(stack.pop()).toBe(tag.slice(2, -1));
    else if (!tag.endsWith('/>')) stack.push(tag.slice(1).split(/[\s>]/)[0]!);
  }
  expect(stack).toEqual([]);
}

const count = (svg: string, needle: string) => svg.split(needle).length - 1;

const brief: BriefInput = {
  briefElements: [
    {
      position: 0,
      productId: 'STE',
      lengthDimension: 120,
      widthDimension: 40,
      heightDimension: 180,
      materialReferenceId: 'GC1-350',
      decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
      wantDecoration: true,
      sidePrinted: 'RECTO',
      rectoColorCount: 3,
      versoColorCount: 0,
      wantWindow: true,
      windowWidth: 50,
      windowHeight: 80,
    },
    {
      position: 1,
      productId: '0201',
      lengthDimension: 400,
      widthDimension: 300,
      heightDimension: 300,
      materialReferenceId: 'CORR-B-KK',
      decorationsCount: [{ decorationIndex: 0, quantity: 500 }],
      wantDecoration: false,
    },
  ],
};
const prediction = priceBrief(brief, defaultCatalogue());

describe('renderDieLineSvg', () => {
  for (const element of prediction.briefComputed.briefElements) {
    it(`draws every cut and crease of ${element.cadKey}`, () => {
      const svg = renderDieLineSvg(element.dieLine);
      expectWellFormedXml(svg);
      const cuts = element.dieLine.segments.filter((s) => s.kind === 'CUT').length;
      const creases = element.dieLine.segments.filter((s) => s.kind === 'CREASE').length;
      expect(count(svg, '<path class="cut"')).toBe(cuts);
      expect(count(svg, '<path class="crease"')).toBe(creases);
      expect(cuts).toBe(element.cad.cutSegments);
      expect(creases).toBe(element.cad.creaseSegments);
      // creases dashed, cuts solid
      expect(svg).toMatch(/\.crease\{[^}]*stroke-dasharray/);
      expect(svg).not.toMatch(/\.cut\{[^}]*stroke-dasharray/);
      expect(svg).toContain(
        `blank ${element.cadKey === 'STE' ? 'width' : 'length'} ${element.cad.blankWidth}`,
      );
      expect(svg).toContain(`blank height ${element.cad.blankHeight}`);
    });
  }

  it('draws the window opening of the tuck end', () => {
    const ste = prediction.briefComputed.briefElements[0]!;
    expect(ste.dieLine.holes).toHaveLength(1);
    expect(count(renderDieLineSvg(ste.dieLine), '<polygon fill="#fff"')).toBe(1);
  });
});

describe('renderImpositionSvg', () => {
  it('draws the sheet, the gripper and every placed blank', () => {
    const variant = prediction.briefPrice.predictionRequestsComputed.find(
      (v) => v.position === 0 && v.selected,
    )!;
    const dieLine = prediction.briefComputed.briefElements[0]!.dieLine;
    const svg = renderImpositionSvg(variant.imposition, dieLine);
    expectWellFormedXml(svg);
    expect(count(svg, '<g class="placement')).toBe(variant.layoutCount);
    expect(count(svg, 'class="placement rotated"')).toBe(
      variant.imposition.placements.filter((p) => p.rotated).length,
    );
    expect(count(svg, 'rotate(90)')).toBe(variant.imposition.placements.filter((p) => p.rotated).length);
    expect(svg).toContain(
      `<rect class="sheet" x="0" y="0" width="${variant.sheetSizeWidth}" height="${variant.sheetSizeHeight}"/>`,
    );
    expect(svg).toContain(
      `<rect class="gripper" x="0" y="0" width="${variant.sheetSizeWidth}" height="${variant.imposition.margins.gripperMm}"/>`,
    );
    expect(svg).toContain(`${variant.layoutCount} ups`);
  });

  it('falls back to bounding boxes without a die-line', () => {
    const variant = prediction.briefPrice.predictionRequestsComputed.find((v) => v.position === 1)!;
    const svg = renderImpositionSvg(variant.imposition);
    expectWellFormedXml(svg);
    expect(count(svg, '<rect class="blank"')).toBe(variant.layoutCount);
  });
});
