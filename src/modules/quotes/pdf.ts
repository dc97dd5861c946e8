/**
 * The quote PDF (A4, pdfkit): seller and quote header, customer and contact blocks, the item
 * tree with quantities, unit prices, tooling, delivery and totals, the validity and an acceptance
 * box, then the die-line of every brief element drawn as vector paths. Pure: it takes the data
 * and a language and returns the bytes.
 *
 * Text is set in DejaVu Sans (embedded, subset), so any name in any Latin, Greek or Cyrillic
 * script prints as typed.
 */
import { readFileSync } from 'node:fs';
import type PDFKitDocument from 'pdfkit';
import type { DieLine } from '../../pricing/index.ts';
import { type Formatter, formatterFor, type Language } from './i18n.ts';

export type PdfItem = {
  id: string;
  position: number;
  reference: string | null;
  name: string;
  description: string | null;
  quantity: number;
  price: number | null;
  totalPrice: number;
  toolingCost: number;
  deliveryCost: number;
  comment: string | null;
  length: number | null;
  width: number | null;
  height: number | null;
  briefElementId: string | null;
};

export type PdfQuote = {
  organisationName: string;
  code: string | null;
  name: string;
  version: number;
  currency: string;
  createdAt: Date;
  publishedAt: Date | null;
  validUntil: Date | null;
  totalPrice: number;
  toolingCost: number;
  deliveryCost: number;
  email: string | null;
  phoneNumber: string | null;
  receiverName: string | null;
  company: { name: string };
  project: { name: string } | null;
  contact: {
    firstName: string | null;
    lastName: string | null;
    email: string | null;
    phoneNumber: string | null;
  } | null;
  address: {
    name: string | null;
    street1: string;
    street2: string | null;
    street3: string | null;
    postcode: string | null;
    city: string;
    region: string | null;
    countryCode: string;
  } | null;
  items: (PdfItem & { children: PdfItem[] })[];
  /** Die-lines of the element items, by item id. */
  dieLines: Map<string, DieLine>;
};

export type RenderOptions = { compress?: boolean };

export const FONT = 'Body';
const BOLD = 'Bold';

/**
 * pdfkit (with fontkit, its Unicode tables and a brotli decoder: about 10 MB of resident memory
 * once loaded) is imported on the first render rather than at start, since most processes never
 * render a PDF.
 */
let pdfkit: Promise<typeof PDFKitDocument> | undefined;
function loadPdfkit() {
  pdfkit ??= import('pdfkit').then((module) => module.default);
  return pdfkit;
}

let fonts: { regular: Buffer; bold: Buffer } | undefined;
function loadFonts() {
  fonts ??= {
    regular: readFileSync(new URL('./assets/DejaVuSans.ttf', import.meta.url)),
    bold: readFileSync(new URL('./assets/DejaVuSans-Bold.ttf', import.meta.url)),
  };
  return fonts;
}

export const INK = '#1d2430';
const MUTED = '#5f6b7a';
const RULE = '#c9d1db';
const SHADE = '#eef2f6';
const ACCENT = '#1f4e79';

export const MARGIN = 42;
const FOOTER = 28;

type Doc = PDFKit.PDFDocument;

/** A new document with the fonts registered, writing into `chunks`. */
export async function createDocument(options: RenderOptions & { title?: string; author?: string } = {}) {
  const PDFDocument = await loadPdfkit();
  const { regular, bold } = loadFonts();
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    // No default font: pdfkit would parse Helvetica's metrics for every document, unused here.
    font: null as unknown as string,
    bufferPages: true,
    compress: options.compress ?? true,
    info: {
      Title: options.title ?? 'Quote',
      Author: options.author ?? '',
      Creator: 'packaging-quote-service',
    },
  });
  doc.registerFont(FONT, regular);
  doc.registerFont(BOLD, bold);
  doc.font(FONT);
  return doc;
}

