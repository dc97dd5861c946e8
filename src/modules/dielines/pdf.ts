/**
 * The die-line as a PDF artwork template for the buyer's designer, one page per element:
 * the page is the blank plus the bleed on every side (TrimBox = the blank), the rules in named
 * spot colours set to overprint, each processing step on its own optional-content layer tagged
 * the ISO 19593-1 way (`GTS_Metadata` with `GTS_ProcStepsGroup` / `GTS_ProcStepsType` on the
 * OCG), and the panel names, dimensions and title block on layers that do not print.
 *
 * pdfkit writes the document and the Separation colour spaces (addSpotColor); what it lacks is
 * added with its low-level hooks: OCG dictionaries and the catalogue's OCProperties (doc.ref and
 * the root dictionary), marked content (`/OC /name BDC ... EMC` through addContent) and the
 * overprint graphics state (an ExtGState with OP/op/OPM). No clock is read: the dates come from
 * the caller (the brief), so the same template always has the same bytes.
 */
import type PDFKitDocument from 'pdfkit';
import type { Point } from '../../pricing/index.ts';
import { loadFonts, loadPdfkit } from '../quotes/pdf-document.ts';
import { BLEED_MM, type Drawing, type RuleType } from './drawing.ts';

/** pdfkit's document with the two methods its type definitions miss (both exist since 0.15). */
type Doc = PDFKit.PDFDocument & {
  addSpotColor(name: string, c: number, m: number, y: number, k: number): Doc;
  arc(x: number, y: number, radius: number, start: number, end: number, anticlockwise?: boolean): Doc;
};
type Ref = PDFKit.PDFKitReference;

const MM = 72 / 25.4;
const FONT = 'Body';
const BOLD = 'Bold';

/** A processing-step or information layer of the template. */
export interface LayerSpec {
  key: string;
  /** Name the designer sees in the viewer's layer panel. */
  name: string;
  /** ISO 19593-1 group and type (type only for the groups that have types). */
  group: 'Structural' | 'Dimensions' | 'Legend';
  type?: string;
  /** Layers that carry information only are visible on screen and never print. */
  prints: boolean;
}

export const TEMPLATE_LAYERS = {
  CUT: { key: 'CUT', name: 'Cutting', group: 'Structural', type: 'Cutting', prints: true },
  CREASE: { key: 'CREASE', name: 'Creasing', group: 'Structural', type: 'Creasing', prints: true },
  PERFORATION: {
    key: 'PERFORATION',
    name: 'Perforating',
    group: 'Structural',
    type: 'Perforating',
    prints: true,
  },
  PARTIAL_CUT: {
    key: 'PARTIAL_CUT',
    name: 'Partial cutting',
    group: 'Structural',
    type: 'PartialCutting',
    prints: true,
  },
  BLEED: { key: 'BLEED', name: 'Bleed', group: 'Structural', type: 'Bleed', prints: true },
  SAFE: { key: 'SAFE', name: 'Safe zone', group: 'Legend', prints: false },
  DIMENSIONS: { key: 'DIMENSIONS', name: 'Dimensions', group: 'Dimensions', prints: false },
  INFO: { key: 'INFO', name: 'Panels and title block', group: 'Legend', prints: false },
} as const satisfies Record<string, LayerSpec>;

/** Spot colour (Separation) of each line type, with its CMYK alternate (percent). */
export const SPOT_COLOURS = {
  CUT: { name: 'CutContour', cmyk: [0, 100, 0, 0] },
  CREASE: { name: 'Crease', cmyk: [100, 0, 0, 0] },
  PERFORATION: { name: 'Perforation', cmyk: [0, 0, 100, 0] },
  PARTIAL_CUT: { name: 'PartialCut', cmyk: [50, 100, 0, 0] },
  BLEED: { name: 'Bleed', cmyk: [0, 50, 100, 0] },
  SAFE: { name: 'Safe', cmyk: [100, 0, 100, 0] },
} as const;

const RULE_STYLE: Record<RuleType, { width: number; dash?: [number, number] }> = {
  CUT: { width: 0.5 },
  CREASE: { width: 0.5, dash: [4, 2] },
  PERFORATION: { width: 0.5, dash: [1, 1] },
  PARTIAL_CUT: { width: 0.5, dash: [4, 1] },
};

export interface TemplatePage {
  drawing: Drawing;
  /** Title block rows, label and value (brief, style, inside dimensions, board, grain, blank, date). */
  titleBlock: [string, string][];
}

