/**
 * The languages a quote PDF is rendered in: labels and number/date formats. A `localisationId`
 * is a language tag (`fr`, `fr-FR`, `en_GB`...); its primary language picks the labels, and
 * the file is stored and found under that primary language (`fr`).
 */
import { AppError } from '../../platform/errors.ts';

export type Labels = {
  title: string;
  code: string;
  version: string;
  issued: string;
  validUntil: string;
  currency: string;
  project: string;
  customer: string;
  contact: string;
  deliverTo: string;
  phone: string;
  email: string;
  reference: string;
  description: string;
  quantity: string;
  unitPrice: string;
  tooling: string;
  delivery: string;
  total: string;
  subtotal: string;
  productsTotal: string;
  toolingTotal: string;
  deliveryTotal: string;
  grandTotal: string;
  dimensions: string;
  comment: string;
  /** A line offered as an option: shown with its price, not in the total. */
  optional: string;
  discount: string;
  /** The price-break section: its title and note, a column's heading and the column totals. */
  priceBreaks: string;
  priceBreakNote: string;
  column: (position: number) => string;
  columnTotal: string;
  /** A decoration variant without a name: "Variant 2". */
  variant: (n: number) => string;
  artwork: string;
  brief: string;
  dieLines: string;
  dieLineCaption: string;
  /** Before the names of a line's die-line files. */
  dieLineFiles: string;
  cut: string;
  crease: string;
  blank: string;
  validity: (date: string) => string;
  noValidity: string;
  /** Lead time of the priced briefs, working days (the longest element sets it). */
  leadTime: (days: number) => string;
  acceptance: string;
  signature: string;
  page: (page: number, pages: number) => string;
  states: Record<string, string>;
};

const en: Labels = {
  title: 'Quote',
  code: 'Quote no.',
  version: 'Version',
  issued: 'Date',
  validUntil: 'Valid until',
  currency: 'Currency',
  project: 'Project',
  customer: 'Customer',
  contact: 'Contact',
  deliverTo: 'Delivery address',
  phone: 'Phone',
  email: 'E-mail',
  reference: 'Ref.',
  description: 'Description',
  quantity: 'Qty',
  unitPrice: 'Unit price',
  tooling: 'Tooling',
  delivery: 'Delivery',
  total: 'Total',
  subtotal: 'Subtotal',
  productsTotal: 'Products',
  toolingTotal: 'Tooling',
  deliveryTotal: 'Delivery',
  grandTotal: 'Total',
  dimensions: 'Dimensions',
  comment: 'Note',
  optional: 'Option, not included in the total',
  variant: (n) => `Variant ${n}`,
  artwork: 'Artwork',
  discount: 'Discount',
  priceBreaks: 'Price breaks',
  priceBreakNote: 'The lines above at other quantities: choose one column when accepting.',
  column: (position) => `Option ${position}`,
  columnTotal: 'Total of the quote',
  brief: 'Brief',
  dieLines: 'Die-lines',
  dieLineCaption: 'Flat blank',
  dieLineFiles: 'Templates:',
  cut: 'cut',
  crease: 'crease',
  blank: 'blank',
  validity: (date) => `This quote is valid until ${date}. Prices exclude VAT.`,
  noValidity: 'Prices exclude VAT.',
  leadTime: (days) =>
    `Lead time: ${days} working ${days === 1 ? 'day' : 'days'} from artwork approval to delivery (board, tooling, production and transport).`,
  acceptance: 'Accepted by the customer (name, date and signature):',
  signature: 'Signature',
  page: (page, pages) => `Page ${page} of ${pages}`,
  states: {
    draft: 'Draft',
    published: 'Published',
    signed: 'Signed',
    rejected: 'Declined',
    expired: 'Expired',
  },
};