/** Collects the document's bytes once `end()` is called. */
export function bytesOf(doc: Doc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

const contentWidth = (doc: Doc) => doc.page.width - MARGIN * 2;
const bottomLimit = (doc: Doc) => doc.page.height - MARGIN - FOOTER;

function addressLines(address: NonNullable<PdfQuote['address']>): string[] {
  return [
    address.name,
    address.street1,
    address.street2,
    address.street3,
    [address.postcode, address.city].filter(Boolean).join(' '),
    [address.region, address.countryCode].filter(Boolean).join(', '),
  ].filter((line): line is string => Boolean(line?.trim()));
}

const dimensionsOf = (item: PdfItem) => {
  const values = [item.length, item.width, item.height].filter((v): v is number => v != null && v > 0);
  return values.length ? values : null;
};

function header(doc: Doc, quote: PdfQuote, f: Formatter) {
  const l = f.labels;
  const width = contentWidth(doc);
  const top = MARGIN;
  doc
    .font(BOLD)
    .fontSize(15)
    .fillColor(ACCENT)
    .text(quote.organisationName, MARGIN, top, { width: width * 0.55 });
  doc
    .font(BOLD)
    .fontSize(24)
    .fillColor(INK)
    .text(l.title.toUpperCase(), MARGIN, top - 4, { width, align: 'right' });
  // The reference table on the right.
  const rows: [string, string][] = [[l.code, quote.code ?? '—']];
  if (quote.version > 1) rows.push([l.version, String(quote.version)]);
  rows.push([l.issued, f.date(quote.publishedAt ?? quote.createdAt)]);
  if (quote.validUntil) rows.push([l.validUntil, f.date(quote.validUntil)]);
  rows.push([l.currency, quote.currency]);
  if (quote.project) rows.push([l.project, quote.project.name]);
  let y = top + 34;
  const labelWidth = 95;
  const valueWidth = 150;
  const x = MARGIN + width - labelWidth - valueWidth;
  for (const [label, value] of rows) {
    doc.font(FONT).fontSize(8.5).fillColor(MUTED).text(label, x, y, { width: labelWidth });
    doc
      .font(BOLD)
      .fontSize(8.5)
      .fillColor(INK)
      .text(value, x + labelWidth, y, { width: valueWidth, align: 'right' });
    y += Math.max(13, doc.heightOfString(value, { width: valueWidth }) + 3);
  }
  return Math.max(y, top + 60) + 10;
}

function blocks(doc: Doc, quote: PdfQuote, f: Formatter, top: number) {
  const l = f.labels;
  const width = contentWidth(doc);
  const gap = 16;
  const column = (width - gap) / 2;
  const block = (x: number, title: string, lines: string[], strong?: string) => {
    doc
      .font(BOLD)
      .fontSize(7.5)
      .fillColor(MUTED)
      .text(title.toUpperCase(), x + 8, top + 7, { width: column - 16 });
    let y = top + 20;
    if (strong) {
      doc
        .font(BOLD)
        .fontSize(10)
        .fillColor(INK)
        .text(strong, x + 8, y, { width: column - 16 });
      y = doc.y + 2;
    }
    for (const line of lines) {
      doc
        .font(FONT)
        .fontSize(9)
        .fillColor(INK)
        .text(line, x + 8, y, { width: column - 16 });
      y = doc.y + 1;
    }
    return y;
  };
  const customerLines = quote.address ? addressLines(quote.address) : [];
  const contactName =
    quote.receiverName ??
    ([quote.contact?.firstName, quote.contact?.lastName].filter(Boolean).join(' ') || null);
  const contactLines = [
    (quote.email ?? quote.contact?.email) ? `${l.email}: ${quote.email ?? quote.contact?.email}` : null,
    (quote.phoneNumber ?? quote.contact?.phoneNumber)
      ? `${l.phone}: ${quote.phoneNumber ?? quote.contact?.phoneNumber}`
      : null,
  ].filter((line): line is string => Boolean(line));
  const bottom = Math.max(
    block(MARGIN, l.customer, customerLines, quote.company.name),
    block(
      MARGIN + column + gap,
      l.contact,
      contactLines.length || contactName ? contactLines : ['—'],
      contactName ?? undefined,
    ),
  );
  const height = bottom - top + 6;
  doc.lineWidth(0.6).strokeColor(RULE);
  doc.roundedRect(MARGIN, top, column, height, 4).stroke();
  doc.roundedRect(MARGIN + column + gap, top, column, height, 4).stroke();
  let y = top + height + 14;
  doc.font(BOLD).fontSize(11).fillColor(INK).text(quote.name, MARGIN, y, { width });
  y = doc.y + 8;
  return y;
}

type Column = { key: string; title: string; width: number; align: 'left' | 'right' };

function columns(doc: Doc, f: Formatter): Column[] {
  const l = f.labels;
  const fixed: Column[] = [
    { key: 'no', title: '#', width: 26, align: 'left' },
    { key: 'description', title: l.description, width: 0, align: 'left' },
    { key: 'quantity', title: l.quantity, width: 52, align: 'right' },
    { key: 'unit', title: l.unitPrice, width: 66, align: 'right' },
    { key: 'tooling', title: l.tooling, width: 60, align: 'right' },
    { key: 'delivery', title: l.delivery, width: 60, align: 'right' },
    { key: 'total', title: l.total, width: 72, align: 'right' },
  ];
  const used = fixed.reduce((sum, c) => sum + c.width, 0);
  fixed[1]!.width = contentWidth(doc) - used;
  return fixed;
}

function tableHeader(doc: Doc, cols: Column[], y: number) {
  const height = 18;
  doc.rect(MARGIN, y, contentWidth(doc), height).fill(SHADE);
  let x = MARGIN;
  for (const col of cols) {
    doc
      .font(BOLD)
      .fontSize(7.5)
      .fillColor(MUTED)
      .text(col.title, x + 4, y + 5.5, { width: col.width - 8, align: col.align, lineBreak: false });
    x += col.width;
  }
  return y + height;
}

type Row = {
  no: string;
  title: string;
  details: string[];
  cells: Record<string, string>;
  strong: boolean;
  indent: number;
};

function rowHeight(doc: Doc, cols: Column[], row: Row) {
  const width = cols[1]!.width - 8 - row.indent;
  doc.font(row.strong ? BOLD : FONT).fontSize(8.5);
  let height = doc.heightOfString(row.title, { width });
  doc.font(FONT).fontSize(7.5);
  for (const detail of row.details) height += doc.heightOfString(detail, { width }) + 1;
  return height + 9;
}

function drawRow(doc: Doc, cols: Column[], row: Row, y: number) {
  let x = MARGIN;
  for (const col of cols) {
    const textX = x + 4 + (col.key === 'description' ? row.indent : 0);
    const width = col.width - 8 - (col.key === 'description' ? row.indent : 0);
    if (col.key === 'description') {
      doc
        .font(row.strong ? BOLD : FONT)
        .fontSize(8.5)
        .fillColor(INK)
        .text(row.title, textX, y + 4.5, { width });
      for (const detail of row.details) {
        doc
          .font(FONT)
          .fontSize(7.5)
          .fillColor(MUTED)
          .text(detail, textX, doc.y + 1, { width });
      }
    } else {
      const value = col.key === 'no' ? row.no : (row.cells[col.key] ?? '');
      doc
        .font(row.strong || col.key === 'total' ? BOLD : FONT)
        .fontSize(8.5)
        .fillColor(INK)
        .text(value, textX, y + 4.5, { width, align: col.align, lineBreak: false });
    }
    x += col.width;
  }
}

function itemRows(quote: PdfQuote, f: Formatter): Row[] {
  const l = f.labels;
  const rows: Row[] = [];
  const money = (value: number) => (value ? f.money(value) : '—');
  const detailsOf = (item: PdfItem) => {
    const details: string[] = [];
    if (item.reference) details.push(`${l.reference} ${item.reference}`);
    if (item.description) details.push(item.description);
    const dims = dimensionsOf(item);
    if (dims) details.push(`${l.dimensions}: ${dims.map((d) => f.number(d, 1)).join(' × ')} mm`);
    if (item.comment) details.push(`${l.comment}: ${item.comment}`);
    return details;
  };
  const line = (item: PdfItem, no: string, indent: number): Row => ({
    no,
    title: item.name,
    details: detailsOf(item),
    cells: {
      quantity: f.quantity(item.quantity),
      unit: item.price === null ? '—' : f.unitPrice(item.price),
      tooling: money(item.toolingCost),
      delivery: money(item.deliveryCost),
      total: f.money(item.totalPrice),
    },
    strong: false,
    indent,
  });
  quote.items.forEach((item, i) => {
    const no = String(i + 1);
    if (item.children.length) {
      rows.push({
        no,
        title: item.name,
        details: [
          item.reference ? `${l.brief} ${item.reference}` : '',
          item.comment ? `${l.comment}: ${item.comment}` : '',
        ].filter(Boolean),
        cells: {
          tooling: money(item.toolingCost),
          delivery: money(item.deliveryCost),
          total: f.money(item.totalPrice),
        },
        strong: true,
        indent: 0,
      });
      item.children.forEach((child, j) => {
        rows.push(line(child, `${no}.${j + 1}`, 10));
      });
    } else {
      rows.push(line(item, no, 0));
    }
  });
  return rows;
}

function table(doc: Doc, quote: PdfQuote, f: Formatter, top: number) {
  const cols = columns(doc, f);
  let y = tableHeader(doc, cols, top);
  for (const row of itemRows(quote, f)) {
    const height = rowHeight(doc, cols, row);
    if (y + height > bottomLimit(doc)) {
      doc.addPage();
      y = tableHeader(doc, cols, MARGIN);
    }
    if (row.strong) doc.rect(MARGIN, y, contentWidth(doc), height).fill('#f7f9fb');
    drawRow(doc, cols, row, y);
    y += height;
    doc
      .moveTo(MARGIN, y)
      .lineTo(MARGIN + contentWidth(doc), y)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
  }
  return y + 10;
}

function totals(doc: Doc, quote: PdfQuote, f: Formatter, top: number) {
  const l = f.labels;
  const width = 240;
  const x = MARGIN + contentWidth(doc) - width;
  const needed = 4 * 16 + 14;
  let y = top;
  if (y + needed > bottomLimit(doc)) {
    doc.addPage();
    y = MARGIN;
  }
  const products = Math.round((quote.totalPrice - quote.toolingCost - quote.deliveryCost) * 100) / 100;
  const lines: [string, number][] = [
    [l.productsTotal, products],
    [l.toolingTotal, quote.toolingCost],
    [l.deliveryTotal, quote.deliveryCost],
  ];
  for (const [label, value] of lines) {
    doc
      .font(FONT)
      .fontSize(9)
      .fillColor(MUTED)
      .text(label, x, y, { width: width / 2 });
    doc
      .font(FONT)
      .fontSize(9)
      .fillColor(INK)
      .text(f.money(value), x + width / 2, y, { width: width / 2, align: 'right' });
    y += 15;
  }
  doc.rect(x, y + 2, width, 22).fill(ACCENT);
  doc
    .font(BOLD)
    .fontSize(10.5)
    .fillColor('#ffffff')
    .text(l.grandTotal, x + 8, y + 8, { width: width / 2 });
  doc
    .font(BOLD)
    .fontSize(10.5)
    .fillColor('#ffffff')
    .text(f.money(quote.totalPrice), x + width / 2, y + 8, { width: width / 2 - 8, align: 'right' });
  return y + 38;
}

function validity(doc: Doc, quote: PdfQuote, f: Formatter, top: number) {
  const l = f.labels;
  let y = top;
  const needed = 110;
  if (y + needed > bottomLimit(doc)) {
    doc.addPage();
    y = MARGIN;
  }
  const width = contentWidth(doc);
  const text = quote.validUntil ? l.validity(f.date(quote.validUntil)) : l.noValidity;
  doc.font(FONT).fontSize(9).fillColor(INK).text(text, MARGIN, y, { width });
  y = doc.y + 12;
  doc
    .font(BOLD)
    .fontSize(8.5)
    .fillColor(MUTED)
    .text(l.acceptance, MARGIN, y, { width: width / 2 });
  y = doc.y + 4;
  doc
    .lineWidth(0.6)
    .strokeColor(RULE)
    .roundedRect(MARGIN, y, width / 2, 58, 4)
    .stroke();
  doc
    .font(FONT)
    .fontSize(7)
    .fillColor(MUTED)
    .text(l.signature, MARGIN + 6, y + 46, { width: width / 2 - 12, lineBreak: false });
  return y + 70;
}

/** Draws a die-line scaled into the box: board, holes, cut (solid) and crease (dashed) lines. */
export function drawDieLine(
  doc: Doc,
  dieLine: DieLine,
  box: { x: number; y: number; width: number; height: number },
) {
  const scale = Math.min(box.width / dieLine.width, box.height / dieLine.height);
  const offsetX = box.x + (box.width - dieLine.width * scale) / 2;
  const offsetY = box.y + (box.height - dieLine.height * scale) / 2;
  const point = (x: number, y: number): [number, number] => [offsetX + x * scale, offsetY + y * scale];
  doc.save();
  if (dieLine.outline.length > 2) {
    doc.polygon(...dieLine.outline.map((p) => point(p.x, p.y))).fill('#f4ecdc');
  }
  for (const hole of dieLine.holes) {
    if (hole.length > 2) doc.polygon(...hole.map((p) => point(p.x, p.y))).fill('#ffffff');
  }
  doc.lineCap('round');
  const cuts = dieLine.segments.filter((s) => s.kind === 'CUT');
  const creases = dieLine.segments.filter((s) => s.kind === 'CREASE');
  for (const s of cuts) {
    doc.moveTo(...point(s.x1, s.y1)).lineTo(...point(s.x2, s.y2));
  }
  if (cuts.length) doc.lineWidth(0.7).strokeColor('#000000').stroke();
  for (const s of creases) {
    doc.moveTo(...point(s.x1, s.y1)).lineTo(...point(s.x2, s.y2));
  }
  if (creases.length) {
    doc.lineWidth(0.6).strokeColor('#c0392b').dash(3, { space: 2 }).stroke();
    doc.undash();
  }
  doc.restore();
  return { width: dieLine.width * scale, height: dieLine.height * scale, x: offsetX, y: offsetY };
}

function dieLines(doc: Doc, quote: PdfQuote, f: Formatter, top: number) {
  const l = f.labels;
  const drawings: { no: string; item: PdfItem; dieLine: DieLine }[] = [];
  quote.items.forEach((item, i) => {
    item.children.forEach((child, j) => {
      const dieLine = quote.dieLines.get(child.id);
      if (dieLine) drawings.push({ no: `${i + 1}.${j + 1}`, item: child, dieLine });
    });
    const own = quote.dieLines.get(item.id);
    if (own) drawings.push({ no: String(i + 1), item, dieLine: own });
  });
  if (!drawings.length) return top;
  const width = contentWidth(doc);
  const gap = 18;
  const cell = { width: (width - gap) / 2, height: 225 };
  let y = top + 6;
  if (y + 30 + cell.height > bottomLimit(doc)) {
    doc.addPage();
    y = MARGIN;
  }
  doc.font(BOLD).fontSize(12).fillColor(ACCENT).text(l.dieLines, MARGIN, y, { width });
  y = doc.y + 4;
  // Legend.
  doc
    .lineWidth(0.7)
    .strokeColor('#000000')
    .moveTo(MARGIN, y + 5)
    .lineTo(MARGIN + 22, y + 5)
    .stroke();
  doc
    .font(FONT)
    .fontSize(7.5)
    .fillColor(MUTED)
    .text(l.cut, MARGIN + 26, y + 1.5, { lineBreak: false });
  doc
    .lineWidth(0.6)
    .strokeColor('#c0392b')
    .dash(3, { space: 2 })
    .moveTo(MARGIN + 70, y + 5)
    .lineTo(MARGIN + 92, y + 5)
    .stroke();
  doc.undash();
  doc
    .font(FONT)
    .fontSize(7.5)
    .fillColor(MUTED)
    .text(l.crease, MARGIN + 96, y + 1.5, { lineBreak: false });
  y += 18;
  drawings.forEach((drawing, index) => {
    const columnIndex = index % 2;
    if (columnIndex === 0 && index > 0) y += cell.height + 12;
    if (columnIndex === 0 && y + cell.height > bottomLimit(doc)) {
      doc.addPage();
      y = MARGIN;
    }
    const x = MARGIN + columnIndex * (cell.width + gap);
    doc.lineWidth(0.5).strokeColor(RULE).roundedRect(x, y, cell.width, cell.height, 4).stroke();
    doc
      .font(BOLD)
      .fontSize(8.5)
      .fillColor(INK)
      .text(`${drawing.no}  ${drawing.item.name}`, x + 8, y + 7, {
        width: cell.width - 16,
        lineBreak: false,
        ellipsis: true,
      });
    const caption = `${l.dieLineCaption} ${f.number(drawing.dieLine.width, 1)} × ${f.number(drawing.dieLine.height, 1)} mm`;
    doc
      .font(FONT)
      .fontSize(7.5)
      .fillColor(MUTED)
      .text(caption, x + 8, y + 20, { width: cell.width - 16, lineBreak: false });
    drawDieLine(doc, drawing.dieLine, {
      x: x + 12,
      y: y + 36,
      width: cell.width - 24,
      height: cell.height - 48,
    });
  });
  return y + cell.height + 12;
}

function footers(doc: Doc, quote: PdfQuote, f: Formatter) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - MARGIN - 10;
    const width = contentWidth(doc);
    doc
      .moveTo(MARGIN, y - 6)
      .lineTo(MARGIN + width, y - 6)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
    doc
      .font(FONT)
      .fontSize(7.5)
      .fillColor(MUTED)
      .text(`${quote.organisationName} · ${f.labels.title} ${quote.code ?? ''}`, MARGIN, y, {
        width: width * 0.7,
        lineBreak: false,
      });
    doc.text(f.labels.page(i - range.start + 1, range.count), MARGIN + width * 0.7, y, {
      width: width * 0.3,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
  }
}

/** Renders the quote in `language`. */
export async function renderQuotePdf(quote: PdfQuote, language: Language, options: RenderOptions = {}) {
  const f = formatterFor(language, quote.currency);
  const doc = await createDocument({
    ...options,
    title: `${f.labels.title} ${quote.code ?? ''}`.trim(),
    author: quote.organisationName,
  });
  const bytes = bytesOf(doc);
  let y = header(doc, quote, f);
  y = blocks(doc, quote, f, y);
  y = table(doc, quote, f, y);
  y = totals(doc, quote, f, y);
  y = validity(doc, quote, f, y);
  dieLines(doc, quote, f, y);
  footers(doc, quote, f);
  doc.end();
  return bytes;
}