export interface TemplateOptions {
  title: string;
  /** The document's creation date (the brief version's date), never the clock. */
  date: Date;
  bleedMm?: number;
  /** Layers (TEMPLATE_LAYERS keys) off when the file opens, e.g. a preview of the artwork alone. */
  layersOff?: string[];
}

/** The OCGs of a document, made once and shared by every page. */
function createLayers(doc: Doc, used: LayerSpec[], layersOff: string[]) {
  const refs = new Map<string, Ref>();
  for (const spec of used) {
    const dict: Record<string, unknown> = { Type: 'OCG', Name: new String(spec.name) };
    dict.GTS_Metadata = spec.type
      ? { GTS_ProcStepsGroup: spec.group, GTS_ProcStepsType: spec.type }
      : { GTS_ProcStepsGroup: spec.group };
    if (!spec.prints) dict.Usage = { Print: { PrintState: 'OFF' }, View: { ViewState: 'ON' } };
    dict.Intent = ['View', 'Design'];
    const ref = doc.ref(dict);
    endRef(ref);
    refs.set(spec.key, ref);
  }
  const all = used.map((s) => refs.get(s.key)!);
  // The root dictionary is pdfkit's internal `_root`; OCProperties is written with it at end().
  const root = (doc as unknown as { _root: { data: Record<string, unknown> } })._root;
  root.data.OCProperties = {
    OCGs: all,
    D: {
      Name: new String('Default'),
      Order: all,
      ON: used.filter((s) => !layersOff.includes(s.key)).map((s) => refs.get(s.key)!),
      OFF: used.filter((s) => layersOff.includes(s.key)).map((s) => refs.get(s.key)!),
      // Viewers apply the layers' Print usage when printing: the information layers stay off paper.
      AS: [{ Event: 'Print', Category: ['Print'], OCGs: all }],
    },
  };
  return refs;
}

/** Writes a reference's object now (pdfkit's typings want a chunk; none is needed). */
const endRef = (ref: Ref) => (ref as unknown as { end(): void }).end();

/** Content inside an optional-content layer: `/OC /name BDC ... EMC`. */
function inLayer(doc: Doc, ref: Ref, key: string, draw: () => void) {
  const page = (doc as unknown as { page: { resources: { data: Record<string, Record<string, Ref>> } } })
    .page;
  const resources = page.resources.data;
  resources.Properties ??= {};
  const name = `OC${key}`;
  resources.Properties[name] = ref;
  doc.addContent(`/OC /${name} BDC`);
  draw();
  doc.addContent('EMC');
}

/** Overprint on for stroke and fill (OPM 1: zero tint values leave the plates under them). */
function overprint(doc: Doc, state: Ref) {
  const page = (doc as unknown as { page: { ext_gstates: Record<string, Ref> } }).page;
  page.ext_gstates.GsOP = state;
  doc.addContent('/GsOP gs');
}

