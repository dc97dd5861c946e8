import type { Formatter } from './i18n.ts';
import { discountOf } from './line-money.ts';
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

const dimensionsOf = (item: PdfItem) => {
  const values = [item.length, item.width, item.height].filter((v): v is number => v != null && v > 0);
  return values.length ? values : null;
};

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

/** What the line edits add to an item (quote_items columns; rows made before them lack them). */
type EditedItem = PdfItem & {
  amount?: number | null;
  discountPercent?: number | null;
  discountAmount?: number | null;
  optional?: boolean;
};

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
    // The line's total is after its discount (rounding rule): the discount is said, not hidden.
    const { discountPercent, discountAmount, amount, optional } = item as EditedItem;
    if (discountPercent != null && amount != null) {
      details.push(
        `${l.discount} ${f.number(discountPercent, 2)} % (${f.money(-discountOf(amount, { discountPercent }))})`,
      );
    } else if (discountAmount != null) {
      details.push(`${l.discount} ${f.money(-discountAmount)}`);
    }
    if (optional) details.push(l.optional);
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

/** The item table: one row per item, a brief's elements indented under it, the header repeated on each page. */
export function table(doc: Doc, quote: PdfQuote, f: Formatter, top: number) {
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
