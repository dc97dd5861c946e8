/**
 * VAT rules of the quotes (docs/quotes.md, "VAT and terms"): which treatment and rate a customer
 * gets, and the amounts. Pure functions. The VAT number check is platform/vat-numbers.ts.
 */
import type { VatTreatment } from '../../db/schema/quotes.ts';
import { roundCents } from '../../platform/money.ts';
import { vatNumberCountry } from '../../platform/vat-numbers.ts';

/** The 27 member states (ISO 3166-1 alpha-2). */
export const EU_COUNTRIES = new Set([
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
]);

export type SellerVat = {
  /** The seller's country (its registered address), when known. */
  country: string | null;
  /** Percent; null: the seller has set no rate, quotes carry no VAT (`none`). */
  defaultRate: number | null;
  /** Percent by customer country (ISO code). */
  rates: Record<string, number>;
};

export type CustomerVat = {
  /** The customer's country (the quote's address, else the company's billing address). */
  country: string | null;
  vatNumber: string | null;
  vatExempt: boolean;
  vatExemptionReason: string | null;
};

export type VatDecision = {
  treatment: VatTreatment;
  /** Percent; 0 for reverse charge, exempt and export; null for `none`. */
  rate: number | null;
  exemptionReason: string | null;
};

/**
 * The VAT of a sale, in this order:
 * 1. an exempt customer: `exempt`, 0 %, with its reason;
 * 2. a customer in another EU country than an EU seller, with a VAT number: `reverse_charge`, 0 %
 *    (B2B intra-community supply, article 196 of the VAT directive);
 * 3. a rate set for the customer's country: `standard` at that rate (e.g. distance sales);
 * 4. a customer outside the EU of an EU seller: `export`, 0 %;
 * 5. otherwise (same country, or the country unknown): the default rate, `none` without one.
 */
export function decideVat(seller: SellerVat, customer: CustomerVat): VatDecision {
  if (customer.vatExempt) {
    return { treatment: 'exempt', rate: 0, exemptionReason: customer.vatExemptionReason };
  }
  const country = customer.country ?? vatNumberCountry(customer.vatNumber) ?? null;
  const sellerInEu = seller.country !== null && EU_COUNTRIES.has(seller.country);
  const abroad = country !== null && seller.country !== null && country !== seller.country;
  if (sellerInEu && abroad && EU_COUNTRIES.has(country) && customer.vatNumber?.trim()) {
    return { treatment: 'reverse_charge', rate: 0, exemptionReason: null };
  }
  const countryRate = country ? seller.rates[country] : undefined;
  if (countryRate !== undefined) return { treatment: 'standard', rate: countryRate, exemptionReason: null };
  if (sellerInEu && abroad && !EU_COUNTRIES.has(country)) {
    return { treatment: 'export', rate: 0, exemptionReason: null };
  }
  if (seller.defaultRate === null) return { treatment: 'none', rate: null, exemptionReason: null };
  return { treatment: 'standard', rate: seller.defaultRate, exemptionReason: null };
}

/**
 * The totals of a quote from its net total (the sum of its lines, already in cents): VAT =
 * round(net x rate / 100) to the cent, once per quote (never per line), gross = net + VAT.
 */
export function vatTotals(netTotal: number, rate: number | null) {
  const vatAmount = rate === null ? 0 : roundCents((netTotal * rate) / 100);
  return { netTotal: roundCents(netTotal), vatAmount, grossTotal: roundCents(netTotal + vatAmount) };
}