export async function dieLineTemplatePdf(pages: TemplatePage[], options: TemplateOptions): Promise<Buffer> {
  const PDFDocument = await loadPdfkit();
  const { regular, bold } = loadFonts();
  const bleedMm = options.bleedMm ?? BLEED_MM;
  const doc = new PDFDocument({
    autoFirstPage: false,
    font: null as unknown as string,
    compress: true,
    pdfVersion: '1.6',
    info: {
      Title: options.title,
      Creator: 'packaging-quote-service',
      Producer: 'packaging-quote-service',
      CreationDate: options.date,
      ModDate: options.date,
    },
  }) as Doc;
  doc.registerFont(FONT, regular);
  doc.registerFont(BOLD, bold);
  for (const spot of Object.values(SPOT_COLOURS)) {
    const [c, m, y, k] = spot.cmyk;
    doc.addSpotColor(spot.name, c, m, y, k);
  }
  const ruleTypes = new Set(pages.flatMap((p) => p.drawing.rules.map((r) => r.rule)));
  const used: LayerSpec[] = [
    ...(['CUT', 'CREASE', 'PERFORATION', 'PARTIAL_CUT'] as const)
      .filter((t) => ruleTypes.has(t))
      .map((t) => TEMPLATE_LAYERS[t]),
    // An imposition sheet has no bleed or safe zone: no empty layers for it.
    ...(pages.some((p) => p.drawing.bleed.length) ? [TEMPLATE_LAYERS.BLEED] : []),
    ...(pages.some((p) => p.drawing.safe.length) ? [TEMPLATE_LAYERS.SAFE] : []),
    TEMPLATE_LAYERS.DIMENSIONS,
    TEMPLATE_LAYERS.INFO,
  ];
  const layers = createLayers(doc, used, options.layersOff ?? []);
  const op = doc.ref({ Type: 'ExtGState', OP: true, op: true, OPM: 1 });
  endRef(op);

  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  for (const page of pages) drawPage(doc, page, bleedMm, layers, op);
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

function drawPage(doc: Doc, page: TemplatePage, bleedMm: number, layers: Map<string, Ref>, op: Ref) {
  const { drawing } = page;
  const widthPt = (drawing.width + 2 * bleedMm) * MM;
  const heightPt = (drawing.height + 2 * bleedMm) * MM;
  doc.addPage({ size: [widthPt, heightPt], margin: 0 });
  // Labels are placed, never flowed: text near the bottom edge must not make pdfkit start a new
  // page (one page per element), so the page's bottom limit is lifted.
  (doc as unknown as { page: { maxY(): number } }).page.maxY = () => Number.POSITIVE_INFINITY;
  const pageDict = (doc as unknown as { page: { dictionary: { data: Record<string, unknown> } } }).page
    .dictionary.data;
  // Boxes in PDF space (origin lower left): the trim is the blank, the bleed the whole page.
  const b = bleedMm * MM;
  pageDict.TrimBox = [b, b, widthPt - b, heightPt - b].map(round);
  pageDict.BleedBox = [0, 0, widthPt, heightPt].map(round);

  // Drawing coordinates (mm, y up, blank at the origin) to pdfkit's (points, y down).
  const at = (p: Point): [number, number] => [
    round((bleedMm + p.x) * MM),
    round((bleedMm + drawing.height - p.y) * MM),
  ];
  const path = (points: Point[]) => {
    points.forEach((p, i) => {
      const [x, y] = at(p);
      if (i === 0) doc.moveTo(x, y);
      else doc.lineTo(x, y);
    });
    doc.closePath();
  };

  for (const rule of ['CUT', 'CREASE', 'PERFORATION', 'PARTIAL_CUT'] as const) {
    const entities = drawing.rules.filter((r) => r.rule === rule);
    const ref = layers.get(rule);
    if (!entities.length || !ref) continue;
    inLayer(doc, ref, rule, () => {
      doc.save();
      overprint(doc, op);
      const style = RULE_STYLE[rule];
      doc.lineWidth(style.width).lineCap('round').lineJoin('round');
      if (style.dash) doc.dash(style.dash[0] * MM, { space: style.dash[1] * MM });
      doc.strokeColor(SPOT_COLOURS[rule].name);
      for (const e of entities) {
        if (e.type === 'LINE') {
          doc.moveTo(...at({ x: e.x1, y: e.y1 })).lineTo(...at({ x: e.x2, y: e.y2 }));
        } else {
          // y flips, so a counter-clockwise arc in the drawing is clockwise on the page.
          const [cx, cy] = at({ x: e.cx, y: e.cy });
          const rad = (deg: number) => (-deg * Math.PI) / 180;
          doc.arc(cx, cy, e.radius * MM, rad(e.start), rad(e.end), true);
        }
      }
      doc.stroke();
      doc.restore();
    });
  }

  const bleedLayer = layers.get('BLEED');
  if (bleedLayer && drawing.bleed.length)
    inLayer(doc, bleedLayer, 'BLEED', () => {
      doc.save();
      overprint(doc, op);
      doc.lineWidth(0.25).strokeColor(SPOT_COLOURS.BLEED.name);
      path(drawing.bleed);
      doc.stroke();
      doc.restore();
    });

  const safeLayer = layers.get('SAFE');
  if (safeLayer && drawing.safe.length)
    inLayer(doc, safeLayer, 'SAFE', () => {
      doc.save();
      overprint(doc, op);
      doc
        .lineWidth(0.25)
        .dash(1.5 * MM, { space: 1 * MM })
        .strokeColor(SPOT_COLOURS.SAFE.name);
      for (const zone of drawing.safe) path(zone);
      doc.stroke();
      doc.restore();
    });

  const textColour = '#2c6fbb';
  inLayer(doc, layers.get('DIMENSIONS')!, 'DIMENSIONS', () => {
    doc.save();
    doc.lineWidth(0.3).strokeColor(textColour).fillColor(textColour).font(FONT);
    // Inside the blank (the page ends at the bleed): x spans stacked from the lower quarter,
    // y spans from the left quarter, each with its length.
    const size = Math.max(5, Math.min(9, Math.min(drawing.width, drawing.height) * 0.03 * MM));
    let xi = 0;
    let yi = 0;
    for (const d of drawing.dimensions) {
      const label = `${d.label} ${formatMm(d.end - d.start)}`;
      if (d.axis === 'x') {
        const y = drawing.height * 0.25 - xi++ * 6;
        const [x1, py] = at({ x: d.start, y });
        const [x2] = at({ x: d.end, y });
        doc
          .moveTo(x1, py)
          .lineTo(x2, py)
          .moveTo(x1, py - 3)
          .lineTo(x1, py + 3)
          .moveTo(x2, py - 3)
          .lineTo(x2, py + 3);
        doc.stroke();
        doc.fontSize(size).text(label, x1, py - size - 1.5, {
          width: Math.max(x2 - x1, 1),
          align: 'center',
          lineBreak: false,
        });
      } else {
        const x = drawing.width * 0.08 + yi++ * 6;
        const [px, y1] = at({ x, y: d.start });
        const [, y2] = at({ x, y: d.end });
        doc
          .moveTo(px, y1)
          .lineTo(px, y2)
          .moveTo(px - 3, y1)
          .lineTo(px + 3, y1)
          .moveTo(px - 3, y2)
          .lineTo(px + 3, y2);
        doc.stroke();
        doc.save().rotate(-90, { origin: [px, (y1 + y2) / 2] });
        doc.fontSize(size).text(label, px - Math.abs(y1 - y2) / 2, (y1 + y2) / 2 - size - 1.5, {
          width: Math.max(Math.abs(y1 - y2), 1),
          align: 'center',
          lineBreak: false,
        });
        doc.restore();
      }
    }
    doc.restore();
  });

  inLayer(doc, layers.get('INFO')!, 'INFO', () => {
    doc.save();
    doc.fillColor('#5f6b7a');
    for (const panel of drawing.panels) {
      const size = Math.min(10, (Math.min(panel.width, panel.height) * MM) / 5);
      if (size < 3) continue;
      doc.font(BOLD).fontSize(size);
      const [x, y] = at({ x: panel.x - panel.width / 2, y: panel.y });
      doc.text(panel.text, x, y - size / 2, { width: panel.width * MM, align: 'center', lineBreak: false });
    }
    doc.lineWidth(0.5).strokeColor('#e67e22');
    for (const guide of drawing.guides ?? []) {
      guide.points.forEach((p, i) => {
        const [x, y] = at(p);
        if (i === 0) doc.moveTo(x, y);
        else doc.lineTo(x, y);
      });
      if (guide.closed) doc.closePath();
      doc.stroke();
    }
    drawTitleBlock(doc, page, drawing, at);
    doc.restore();
  });
}

/** The title block in the largest panel (or the blank's centre), under the panel's name. */
function drawTitleBlock(doc: Doc, page: TemplatePage, drawing: Drawing, at: (p: Point) => [number, number]) {
  const rows = page.titleBlock;
  // The front panel if the block fits in it at a readable size, else the largest panel.
  const fits = (p: { height: number }) => p.height * MM >= rows.length * 4 * 1.3 + 24;
  const front = drawing.panels.find((p) => p.text === 'front');
  const host = (front && fits(front) ? front : undefined) ??
    drawing.panels.reduce<(typeof drawing.panels)[number] | undefined>(
      (best, p) => (!best || p.width * p.height > best.width * best.height ? p : best),
      undefined,
    ) ?? {
      text: '',
      x: drawing.width / 2,
      y: drawing.height / 2,
      width: drawing.width,
      height: drawing.height,
    };
  const boxWidth = host.width * MM * 0.8;
  let size = 7;
  doc.font(FONT).fontSize(size);
  const widest = Math.max(...rows.map(([label, value]) => doc.widthOfString(`${label}: ${value}`)), 1);
  size = Math.max(2.5, Math.min(7, (7 * boxWidth) / widest));
  const lineHeight = size * 1.3;
  const [cx, cy] = at({ x: host.x, y: host.y });
  let y = cy + 12;
  const x = cx - (widest * size) / 7 / 2;
  if (y + rows.length * lineHeight > cy + (host.height * MM) / 2) y = cy - (rows.length * lineHeight) / 2;
  for (const [label, value] of rows) {
    doc.font(BOLD).fontSize(size).text(`${label}: `, x, y, { continued: true, lineBreak: false });
    doc.font(FONT).text(value, { lineBreak: false });
    y += lineHeight;
  }
}

const round = (value: number) => Math.round(value * 1000) / 1000;

export const formatMm = (value: number) => `${Math.round(value * 10) / 10} mm`;

export type { PDFKitDocument };