const fr: Labels = {
  title: 'Devis',
  code: 'Devis n°',
  version: 'Version',
  issued: 'Date',
  validUntil: 'Valable jusqu’au',
  currency: 'Devise',
  project: 'Projet',
  customer: 'Client',
  contact: 'Contact',
  deliverTo: 'Adresse de livraison',
  phone: 'Téléphone',
  email: 'E-mail',
  reference: 'Réf.',
  description: 'Désignation',
  quantity: 'Qté',
  unitPrice: 'Prix unitaire',
  tooling: 'Outillage',
  delivery: 'Livraison',
  total: 'Total',
  subtotal: 'Sous-total',
  productsTotal: 'Produits',
  toolingTotal: 'Outillage',
  deliveryTotal: 'Livraison',
  grandTotal: 'Total HT',
  dimensions: 'Dimensions',
  comment: 'Remarque',
  optional: 'En option, non comprise dans le total',
  variant: (n) => `Variante ${n}`,
  artwork: 'Fichier',
  discount: 'Remise',
  priceBreaks: 'Prix par quantité',
  priceBreakNote: 'Les lignes ci-dessus à d’autres quantités : choisissez une colonne à l’acceptation.',
  column: (position) => `Option ${position}`,
  columnTotal: 'Total du devis',
  brief: 'Cahier des charges',
  dieLines: 'Tracés de découpe',
  dieLineCaption: 'Développé à plat',
  dieLineFiles: 'Gabarits :',
  cut: 'coupe',
  crease: 'rainage',
  blank: 'développé',
  validity: (date) => `Ce devis est valable jusqu’au ${date}. Prix hors taxes.`,
  noValidity: 'Prix hors taxes.',
  leadTime: (days) =>
    `Délai : ${days} ${days === 1 ? 'jour ouvré' : 'jours ouvrés'} du bon à tirer à la livraison (carton, outillage, fabrication et transport).`,
  acceptance: 'Bon pour accord (nom, date et signature du client) :',
  signature: 'Signature',
  page: (page, pages) => `Page ${page} sur ${pages}`,
  states: {
    draft: 'Brouillon',
    published: 'Publié',
    signed: 'Signé',
    rejected: 'Refusé',
    expired: 'Expiré',
  },
};

const de: Labels = {
  title: 'Angebot',
  code: 'Angebot Nr.',
  version: 'Version',
  issued: 'Datum',
  validUntil: 'Gültig bis',
  currency: 'Währung',
  project: 'Projekt',
  customer: 'Kunde',
  contact: 'Ansprechpartner',
  deliverTo: 'Lieferadresse',
  phone: 'Telefon',
  email: 'E-Mail',
  reference: 'Ref.',
  description: 'Bezeichnung',
  quantity: 'Menge',
  unitPrice: 'Stückpreis',
  tooling: 'Werkzeug',
  delivery: 'Lieferung',
  total: 'Gesamt',
  subtotal: 'Zwischensumme',
  productsTotal: 'Produkte',
  toolingTotal: 'Werkzeuge',
  deliveryTotal: 'Lieferung',
  grandTotal: 'Gesamt netto',
  dimensions: 'Abmessungen',
  comment: 'Hinweis',
  optional: 'Option, nicht im Gesamtbetrag enthalten',
  variant: (n) => `Variante ${n}`,
  artwork: 'Druckvorlage',
  discount: 'Rabatt',
  priceBreaks: 'Staffelpreise',
  priceBreakNote: 'Die Positionen oben in anderen Mengen: bei der Annahme eine Spalte wählen.',
  column: (position) => `Option ${position}`,
  columnTotal: 'Summe des Angebots',
  brief: 'Anfrage',
  dieLines: 'Stanzkonturen',
  dieLineCaption: 'Zuschnitt',
  dieLineFiles: 'Vorlagen:',
  cut: 'Schnitt',
  crease: 'Rillung',
  blank: 'Zuschnitt',
  validity: (date) => `Dieses Angebot ist gültig bis ${date}. Preise zzgl. MwSt.`,
  noValidity: 'Preise zzgl. MwSt.',
  leadTime: (days) =>
    `Lieferzeit: ${days} ${days === 1 ? 'Arbeitstag' : 'Arbeitstage'} von der Druckfreigabe bis zur Lieferung (Karton, Werkzeuge, Fertigung und Transport).`,
  acceptance: 'Auftrag erteilt (Name, Datum und Unterschrift des Kunden):',
  signature: 'Unterschrift',
  page: (page, pages) => `Seite ${page} von ${pages}`,
  states: {
    draft: 'Entwurf',
    published: 'Veröffentlicht',
    signed: 'Unterzeichnet',
    rejected: 'Abgelehnt',
    expired: 'Abgelaufen',
  },
};

