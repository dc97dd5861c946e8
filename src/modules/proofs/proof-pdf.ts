/**
 * The proof PDF of one proof version (docs/proofs.md): the artwork at its print size, centred on
 * the blank, with the die-line over it on its own optional-content layer ("Die-line": cut, crease,
 * bleed and safe lines), and a header with the quote, the line, the version and the preflight
 * findings. pdf-lib keeps a PDF artwork as vector (its first page embedded as a form XObject);
 * rasters are embedded as JPEG (sRGB, at most 3000 px a side: a soft proof, not the print file).
 * Beside it, the folded box in 3/4 view (the 3D snapshot, `foldSnapshot`: vector faces shaded per
 * normal, on the page's right). No clock: the date comes from the caller.
 */
import {
  PDFDocument,
  type PDFFont,
  PDFName,
  PDFOperator,
  PDFOperatorNames,
  type PDFPage,
  PDFString,
  rgb,
  StandardFonts,
} from 'pdf-lib';
import sharp from 'sharp';
import { boardColours, foldSnapshot } from '../../pricing/geometry/fold-snapshot.ts';
import type { DieLine, Point } from '../../pricing/index.ts';
import type { Drawing } from '../dielines/drawing.ts';
import type { ArtworkKind } from './artwork.ts';

const MM = 72 / 25.4;
const MARGIN_MM = 12;
const HEADER_LINE_PT = 11;

export type ProofInput = {
  artwork: Buffer;
  kind: ArtworkKind;
  /** Print size of the artwork, mm. */
  widthMm: number;
  heightMm: number;
  drawing: Drawing | null;
  /** The engine's die-line: folded into the 3D snapshot beside the artwork (none for flat items). */
  dieLine?: DieLine | null;
  bleedMm: number;
  /** Header lines: quote, line, version, date, then the findings in words. */
  header: string[];
  title: string;
  date: Date;
};

/** WinAnsi only (the standard Helvetica): other characters become close ASCII or `?`. */
const winAnsi = (text: string) =>
  text
    .replace(/[’‘]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[–—]/g, '-')
    .replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

