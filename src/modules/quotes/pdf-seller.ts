/**
 * The seller on the quote PDF (docs/quotes.md, "VAT and terms"): its logo and identity in the
 * header, the identity line and footer text on every page, the VAT lines of the totals, the
 * commercial terms with the bank details, and the terms and conditions appended in the PDF's
 * language. Labels are kept here, per language, beside the drawing.
 */
import { friendlyFormatIBAN } from 'ibantools';
import type { VatTreatment } from '../../db/schema/quotes.ts';
import type { Formatter, Language } from './i18n.ts';
import {
  ACCENT,
  BOLD,
  bottomLimit,
  contentWidth,
  type Doc,
  FONT,
  INK,
  MARGIN,
  MUTED,
  RULE,
} from './pdf-document.ts';

export type PdfAddress = {
  street1: string;
  street2: string | null;
  postcode: string | null;
  city: string;
  region: string | null;
  countryCode: string;
};

/** What the PDF prints of the seller (the organisation settings, docs/settings-and-files.md). */
export type PdfSeller = {
  name: string;
  legalName: string | null;
  tradingName: string | null;
  logo: { content: Buffer } | null;
  registeredAddress: PdfAddress | null;
  invoiceAddress: PdfAddress | null;
  email: string | null;
  phoneNumber: string | null;
  website: string | null;
  vatNumber: string | null;
  registrationNumber: string | null;
  bankName: string | null;
  accountHolder: string | null;
  iban: string | null;
  bic: string | null;
  termsAndConditions: Partial<Record<Language, string>>;
  pdfFooter: string | null;
};

/** The quote's terms and VAT, as stored on the quote. */
export type PdfTerms = {
  paymentTerms: string | null;
  paymentDays: number | null;
  incoterm: string | null;
  incotermPlace: string | null;
  deliveryTerms: string | null;
  poNumber: string | null;
  vatTreatment: VatTreatment;
  vatRate: number | null;
  vatExemptionReason: string | null;
  netTotal: number;
  vatAmount: number;
  grossTotal: number;
  customerVatNumber: string | null;
};

type SellerLabels = {
  vatNumber: string;
  registration: string;
  customerVatNumber: string;
  poNumber: string;
  netTotal: string;
  vat: (rate: string) => string;
  grossTotal: string;
  reverseCharge: string;
  reverseChargeNote: string;
  exempt: (reason: string) => string;
  exemptRow: string;
  export: string;
  exportNote: string;
  commercialTerms: string;
  paymentTerms: string;
  days: (days: number) => string;
  incoterm: string;
  deliveryTerms: string;
  bank: string;
  accountHolder: string;
  termsTitle: string;
};

const LABELS: Record<Language, SellerLabels> = {
  en: {
    vatNumber: 'VAT no.',
    registration: 'Reg. no.',
    customerVatNumber: 'VAT no.',
    poNumber: 'Your PO no.',
    netTotal: 'Total excl. VAT',
    vat: (rate) => `VAT ${rate} %`,
    grossTotal: 'Total incl. VAT',
    reverseCharge: 'VAT: reverse charge',
    reverseChargeNote:
      'Reverse charge: VAT to be accounted for by the customer (Article 196, Directive 2006/112/EC).',
    exempt: (reason) => `VAT exempt: ${reason}`,
    exemptRow: 'VAT: exempt',
    export: 'VAT: export, 0 %',
    exportNote: 'Supply exported outside the European Union: no VAT charged.',
    commercialTerms: 'Commercial terms',
    paymentTerms: 'Payment terms',
    days: (days) => `${days} days`,
    incoterm: 'Incoterm (Incoterms 2020)',
    deliveryTerms: 'Delivery terms',
    bank: 'Bank details',
    accountHolder: 'Account holder:',
    termsTitle: 'Terms and conditions of sale',
  },
  fr: {
    vatNumber: 'N° TVA',
    registration: 'Immatriculation',
    customerVatNumber: 'N° TVA',
    poNumber: 'Votre commande n°',
    netTotal: 'Total HT',
    vat: (rate) => `TVA ${rate} %`,
    grossTotal: 'Total TTC',
    reverseCharge: 'TVA : autoliquidation',
    reverseChargeNote: 'Autoliquidation : TVA due par le preneur (article 196 de la directive 2006/112/CE).',
    exempt: (reason) => `Exonération de TVA : ${reason}`,
    exemptRow: 'TVA : exonération',
    export: 'TVA : exportation, 0 %',
    exportNote: 'Exportation hors de l’Union européenne : TVA non applicable.',
    commercialTerms: 'Conditions commerciales',
    paymentTerms: 'Conditions de paiement',
    days: (days) => `${days} jours`,
    incoterm: 'Incoterm (Incoterms 2020)',
    deliveryTerms: 'Conditions de livraison',
    bank: 'Coordonnées bancaires',
    accountHolder: 'Titulaire :',
    termsTitle: 'Conditions générales de vente',
  },
  de: {
    vatNumber: 'USt-IdNr.',
    registration: 'Handelsregister',
    customerVatNumber: 'USt-IdNr.',
    poNumber: 'Ihre Bestellnr.',
    netTotal: 'Gesamt netto',
    vat: (rate) => `MwSt. ${rate} %`,
    grossTotal: 'Gesamt brutto',
    reverseCharge: 'MwSt.: Umkehr der Steuerschuld',
    reverseChargeNote:
      'Steuerschuldnerschaft des Leistungsempfängers (Artikel 196 der Richtlinie 2006/112/EG).',
    exempt: (reason) => `Von der MwSt. befreit: ${reason}`,
    exemptRow: 'MwSt.: befreit',
    export: 'MwSt.: Ausfuhr, 0 %',
    exportNote: 'Ausfuhrlieferung außerhalb der Europäischen Union: keine MwSt.',
    commercialTerms: 'Geschäftsbedingungen',
    paymentTerms: 'Zahlungsbedingungen',
    days: (days) => `${days} Tage`,
    incoterm: 'Incoterm (Incoterms 2020)',
    deliveryTerms: 'Lieferbedingungen',
    bank: 'Bankverbindung',
    accountHolder: 'Kontoinhaber:',
    termsTitle: 'Allgemeine Verkaufsbedingungen',
  },
};

