/**
 * The quote PDF (A4, pdfkit): seller and quote header, customer and contact blocks, the item
 * tree with quantities, unit prices, tooling, delivery and totals (pdf-table.ts), the validity
 * and an acceptance box, then the die-line of every brief element drawn as vector paths
 * (pdf-document.ts has the drawing primitives). Pure: it takes the data and a language and
 * returns the bytes.
 */

import type { LineTooling } from '../../db/schema/line-parts.ts';
import type { PriceBreak } from '../../db/schema/quotes.ts';
import type { VariantLine } from '../../platform/line-parts.ts';
import type { DieLine } from '../../pricing/index.ts';
import { type Formatter, formatterFor, type Language } from './i18n.ts';
import {
  ACCENT,
  BOLD,
  bottomLimit,
  bytesOf,
  contentWidth,
  createDocument,
  type Doc,
  drawDieLine,
  drawFoldedBox,
  FONT,
  INK,
  MARGIN,
  MUTED,
  type RenderOptions,
  RULE,
} from './pdf-document.ts';
import { priceBreaksSection } from './pdf-price-breaks.ts';
import {
  commercialTerms,
  identityLine,
  type PdfSeller,
  type PdfTerms,
  sellerHeader,
  sellerLabels,
  sellerName,
  termsPages,
  vatRows,
} from './pdf-seller.ts';
import { table } from './pdf-table.ts';
import type { QuoteColumn } from './price-breaks.ts';

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
  /** The line's price-break columns (money as stored). */
  priceBreaks?: PriceBreak[];
  /** The decoration variants, their quantities and amounts adding up to the line (pdf-service.ts). */
  variants?: VariantLine[];
  /** The tools of the line's tooling, each printed as its own line. */
  tooling?: LineTooling[];
  groupLabel?: string | null;
  /** Name and specification per language (catalogue names), when the line is a brief element. */
  localised?: Partial<Record<Language, { name: string; description: string | null }>>;
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
  /** Lead time of the briefs the items were priced from, working days (the longest); null: none. */
  leadTimeWorkingDays?: number | null;
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
  /** The quote's price-break columns (price-breaks.ts, quoteColumns); empty: no section. */
  priceBreakColumns?: QuoteColumn[];
  /** Die-lines of the element items, by item id. */
  dieLines: Map<string, PdfDieLine>;
  /** Where a signed-in reader downloads the die-line files the PDF names (the quote's page). */
  dieLinesUrl?: string;
  /** The seller's identity and the quote's terms and VAT (pdf-seller.ts). */
  seller: PdfSeller;
  terms: PdfTerms;
};

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

