/**
 * EU VAT numbers: normalisation and a light format check per country prefix (docs/quotes.md,
 * "VAT and terms"). Used by the companies (the customer's number) and the organisation settings
 * (the seller's).
 */

/**
 * The shape of each EU VAT number (VIES), prefix included, after normalisation. A light check:
 * it catches typos and numbers of the wrong country, not numbers that were never issued (that
 * needs VIES, a network call the service does not make). `EL` is Greece, `XI` Northern Ireland.
 */
const VAT_PATTERNS: Record<string, RegExp> = {
  AT: /^ATU\d{8}$/,
  BE: /^BE[01]\d{9}$/,
  BG: /^BG\d{9,10}$/,
  CY: /^CY\d{8}[A-Z]$/,
  CZ: /^CZ\d{8,10}$/,
  DE: /^DE\d{9}$/,
  DK: /^DK\d{8}$/,
  EE: /^EE\d{9}$/,
  EL: /^EL\d{9}$/,
  ES: /^ES[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^FI\d{8}$/,
  FR: /^FR[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^HR\d{11}$/,
  HU: /^HU\d{8}$/,
  IE: /^IE\d[A-Z0-9+*]\d{5}[A-Z]{1,2}$/,
  IT: /^IT\d{11}$/,
  LT: /^LT(\d{9}|\d{12})$/,
  LU: /^LU\d{8}$/,
  LV: /^LV\d{11}$/,
  MT: /^MT\d{8}$/,
  NL: /^NL\d{9}B\d{2}$/,
  PL: /^PL\d{10}$/,
  PT: /^PT\d{9}$/,
  RO: /^RO\d{2,10}$/,
  SE: /^SE\d{12}$/,
  SI: /^SI\d{8}$/,
  SK: /^SK\d{10}$/,
  XI: /^XI(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
};

/** The country of a VAT prefix (`EL` is GR, `XI` GB). */
const PREFIX_COUNTRY: Record<string, string> = { EL: 'GR', XI: 'GB' };

/** Upper case without spaces, dots, dashes and slashes: `fr 40 303 265 045` -> `FR40303265045`. */
export const normaliseVatNumber = (value: string) => value.replace(/[\s.\-/]/g, '').toUpperCase();

/**
 * Checks a VAT number: one starting with an EU prefix must have that country's shape (and is
 * answered normalised); any other (Swiss `CHE-…`, UK `GB…`, a local tax id) is kept as typed,
 * trimmed, since its formats are not checked here. Answers `{ error }` when it does not pass.
 */
export function checkVatNumber(value: string): { value: string } | { error: string } {
  const trimmed = value.trim();
  const compact = normaliseVatNumber(trimmed);
  const prefix = compact.slice(0, 2);
  const pattern = VAT_PATTERNS[prefix];
  if (!pattern) return { value: trimmed };
  return pattern.test(compact)
    ? { value: compact }
    : { error: `is not a valid ${prefix} VAT number (expected e.g. ${EXAMPLES[prefix] ?? prefix})` };
}

const EXAMPLES: Record<string, string> = {
  AT: 'ATU12345678',
  BE: 'BE0123456789',
  DE: 'DE123456789',
  ES: 'ESX1234567X',
  FR: 'FR40303265045',
  IT: 'IT12345678901',
  NL: 'NL123456789B01',
};

/** The country a VAT number belongs to (its prefix), when it has an EU prefix. */
export function vatNumberCountry(vatNumber: string | null | undefined): string | undefined {
  if (!vatNumber) return undefined;
  const prefix = normaliseVatNumber(vatNumber).slice(0, 2);
  if (!VAT_PATTERNS[prefix]) return undefined;
  return PREFIX_COUNTRY[prefix] ?? prefix;
}