/** The languages, with the locale used for numbers and dates. */
const LANGUAGES = {
  en: { labels: en, locale: 'en-GB' },
  fr: { labels: fr, locale: 'fr-FR' },
  de: { labels: de, locale: 'de-DE' },
} as const;

export type Language = keyof typeof LANGUAGES;
export const SUPPORTED_LANGUAGES = Object.keys(LANGUAGES) as Language[];

const TAG = /^([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*$/;

/** The primary language of a localisation id, or null when it is not one of ours. */
export function languageOf(localisationId: string): Language | null {
  const match = TAG.exec(localisationId.trim());
  const primary = match?.[1]?.toLowerCase();
  return primary && primary in LANGUAGES ? (primary as Language) : null;
}

/** The language of a request's localisation id, or 400 with a pointer to it. */
export function requireLanguage(
  localisationId: string,
  pointer = '/localisationId',
  where: 'body' | 'params' = 'body',
) {
  const language = languageOf(localisationId);
  if (!language) {
    throw new AppError(
      'unsupported_language',
      `Unknown localisation "${localisationId}": supported languages are ${SUPPORTED_LANGUAGES.join(', ')}`,
      { issues: [{ pointer, message: `must be one of: ${SUPPORTED_LANGUAGES.join(', ')}`, in: where }] },
    );
  }
  return language;
}

export type Formatter = {
  language: Language;
  labels: Labels;
  money(value: number): string;
  unitPrice(value: number): string;
  quantity(value: number): string;
  number(value: number, digits?: number): string;
  date(value: Date): string;
};

const formatters = new Map<string, Formatter>();

/**
 * Labels and formats of a language, with amounts in `currency` (ISO 4217). Made once per
 * language and currency: building Intl formats costs far more than using them.
 */
export function formatterFor(language: Language, currency: string): Formatter {
  const key = `${language}:${currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = makeFormatter(language, currency);
    if (formatters.size > 200) formatters.clear();
    formatters.set(key, formatter);
  }
  return formatter;
}

function makeFormatter(language: Language, currency: string): Formatter {
  const { labels, locale } = LANGUAGES[language];
  // Narrow and ordinary no-break spaces become plain no-break spaces: the PDF font has them all,
  // but one kind keeps the extracted text predictable.
  const clean = (text: string) => text.replace(/[\u202f\u00a0]/g, '\u00a0');
  let money: Intl.NumberFormat;
  let unit: Intl.NumberFormat;
  try {
    money = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2 });
    unit = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 4,
    });
  } catch {
    // Not an ISO currency: the code after the number.
    const plain = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const plain4 = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 4 });
    money = { format: (v: number) => `${plain.format(v)} ${currency}` } as Intl.NumberFormat;
    unit = { format: (v: number) => `${plain4.format(v)} ${currency}` } as Intl.NumberFormat;
  }
  const quantity = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
  const date = new Intl.DateTimeFormat(locale, {
    day: '2-digit',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const numbers = new Map<number, Intl.NumberFormat>();
  const numberFormat = (digits: number) => {
    let format = numbers.get(digits);
    if (!format) {
      format = new Intl.NumberFormat(locale, { maximumFractionDigits: digits });
      numbers.set(digits, format);
    }
    return format;
  };
  return {
    language,
    labels,
    money: (value) => clean(money.format(value)),
    unitPrice: (value) => clean(unit.format(value)),
    quantity: (value) => clean(quantity.format(value)),
    number: (value, digits = 0) => clean(numberFormat(digits).format(value)),
    date: (value) => clean(date.format(value)),
  };
}