export async function proofPdf(input: ProofInput): Promise<Buffer> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(winAnsi(input.title));
  pdf.setCreator('packaging-quote-service');
  pdf.setProducer('packaging-quote-service');
  pdf.setCreationDate(input.date);
  pdf.setModificationDate(input.date);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);

  const blankW = input.drawing?.width ?? input.widthMm;
  const blankH = input.drawing?.height ?? input.heightMm;
  // The area shown: the template (blank + bleed) and the artwork, both centred on the blank.
  const areaW = Math.max(blankW + 2 * input.bleedMm, input.widthMm);
  const areaH = Math.max(blankH + 2 * input.bleedMm, input.heightMm);
  const headerPt = (input.header.length + 1) * HEADER_LINE_PT + 8;
  const snapshot = input.dieLine ? foldSnapshot(input.dieLine) : null;
  // The snapshot's column: at most as tall as the area and 40% of its width (at least 50 mm).
  const snapMm = snapshot ? Math.max(50, Math.min(areaH, areaW * 0.4)) : 0;
  const snapW = snapshot ? Math.min(snapMm, (snapMm * snapshot.width) / Math.max(snapshot.height, 1)) : 0;
  const sideMm = snapshot ? snapW + MARGIN_MM : 0;
  const pageW = Math.max((areaW + sideMm + 2 * MARGIN_MM) * MM, 420);
  const pageH = (areaH + 2 * MARGIN_MM) * MM + headerPt;
  const page = pdf.addPage([pageW, pageH]);

  // The blank's lower-left corner on the page (points), the area centred in what the snapshot leaves.
  const bx = (pageW - sideMm * MM - blankW * MM) / 2;
  const by = MARGIN_MM * MM + ((areaH - blankH) / 2) * MM;
  const ax = bx + ((blankW - input.widthMm) / 2) * MM;
  const ay = by + ((blankH - input.heightMm) / 2) * MM;
  const artW = input.widthMm * MM;
  const artH = input.heightMm * MM;

  let placed = false;
  try {
    if (input.kind === 'pdf') {
      const [embedded] = await pdf.embedPdf(input.artwork, [0]);
      if (embedded) {
        page.drawPage(embedded, { x: ax, y: ay, width: artW, height: artH });
        placed = true;
      }
    } else {
      const jpeg = await sharp(input.artwork, { pages: 1 })
        .autoOrient()
        .resize(3000, 3000, { fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .toColourspace('srgb')
        .jpeg({ quality: 85 })
        .toBuffer();
      const image = await pdf.embedJpg(jpeg);
      page.drawImage(image, { x: ax, y: ay, width: artW, height: artH });
      placed = true;
    }
  } catch {
    placed = false;
  }
  if (!placed) {
    page.drawText('The artwork could not be placed (see the preflight findings).', {
      x: ax + 6,
      y: ay + artH / 2,
      size: 9,
      font,
      color: rgb(0.7, 0.1, 0.1),
    });
  }

  if (input.drawing) drawDieLine(pdf, page, input.drawing, input.bleedMm, bx, by);
  if (snapshot && input.dieLine) {
    const box = {
      x: pageW - (snapW + MARGIN_MM) * MM,
      y: MARGIN_MM * MM,
      width: snapW * MM,
      height: areaH * MM,
    };
    const drawnTop = drawFoldedBox(page, snapshot, box, input.dieLine.style.startsWith('FEFCO'));
    page.drawText('Folded (3D view)', {
      x: box.x,
      y: drawnTop + 6,
      size: 7,
      font,
      color: rgb(0.37, 0.42, 0.48),
    });
  }
  drawHeader(page, input.header, font, bold, pageW, pageH);

  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

/** The die-line on the optional-content group "Die-line" (so a viewer can hide it). */
function drawDieLine(
  pdf: PDFDocument,
  page: PDFPage,
  drawing: Drawing,
  bleedMm: number,
  bx: number,
  by: number,
) {
  const ocg = pdf.context.register(pdf.context.obj({ Type: 'OCG', Name: PDFString.of('Die-line') }));
  pdf.catalog.set(
    PDFName.of('OCProperties'),
    pdf.context.obj({ OCGs: [ocg], D: { Name: PDFString.of('Default'), Order: [ocg], ON: [ocg] } }),
  );
  const resources = page.node.Resources()!;
  resources.set(PDFName.of('Properties'), pdf.context.obj({ OCDieLine: ocg }));
  page.pushOperators(
    PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of('OC'), PDFName.of('OCDieLine')]),
  );
  const at = (p: Point) => ({ x: bx + p.x * MM, y: by + p.y * MM });
  const line = (a: Point, b: Point, colour: ReturnType<typeof rgb>, dash?: number[], thickness = 0.6) =>
    page.drawLine({ start: at(a), end: at(b), color: colour, thickness, dashArray: dash });
  const polygon = (points: Point[], colour: ReturnType<typeof rgb>, dash?: number[]) => {
    for (let i = 0; i < points.length; i++)
      line(points[i]!, points[(i + 1) % points.length]!, colour, dash, 0.4);
  };
  const cut = rgb(0.9, 0, 0.55);
  const crease = rgb(0, 0.55, 0.9);
  for (const rule of drawing.rules) {
    const colour = rule.rule === 'CUT' ? cut : crease;
    const dash = rule.rule === 'CUT' ? undefined : rule.rule === 'CREASE' ? [4, 2] : [1, 1];
    if (rule.type === 'LINE') {
      line({ x: rule.x1, y: rule.y1 }, { x: rule.x2, y: rule.y2 }, colour, dash);
    } else {
      const sweep = (((rule.end - rule.start) % 360) + 360) % 360 || 360;
      const steps = Math.max(4, Math.ceil(sweep / 10));
      const point = (deg: number) => ({
        x: rule.cx + rule.radius * Math.cos((deg * Math.PI) / 180),
        y: rule.cy + rule.radius * Math.sin((deg * Math.PI) / 180),
      });
      for (let i = 0; i < steps; i++)
        line(
          point(rule.start + (sweep * i) / steps),
          point(rule.start + (sweep * (i + 1)) / steps),
          colour,
          dash,
        );
    }
  }
  if (bleedMm > 0 && drawing.bleed.length) polygon(drawing.bleed, rgb(0.1, 0.65, 0.2));
  for (const zone of drawing.safe) polygon(zone, rgb(0.2, 0.3, 0.9), [2, 2]);
  page.pushOperators(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
}

/**
 * The folded box (the snapshot's faces back to front) scaled into the box (points, y up), filled
 * with the board's colour shaded per face and outlined.
 */
function drawFoldedBox(
  page: PDFPage,
  snapshot: NonNullable<ReturnType<typeof foldSnapshot>>,
  box: { x: number; y: number; width: number; height: number },
  kraft: boolean,
) {
  const scale = Math.min(box.width / snapshot.width, box.height / snapshot.height);
  const ox = box.x + (box.width - snapshot.width * scale) / 2;
  // The snapshot's top on the page (y up), centred in the box.
  const top = box.y + box.height - (box.height - snapshot.height * scale) / 2;
  const colours = boardColours(kraft);
  const edge = Number.parseInt(colours.edge.slice(1), 16);
  const edgeColour = rgb(((edge >> 16) & 255) / 255, ((edge >> 8) & 255) / 255, (edge & 255) / 255);
  for (const polygon of snapshot.polygons) {
    // drawSvgPath reads y downwards from its origin (x, y): the snapshot's own coordinates.
    const path = polygon.points
      .map((p, i) => `${i === 0 ? 'M' : 'L'} ${(p.x * scale).toFixed(2)} ${(p.y * scale).toFixed(2)}`)
      .join(' ');
    const [r, g, b] = (polygon.outside ? colours.outside : colours.inside).map(
      (c) => (c * polygon.light) / 255,
    );
    page.drawSvgPath(`${path} Z`, {
      x: ox,
      y: top,
      color: rgb(r!, g!, b!),
      borderColor: edgeColour,
      borderWidth: 0.4,
    });
  }
  return top;
}

function drawHeader(
  page: PDFPage,
  lines: string[],
  font: PDFFont,
  bold: PDFFont,
  pageW: number,
  pageH: number,
) {
  let y = pageH - 16;
  page.drawText('PROOF', { x: 18, y, size: 11, font: bold, color: rgb(0.12, 0.3, 0.47) });
  page.drawText('Cut: magenta - Crease: cyan dashed - Bleed: green - Safe zone: blue dashed', {
    x: 70,
    y: y + 1,
    size: 7,
    font,
    color: rgb(0.37, 0.42, 0.48),
  });
  for (const [i, text] of lines.entries()) {
    y -= HEADER_LINE_PT;
    const safe = winAnsi(text);
    let size = 8;
    const used = i === 0 ? bold : font;
    while (size > 4 && used.widthOfTextAtSize(safe, size) > pageW - 36) size -= 0.5;
    page.drawText(safe, { x: 18, y, size, font: used, color: rgb(0.11, 0.14, 0.19) });
  }
}
