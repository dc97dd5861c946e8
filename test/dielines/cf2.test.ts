/**
 * CF2 die-lines: golden files for a 0201 and a reverse tuck end checked by hand, every catalogue
 * style and random dimensions read back by the strict reader with the engine's rule lengths, and
 * the reader refusing malformed files.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cf2File, dieLineCf2 } from '../../src/modules/dielines/cf2.ts';
import { Cf2Error, cf2Length, readCf2 } from '../../src/modules/dielines/cf2-reader.ts';
import { drawingOf } from '../../src/modules/dielines/drawing.ts';
import { buildDieLine, type DieLine } from '../../src/pricing/index.ts';
import { anyDieLine, dieLineOf, products } from './fixtures.ts';

const golden = (name: string) => readFileSync(new URL(`./golden/${name}`, import.meta.url), 'utf8');

function totals(text: string) {
  const doc = readCf2(text);
  const sum = (type: number) =>
    doc.flattened.filter((e) => e.type === type).reduce((total, e) => total + cf2Length(e), 0);
  return { doc, cut: sum(1), crease: sum(2) };
}

function expectMatchesEngine(dieLine: DieLine) {
  const { doc, cut, crease } = totals(dieLineCf2(drawingOf(dieLine), 'X', ['test']));
  expect(doc.main.units).toBe('MM');
  expect(doc.main.ur![0]).toBeCloseTo(dieLine.width, 2);
  expect(doc.main.ur![1]).toBeCloseTo(dieLine.height, 2);
  expect(doc.flattened).toHaveLength(dieLine.segments.length);
  // Three decimals per coordinate: each line is within 0.0015 mm of the engine's.
  expect(Math.abs(cut - dieLine.cutLengthMm)).toBeLessThan(0.01);
  expect(Math.abs(crease - dieLine.creaseLengthMm)).toBeLessThan(0.01);
}

describe('CF2 die-lines', () => {
  /*
   * Hand check of the 0201 (inside 300 x 200 x 150 mm, caliper 3, glue flap 35, slots 8):
   * panels are inside + one caliper, so L 303, W 203, H 153. Panel creases at x = 35, 338, 541,
   * 844, blank length 35 + 2 x 303 + 2 x 203 = 1047. Flaps W/2 = 101.5 deep, blank height
   * 153 + 2 x 101.5 = 356 (UR,1047,356). Slots 8 wide centred on the creases: 334-342, 537-545,
   * 840-848, cut down to the flap crease at y = 101.5 (bottom) and 254.5 (top). Cut length:
   * top and bottom edges 2 x (1047 - 35 - 3 x 8) = 1976, slot sides 12 x 101.5 = 1218, slot
   * ends 6 x 8 = 48, the left side (flap edges 2 x 101.5, glue flap 2 x 35 + 153) 426 and the
   * right edge 356: 4024 mm. Creases:
   * 4 panel creases x 153 = 612, flap creases 2 x (299 + 195 + 295 + 199) = 1976: 2588 mm.
   */
  it('writes the hand-checked 0201 golden file', () => {
    const product = { glueFlapMm: 35, tuckFlapMm: 0, dustFlapRatio: 0.5, slotWidthMm: 8 };
    const dieLine = buildDieLine('FEFCO_0201', {
      length: 300,
      width: 200,
      height: 150,
      caliperMm: 3,
      product,
    });
    const text = dieLineCf2(drawingOf(dieLine), '0201-300x200x150', [
      'FEFCO 0201 300 x 200 x 150 mm inside, caliper 3 mm',
    ]);
    expect(text).toBe(golden('0201-300x200x150.cf2'));
    const { cut, crease } = totals(text);
    expect(cut).toBeCloseTo(4024, 6);
    expect(crease).toBeCloseTo(2588, 6);
    expect(text).toContain('\r\nUR,1047,356\r\n');
    expect(text).toContain('\r\nL,2,1,0,334,356,334,254.5,0,0\r\n'); // first slot, top, left side
    expect(text).toContain('\r\nL,2,2,0,338,254.5,338,101.5,0,0\r\n'); // second panel crease
  });

  /*
   * Hand check of the reverse tuck end (inside 100 x 50 x 150, caliper 0.5, glue flap 15, tuck
   * 15, dust flaps 0.5 x W): panels L 100.5, W 50.5, H 150.5; blank width 15 + 2 x 100.5 +
   * 2 x 50.5 = 317. Lids are W + tuck = 65.5 deep, so the blank height is 65.5 + 150.5 + 65.5
   * = 281.5 (UR,317,281.5). The top lid hangs on the back panel (x 15-115.5, up to y = 281.5,
   * 5 mm chamfers = tuck / 3), the bottom lid on the front panel (x 166-266.5, down to y = 0):
   * reversed. Dust flaps are 25 deep with a 12.5 taper (115.5 + 12.5 = 128). The glue flap is
   * tapered 15 at 45 degrees: (0, 80.5) to (0, 201). Lid creases at 216 and 266.5 (top) and
   * 65.5 and 15 (bottom).
   */
  it('writes the hand-checked reverse tuck end golden file', () => {
    const product = { glueFlapMm: 15, tuckFlapMm: 15, dustFlapRatio: 0.5, slotWidthMm: 0 };
    const dieLine = buildDieLine('RTE', { length: 100, width: 50, height: 150, caliperMm: 0.5, product });
    const text = dieLineCf2(drawingOf(dieLine), 'RTE-100x50x150', [
      'Reverse tuck end 100 x 50 x 150 mm inside, caliper 0.5 mm',
    ]);
    expect(text).toBe(golden('rte-100x50x150.cf2'));
    expect(text).toContain('\r\nUR,317,281.5\r\n');
    expect(text).toContain('\r\nL,2,1,0,20,281.5,110.5,281.5,0,0\r\n'); // top lid edge, on the back
    expect(text).toContain('\r\nL,2,1,0,261.5,0,171,0,0,0\r\n'); // bottom lid edge, on the front
    expect(text).toContain('\r\nL,2,1,0,0,80.5,0,201,0,0\r\n'); // glue flap edge
    expect(text).toContain('\r\nL,2,2,0,166,15,266.5,15,0,0\r\n'); // bottom tuck crease
    const { doc } = totals(text);
    expect(doc.comments).toEqual(['Reverse tuck end 100 x 50 x 150 mm inside, caliper 0.5 mm']);
  });

  it.each(products.map((p) => [p.code, p] as const))(
    '%s: reads back with the engine’s rule lengths',
    (_, product) => {
      expectMatchesEngine(dieLineOf(product));
    },
  );

  it('matches the engine on random dimensions for every style (property)', () => {
    fc.assert(
      fc.property(anyDieLine, (dieLine) => {
        expectMatchesEngine(dieLine);
      }),
      { numRuns: 150 },
    );
  });

  it('expands calls with their turn and offset (a sheet of ups)', () => {
    const drawing = drawingOf(dieLineOf(products.find((p) => p.style === 'FLAT')!));
    const text = cf2File({
      name: 'sheet',
      comments: [],
      width: 1000,
      height: 700,
      sub: { name: 'blank', drawing },
      calls: [
        { x: 10, y: 10, angle: 0 },
        { x: 500, y: 10, angle: 90 },
      ],
    });
    const doc = readCf2(text);
    expect(doc.flattened).toHaveLength(2 * drawing.rules.length);
    const turned = doc.flattened.slice(drawing.rules.length);
    // Turned 90 degrees counter-clockwise about the call point: x spans -height..0 from 500.
    const xs = turned.flatMap((e) => (e.kind === 'L' ? [e.x1, e.x2] : []));
    expect(Math.min(...xs)).toBeCloseTo(500 - drawing.height, 6);
    expect(Math.max(...xs)).toBeCloseTo(500, 6);
  });

  it('reads arcs with their direction', () => {
    const doc = readCf2(
      [
        '$BOF',
        'V2',
        'ORDER',
        'END',
        'MAIN,X',
        'UM',
        'LL,0,0',
        'UR,20,20',
        'SCALE,1,1',
        'A,2,1,0,10,0,0,10,0,0,1,0,0',
        'END',
        '$EOF',
      ].join('\n'),
    );
    expect(cf2Length(doc.flattened[0]!)).toBeCloseTo((Math.PI * 10) / 2, 9);
    const clockwise = readCf2(
      [
        '$BOF',
        'V2',
        'ORDER',
        'END',
        'MAIN,X',
        'UM',
        'LL,0,0',
        'UR,20,20',
        'SCALE,1,1',
        'A,2,1,0,10,0,0,10,0,0,-1,0,0',
        'END',
        '$EOF',
      ].join('\n'),
    );
    expect(cf2Length(clockwise.flattened[0]!)).toBeCloseTo((3 * Math.PI * 10) / 2, 9);
  });

  it.each([
    ['no $BOF', (t: string) => t.replace('$BOF\r\n', '')],
    ['no $EOF', (t: string) => t.replace('$EOF\r\n', '')],
    ['a section not closed', (t: string) => t.replace(/END\r\n\$EOF/, '$EOF')],
    ['a short L record', (t: string) => t.replace('L,2,1,0,35,356,334,356,0,0', 'L,2,1,0,35,356,334')],
    [
      'a non-numeric field',
      (t: string) => t.replace('L,2,1,0,35,356,334,356,0,0', 'L,2,1,0,35,abc,334,356,0,0'),
    ],
    ['an unknown record', (t: string) => t.replace('SCALE,1,1', 'Q,1')],
    ['a call to an unknown SUB', (t: string) => t.replace('C,0201-300x200x150', 'C,NOPE')],
    ['no units', (t: string) => t.replace('UM\r\n', '')],
  ])('refuses a file with %s', (_, spoil) => {
    expect(() => readCf2(spoil(golden('0201-300x200x150.cf2')))).toThrow(Cf2Error);
  });
});