export const sellerLabels = (f: Formatter) => LABELS[f.language];

/** The name printed for the seller: its trading name, else its legal name, else the organisation's. */
export const sellerName = (seller: PdfSeller) => seller.tradingName ?? seller.legalName ?? seller.name;

const addressLine = (a: PdfAddress) =>
  [a.street1, a.street2, [a.postcode, a.city].filter(Boolean).join(' '), a.region, a.countryCode]
    .filter((part) => part?.trim())
    .join(', ');

/** Registered name, office, VAT and registration numbers: the legal mentions of every page. */
export function identityLine(seller: PdfSeller, f: Formatter) {
  const l = sellerLabels(f);
  return [
    seller.legalName ?? seller.name,
    seller.registeredAddress ? addressLine(seller.registeredAddress) : null,
    seller.vatNumber ? `${l.vatNumber} ${seller.vatNumber}` : null,
    seller.registrationNumber ? `${l.registration} ${seller.registrationNumber}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * The seller's block at the top left: logo (at most 170 x 56 pt), name, postal address and
 * contacts, VAT and registration numbers. Answers the y below it.
 */
export function sellerHeader(doc: Doc, seller: PdfSeller, f: Formatter, top: number, width: number) {
  const l = sellerLabels(f);
  let y = top;
  if (seller.logo) {
    try {
      doc.image(seller.logo.content, MARGIN, y, { fit: [170, 56] });
      y += 62;
    } catch {
      // Checked at upload; a logo pdfkit cannot read is left out rather than failing the quote.
    }
  }
  doc
    .font(BOLD)
    .fontSize(seller.logo ? 11 : 15)
    .fillColor(ACCENT)
    .text(sellerName(seller), MARGIN, y, { width });
  y = doc.y + 2;
  const address = seller.invoiceAddress ?? seller.registeredAddress;
  const lines = [
    seller.tradingName && seller.legalName && seller.tradingName !== seller.legalName
      ? seller.legalName
      : null,
    address?.street1,
    address?.street2,
    address ? [address.postcode, address.city].filter(Boolean).join(' ') : null,
    address ? [address.region, address.countryCode].filter(Boolean).join(', ') : null,
    [seller.phoneNumber, seller.email].filter(Boolean).join(' · ') || null,
    seller.website,
    seller.vatNumber ? `${l.vatNumber} ${seller.vatNumber}` : null,
    seller.registrationNumber ? `${l.registration} ${seller.registrationNumber}` : null,
  ].filter((line): line is string => Boolean(line?.trim()));
  for (const line of lines) {
    doc.font(FONT).fontSize(8).fillColor(MUTED).text(line, MARGIN, y, { width });
    y = doc.y + 0.5;
  }
  return y;
}

/** The VAT rows between the net and the gross totals: [label, amount | null, note]. */
export function vatRows(terms: PdfTerms, f: Formatter): { rows: [string, number][]; note: string | null } {
  const l = sellerLabels(f);
  const rate = (value: number) => f.number(value, 2);
  switch (terms.vatTreatment) {
    case 'standard':
      return { rows: [[l.vat(rate(terms.vatRate ?? 0)), terms.vatAmount]], note: null };
    case 'reverse_charge':
      return { rows: [[l.reverseCharge, 0]], note: l.reverseChargeNote };
    case 'exempt':
      // The reason can be long: the row says "exempt", the note below the totals says why.
      return { rows: [[l.exemptRow, 0]], note: l.exempt(terms.vatExemptionReason ?? '—') };
    case 'export':
      return { rows: [[l.export, 0]], note: l.exportNote };
    default:
      return { rows: [], note: null };
  }
}

/**
 * Payment terms, incoterm, delivery terms and the bank details, in two columns. Answers the y
 * below them (unchanged when there is nothing to print).
 */
export function commercialTerms(doc: Doc, seller: PdfSeller, terms: PdfTerms, f: Formatter, top: number) {
  const l = sellerLabels(f);
  const payment = [terms.paymentTerms, terms.paymentDays != null ? l.days(terms.paymentDays) : null]
    .filter(Boolean)
    .join(' · ');
  const left: [string, string][] = [];
  if (payment) left.push([l.paymentTerms, payment]);
  if (terms.incoterm)
    left.push([l.incoterm, [terms.incoterm, terms.incotermPlace].filter(Boolean).join(' ')]);
  if (terms.deliveryTerms) left.push([l.deliveryTerms, terms.deliveryTerms]);
  const bank = [
    seller.bankName,
    seller.accountHolder ? `${l.accountHolder} ${seller.accountHolder}` : null,
    seller.iban ? `IBAN ${friendlyFormatIBAN(seller.iban) ?? seller.iban}` : null,
    seller.bic ? `BIC ${seller.bic}` : null,
  ].filter((line): line is string => Boolean(line));
  if (!left.length && !bank.length) return top;
  const width = contentWidth(doc);
  const gap = 16;
  const column = (width - gap) / 2;
  const measure = () => {
    doc.font(FONT).fontSize(8.5);
    const leftHeight = left.reduce(
      (sum, [, value]) => sum + 11 + doc.heightOfString(value, { width: column }) + 4,
      0,
    );
    const bankHeight = bank.length ? 11 + bank.length * 12 : 0;
    return 18 + Math.max(leftHeight, bankHeight);
  };
  let y = top;
  if (y + measure() > bottomLimit(doc)) {
    doc.addPage();
    y = MARGIN;
  }
  doc.font(BOLD).fontSize(9.5).fillColor(ACCENT).text(l.commercialTerms, MARGIN, y, { width });
  y = doc.y + 3;
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + width, y)
    .lineWidth(0.4)
    .strokeColor(RULE)
    .stroke();
  y += 5;
  let leftY = y;
  for (const [label, value] of left) {
    doc.font(BOLD).fontSize(7.5).fillColor(MUTED).text(label.toUpperCase(), MARGIN, leftY, { width: column });
    doc
      .font(FONT)
      .fontSize(8.5)
      .fillColor(INK)
      .text(value, MARGIN, doc.y + 1, { width: column });
    leftY = doc.y + 4;
  }
  let rightY = y;
  if (bank.length) {
    const x = MARGIN + column + gap;
    doc.font(BOLD).fontSize(7.5).fillColor(MUTED).text(l.bank.toUpperCase(), x, rightY, { width: column });
    rightY = doc.y + 1;
    for (const line of bank) {
      doc.font(FONT).fontSize(8.5).fillColor(INK).text(line, x, rightY, { width: column });
      rightY = doc.y + 1;
    }
  }
  return Math.max(leftY, rightY) + 8;
}

/** The terms and conditions in the PDF's language (else English), on pages of their own. */
export function termsPages(doc: Doc, seller: PdfSeller, f: Formatter) {
  const text = seller.termsAndConditions[f.language] ?? seller.termsAndConditions.en;
  if (!text?.trim()) return;
  const l = sellerLabels(f);
  doc.addPage();
  const width = contentWidth(doc);
  doc.font(BOLD).fontSize(12).fillColor(ACCENT).text(l.termsTitle, MARGIN, MARGIN, { width });
  doc.moveDown(0.6);
  // pdfkit continues a long text on new pages by itself, within the page margins; the bottom
  // margin is raised so the text stops above the footer.
  const bottom = doc.page.margins.bottom;
  const reserve = () => {
    doc.page.margins.bottom = doc.page.height - bottomLimit(doc);
  };
  reserve();
  doc.on('pageAdded', reserve);
  doc.font(FONT).fontSize(7.5).fillColor(INK).text(text, MARGIN, doc.y, {
    width,
    align: 'justify',
    paragraphGap: 3,
    lineGap: 0.5,
  });
  doc.removeListener('pageAdded', reserve);
  doc.page.margins.bottom = bottom;
}
