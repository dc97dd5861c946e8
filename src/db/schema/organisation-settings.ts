import { doublePrecision, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './columns.ts';
import { organisations } from './platform.ts';

/** Incoterms 2020: the eleven rules (ICC). */
export const INCOTERMS = [
  'EXW',
  'FCA',
  'CPT',
  'CIP',
  'DAP',
  'DPU',
  'DDP',
  'FAS',
  'FOB',
  'CFR',
  'CIF',
] as const;
export type Incoterm = (typeof INCOTERMS)[number];

/** The languages the terms and conditions are kept in (those of the quote PDFs). */
export const TERMS_LANGUAGES = ['en', 'fr', 'de'] as const;
export type TermsLanguage = (typeof TERMS_LANGUAGES)[number];

/** A postal address of the seller (registered office, invoicing). */
export type SellerAddress = {
  street1: string;
  street2: string | null;
  postcode: string | null;
  city: string;
  region: string | null;
  countryCode: string;
};

/**
 * The seller's identity and commercial defaults, one row per organisation (docs/settings-and-files.md).
 * Absent until an admin saves them: reads answer the defaults then. The logo is a file of the
 * files module (entity `organisation`, label `logo`), referenced here. VAT rates are percentages
 * (20 = 20 %).
 */
export const organisationSettings = pgTable('organisation_settings', {
  organisationId: uuid('organisation_id')
    .primaryKey()
    .references(() => organisations.id),
  legalName: text('legal_name'),
  tradingName: text('trading_name'),
  logoFileId: uuid('logo_file_id'),
  registeredAddress: jsonb('registered_address').$type<SellerAddress | null>(),
  invoiceAddress: jsonb('invoice_address').$type<SellerAddress | null>(),
  email: text('email'),
  phoneNumber: text('phone_number'),
  website: text('website'),
  vatNumber: text('vat_number'),
  registrationNumber: text('registration_number'),
  bankName: text('bank_name'),
  accountHolder: text('account_holder'),
  iban: text('iban'),
  bic: text('bic'),
  paymentTerms: text('payment_terms'),
  paymentDays: integer('payment_days'),
  incoterm: text('incoterm').$type<Incoterm>(),
  incotermPlace: text('incoterm_place'),
  deliveryTerms: text('delivery_terms'),
  termsAndConditions: jsonb('terms_and_conditions')
    .$type<Partial<Record<TermsLanguage, string>>>()
    .notNull()
    .default({}),
  defaultVatRate: doublePrecision('default_vat_rate'),
  vatRates: jsonb('vat_rates').$type<Record<string, number>>().notNull().default({}),
  pdfFooter: text('pdf_footer'),
  updatedById: uuid('updated_by_id'),
  ...timestamps(),
});
