/**
 * The price-break section of the quote PDF (docs/quotes.md, "Price breaks"): one column per
 * quote column, a row per line offering columns (quantity, unit price and amount in each), and
 * the quote's total per column. Prints the stored amounts, never recomputes them.
 */
import type { PriceBreak } from '../../db/schema/quotes.ts';
import type { Formatter } from './i18n.ts';
import type { PdfItem, PdfQuote } from './pdf.ts';
import {
  BOLD,
  bottomLimit,
  contentWidth,
  type Doc,
  FONT,
  INK,
  MARGIN,
  MUTED,
  RULE,
  SHADE,
} from './pdf-document.ts';

type Line = { no: string; item: PdfItem; breaks: PriceBreak[] };

/** The lines offering columns, numbered as in the item table (1, 1.1...). */
function linesWithBreaks(quote: PdfQuote): Line[] {
  const lines: Line[] = [];
  quote.items.forEach((item, i) => {
    const no = String(i + 1);
    const entries = item.children.length
      ? item.children.map((child, j) => ({ no: `${no}.${j + 1}`, item: child }))
      : [{ no, item }];
    for (const entry of entries) {
      const breaks = entry.item.priceBreaks ?? [];
      if (breaks.length) lines.push({ ...entry, breaks });
    }
  });
  return lines;
}

export function priceBreaksSection(doc: Doc, quote: PdfQuote, f: Formatter, top: number) {
  const columns = quote.priceBreakColumns ?? [];
  const lines = linesWithBreaks(quote);
  if (!columns.length || !lines.length) return top;
  const l = f.labels;
  const width = contentWidth(doc);
  const labelWidth = Math.max(120, width - columns.length * 78);
  const columnWidth = (width - labelWidth) / columns.length;
  const lineHeight = 38;
  const needed = 40 + 18 + Math.min(lines.length, 3) * lineHeight + 22;
  let y = top;
  if (y + needed > bottomLimit(doc)) {
    doc.addPage();
    y = MARGIN;
  }
  doc.font(BOLD).fontSize(10).fillColor(INK).text(l.priceBreaks, MARGIN, y, { width });
  y = doc.y + 2;
  doc.font(FONT).fontSize(7.5).fillColor(MUTED).text(l.priceBreakNote, MARGIN, y, { width });
  y = doc.y + 6;

  const header = (at: number) => {
    doc.rect(MARGIN, at, width, 18).fill(SHADE);
    doc
      .font(BOLD)
      .fontSize(7.5)
      .fillColor(MUTED)
      .text(l.description, MARGIN + 4, at + 5.5, {
        width: labelWidth - 8,
        lineBreak: false,
      });
    columns.forEach((column, i) => {
      const title =
        column.quantity === null
          ? l.column(column.position)
          : `${l.column(column.position)} · ${f.quantity(column.quantity)}`;
      doc
        .font(BOLD)
        .fontSize(7.5)
        .fillColor(MUTED)
        .text(title, MARGIN + labelWidth + i * columnWidth + 2, at + 5.5, {
          width: columnWidth - 4,
          align: 'right',
          lineBreak: false,
        });
    });
    return at + 18;
  };
  y = header(y);
  for (const line of lines) {
    if (y + lineHeight > bottomLimit(doc)) {
      doc.addPage();
      y = header(MARGIN);
    }
    doc
      .font(FONT)
      .fontSize(8)
      .fillColor(INK)
      // The line's name in the quote's language (the catalogue's), as in the lines table.
      .text(`${line.no}  ${(line.item.localised?.[f.language] ?? line.item).name}`, MARGIN + 4, y + 4, {
        width: labelWidth - 8,
        height: 20,
      });
    doc
      .font(FONT)
      .fontSize(6.5)
      .fillColor(MUTED)
      .text(`${l.quantity} / ${l.unitPrice} / ${l.total}`, MARGIN + 4, y + lineHeight - 12, {
        width: labelWidth - 8,
        lineBreak: false,
      });
    columns.forEach((column, i) => {
      const cell = line.breaks[column.position - 1];
      const x = MARGIN + labelWidth + i * columnWidth + 2;
      const texts = cell
        ? [f.quantity(cell.quantity), f.unitPrice(cell.unitPrice), f.money(cell.totalPrice)]
        : [
            f.quantity(line.item.quantity),
            line.item.price === null ? '—' : f.unitPrice(line.item.price),
            f.money(line.item.totalPrice),
          ];
      texts.forEach((text, k) => {
        doc
          .font(k === 2 ? BOLD : FONT)
          .fontSize(8)
          .fillColor(k === 2 ? INK : MUTED)
          .text(text, x, y + 4 + k * 10.5, { width: columnWidth - 4, align: 'right', lineBreak: false });
      });
    });
    y += lineHeight;
    doc
      .moveTo(MARGIN, y)
      .lineTo(MARGIN + width, y)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
  }
  doc.rect(MARGIN, y, width, 20).fill('#f7f9fb');
  doc
    .font(BOLD)
    .fontSize(8.5)
    .fillColor(INK)
    .text(l.columnTotal, MARGIN + 4, y + 6, {
      width: labelWidth - 8,
      lineBreak: false,
    });
  columns.forEach((column, i) => {
    doc
      .font(BOLD)
      .fontSize(8.5)
      .fillColor(INK)
      .text(f.money(column.totalPrice), MARGIN + labelWidth + i * columnWidth + 2, y + 6, {
        width: columnWidth - 4,
        align: 'right',
        lineBreak: false,
      });
  });
  return y + 32;
}
