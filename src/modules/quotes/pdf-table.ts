import { showsVariants, toolingNameIn } from '../../platform/line-parts.ts';
import { roundCents } from '../../platform/money.ts';
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
    { key: 'unit', title: l.unitPrice, width: 72, align: 'right' },
    { key: 'total', title: l.total, width: 80, align: 'right' },
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
  /** A heading of grouped lines (groupLabel): its title across the table, no money. */
  heading?: boolean;
  /** A part of the line above (a variant): smaller and muted. */
  muted?: boolean;
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
        .font(row.strong || row.heading ? BOLD : FONT)
        .fontSize(row.muted ? 7.5 : row.heading ? 9.5 : 8.5)
        .fillColor(row.muted ? MUTED : INK)
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
        .font((row.strong || col.key === 'total') && !row.muted ? BOLD : FONT)
        .fontSize(row.muted ? 7.5 : 8.5)
        .fillColor(row.muted ? MUTED : INK)
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
  const localised = (item: PdfItem) => item.localised?.[f.language] ?? item;
  const detailsOf = (item: PdfItem) => {
    const details: string[] = [];
    const { description } = localised(item);
    if (item.reference) details.push(`${l.reference} ${item.reference}`);
    if (description) details.push(description);
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
  /**
   * A priced line, then its parts, each amount printed once: the goods (or, with several variants,
   * one sub-line per variant carrying its share), then each tool and the delivery as lines of
   * their own. The printed amounts of a line add up to its total.
   */
  const line = (item: PdfItem, no: string, indent: number) => {
    const variants = item.variants ?? [];
    const split = showsVariants(variants);
    const goods = roundCents(item.totalPrice - item.toolingCost - item.deliveryCost);
    rows.push({
      no,
      title: localised(item).name,
      details: detailsOf(item),
      cells: {
        quantity: f.quantity(item.quantity),
        unit: item.price === null ? '—' : f.unitPrice(item.price),
        total: split && item.price !== null ? '' : f.money(goods),
      },
      strong: false,
      indent,
    });
    if (split) {
      for (const variant of variants) {
        const name = variant.name ?? l.variant(variant.decorationIndex + 1);
        rows.push({
          no: '',
          title: variant.artworkReference ? `${name} · ${l.artwork} ${variant.artworkReference}` : name,
          details: [],
          cells: {
            quantity: f.quantity(variant.quantity),
            total: variant.amount === null ? '—' : f.money(variant.amount),
          },
          strong: false,
          indent: indent + 12,
          muted: true,
        });
      }
    }
    const services = [
      ...(item.tooling ?? []).map((tool) => ({
        title: toolingNameIn(tool, f.language),
        amount: tool.amount,
      })),
      ...(item.deliveryCost > 0 ? [{ title: l.delivery, amount: item.deliveryCost }] : []),
    ];
    for (const service of services) {
      rows.push({
        no: '',
        title: service.title,
        details: [],
        cells: { quantity: f.quantity(1), unit: f.unitPrice(service.amount), total: f.money(service.amount) },
        strong: false,
        indent: indent + 12,
      });
    }
  };
  /** Lines under their groupLabel headings: a heading each time the label changes. */
  const withHeadings = <T extends PdfItem>(
    items: T[],
    indent: number,
    each: (item: T, i: number) => void,
  ) => {
    let label: string | null = null;
    items.forEach((item, i) => {
      const next = item.groupLabel ?? null;
      if (next && next !== label) {
        rows.push({ no: '', title: next, details: [], cells: {}, strong: false, indent, heading: true });
      }
      label = next;
      each(item, i);
    });
  };
  withHeadings(quote.items, 0, (item, i) => {
    const no = String(i + 1);
    if (item.children.length) {
      rows.push({
        no,
        title: item.name,
        details: [
          item.reference ? `${l.brief} ${item.reference}` : '',
          item.comment ? `${l.comment}: ${item.comment}` : '',
        ].filter(Boolean),
        cells: { total: f.money(item.totalPrice) },
        strong: true,
        indent: 0,
      });
      withHeadings(item.children, 10, (child, j) => line(child, `${no}.${j + 1}`, 10));
    } else {
      line(item, no, 0);
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
    if (row.heading) doc.rect(MARGIN, y, contentWidth(doc), height).fill('#eef2f6');
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