function header(doc: Doc, quote: PdfQuote, f: Formatter) {
  const l = f.labels;
  const width = contentWidth(doc);
  const top = MARGIN;
  const sellerBottom = sellerHeader(doc, quote.seller, f, top, width * 0.5);
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
  if (quote.terms.poNumber) rows.push([sellerLabels(f).poNumber, quote.terms.poNumber]);
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
  return Math.max(y, top + 60, sellerBottom) + 10;
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
  if (quote.terms.customerVatNumber) {
    customerLines.push(`${sellerLabels(f).customerVatNumber} ${quote.terms.customerVatNumber}`);
  }
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

/**
 * Products, tooling and delivery, then the total excluding VAT, the VAT line(s) and the total
 * including VAT in the accent bar; a quote without VAT (`none`) keeps its net total in the bar.
 * The VAT is the quote's (round(net x rate) once per quote, docs/quotes.md).
 */
function totals(doc: Doc, quote: PdfQuote, f: Formatter, top: number) {
  const l = f.labels;
  const s = sellerLabels(f);
  const width = 260;
  const x = MARGIN + contentWidth(doc) - width;
  const vat = vatRows(quote.terms, f);
  const withVat = quote.terms.vatTreatment !== 'none';
  const products = Math.round((quote.totalPrice - quote.toolingCost - quote.deliveryCost) * 100) / 100;
  const lines: [string, number, boolean][] = [
    [l.productsTotal, products, false],
    [l.toolingTotal, quote.toolingCost, false],
    [l.deliveryTotal, quote.deliveryCost, false],
  ];
  if (withVat) {
    lines.push([s.netTotal, quote.terms.netTotal, true]);
    for (const [label, value] of vat.rows) lines.push([label, value, false]);
  }
  const needed = lines.length * 15 + 40 + (vat.note ? 24 : 0);
  let y = top;
  if (y + needed > bottomLimit(doc)) {
    doc.addPage();
    y = MARGIN;
  }
  for (const [label, value, strong] of lines) {
    if (strong) {
      doc
        .moveTo(x, y - 2)
        .lineTo(x + width, y - 2)
        .lineWidth(0.4)
        .strokeColor(RULE)
        .stroke();
    }
    doc
      .font(strong ? BOLD : FONT)
      .fontSize(9)
      .fillColor(strong ? INK : MUTED)
      .text(label, x, y, { width: width * 0.62 });
    const next = Math.max(doc.y, y + 12);
    doc
      .font(strong ? BOLD : FONT)
      .fontSize(9)
      .fillColor(INK)
      .text(f.money(value), x + width * 0.62, y, { width: width * 0.38, align: 'right' });
    y = next + 3;
  }
  doc.rect(x, y + 2, width, 22).fill(ACCENT);
  doc
    .font(BOLD)
    .fontSize(10.5)
    .fillColor('#ffffff')
    .text(withVat ? s.grossTotal : l.grandTotal, x + 8, y + 8, { width: width / 2 });
  doc
    .font(BOLD)
    .fontSize(10.5)
    .fillColor('#ffffff')
    .text(f.money(withVat ? quote.terms.grossTotal : quote.totalPrice), x + width / 2, y + 8, {
      width: width / 2 - 8,
      align: 'right',
    });
  y += 32;
  if (vat.note) {
    doc.font(FONT).fontSize(7.5).fillColor(MUTED).text(vat.note, x, y, { width });
    y = doc.y + 2;
  }
  return y + 8;
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
  if (quote.leadTimeWorkingDays) {
    doc.text(l.leadTime(quote.leadTimeWorkingDays), MARGIN, doc.y + 3, { width });
  }
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

/** An element line's die-line and the names of its template files (pdf, dxf, cf2). */
/** A line's die-line, its template file names, and whether its board is kraft (FEFCO codes). */
export type PdfDieLine = { dieLine: DieLine; files: string[]; kraft?: boolean };

function dieLines(doc: Doc, quote: PdfQuote, f: Formatter, top: number) {
  const l = f.labels;
  const drawings: ({ no: string; item: PdfItem } & PdfDieLine)[] = [];
  quote.items.forEach((item, i) => {
    item.children.forEach((child, j) => {
      const dieLine = quote.dieLines.get(child.id);
      if (dieLine) drawings.push({ no: `${i + 1}.${j + 1}`, item: child, ...dieLine });
    });
    const own = quote.dieLines.get(item.id);
    if (own) drawings.push({ no: String(i + 1), item, ...own });
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
      .text(`${drawing.no}  ${(drawing.item.localised?.[f.language] ?? drawing.item).name}`, x + 8, y + 7, {
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
    // The template files of the line (its die-line download names: PDF, DXF, CF2).
    let drawingTop = y + 36;
    if (drawing.files.length) {
      const [first, ...rest] = drawing.files;
      const stem = first!.replace(/\.pdf$/, '');
      const exts = [first!, ...rest].map((name) => name.slice(stem.length)).join(' · ');
      doc
        .font(FONT)
        .fontSize(6.5)
        .fillColor(MUTED)
        .text(`${l.dieLineFiles} ${stem} ${exts}`, x + 8, y + 31, {
          width: cell.width - 16,
          height: 17,
          ellipsis: true,
          ...(quote.dieLinesUrl ? { link: quote.dieLinesUrl } : {}),
        });
      drawingTop = y + 52;
    }
    // The die-line on the left, the folded box (the 3D snapshot) beside it on the right.
    const area = {
      x: x + 12,
      y: drawingTop,
      width: cell.width - 24,
      height: cell.height - 12 - (drawingTop - y),
    };
    const snapshotWidth = Math.round(area.width * 0.36);
    const folded = drawFoldedBox(
      doc,
      drawing.dieLine,
      { x: area.x + area.width - snapshotWidth, y: area.y, width: snapshotWidth, height: area.height },
      drawing.kraft ?? false,
    );
    drawDieLine(doc, drawing.dieLine, folded ? { ...area, width: area.width - snapshotWidth - 8 } : area);
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
    const identity = identityLine(quote.seller, f);
    doc
      .moveTo(MARGIN, y - 17)
      .lineTo(MARGIN + width, y - 17)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
    doc
      .font(FONT)
      .fontSize(6.5)
      .fillColor(MUTED)
      .text(identity, MARGIN, y - 11, {
        width,
        lineBreak: false,
        ellipsis: true,
      });
    doc
      .font(FONT)
      .fontSize(7)
      .fillColor(MUTED)
      .text(
        quote.seller.pdfFooter ?? `${sellerName(quote.seller)} · ${f.labels.title} ${quote.code ?? ''}`,
        MARGIN,
        y,
        { width: width * 0.78, lineBreak: false, ellipsis: true },
      );
    doc.text(f.labels.page(i - range.start + 1, range.count), MARGIN + width * 0.78, y, {
      width: width * 0.22,
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
    author: sellerName(quote.seller),
  });
  const bytes = bytesOf(doc);
  let y = header(doc, quote, f);
  y = blocks(doc, quote, f, y);
  y = table(doc, quote, f, y);
  y = totals(doc, quote, f, y);
  y = priceBreaksSection(doc, quote, f, y);
  y = commercialTerms(doc, quote.seller, quote.terms, f, y);
  y = validity(doc, quote, f, y);
  dieLines(doc, quote, f, y);
  termsPages(doc, quote.seller, f);
  footers(doc, quote, f);
  doc.end();
  return bytes;
}
