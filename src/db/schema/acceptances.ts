import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { id, organisationId } from './columns.ts';
import { organisations } from './platform.ts';
import { quoteGuestLinks, quotes } from './quotes.ts';

export const ACCEPTANCE_DECISIONS = ['accepted', 'declined'] as const;
export type AcceptanceDecision = (typeof ACCEPTANCE_DECISIONS)[number];

/**
 * The evidence of a buyer's answer to a published quote (docs/quotes.md, "Acceptance evidence"):
 * who answered (a user, or a guest link made for the quote), what they typed and confirmed, when
 * (server clock), from where (IP, user agent), and the SHA-256 of the exact PDF they were shown.
 * Written in the transaction that moves the quote to signed or rejected; never changed afterwards
 * except to attach the signed PDF. One answer per quote (unique index).
 */
export const quoteAcceptances = pgTable(
  'quote_acceptances',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    quoteId: uuid('quote_id')
      .notNull()
      .references(() => quotes.id),
    decision: text('decision').$type<AcceptanceDecision>().notNull(),
    /** The user who answered (a contact, or staff answering for the buyer); null for a guest. */
    userId: uuid('user_id'),
    /** The guest link the answer came through; null for a signed-in user. */
    guestLinkId: uuid('guest_link_id').references(() => quoteGuestLinks.id),
    /** The role of the user, or `guest`. */
    actorRole: text('actor_role').notNull(),
    email: text('email'),
    /** The name the buyer typed as their signature (required to accept, except staff without a body). */
    typedName: text('typed_name'),
    /** Whether the buyer ticked the explicit confirmation (`confirm: true`). */
    confirmed: boolean('confirmed').notNull().default(false),
    answeredAt: timestamp('answered_at', { withTimezone: true, mode: 'date' }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    quoteCode: text('quote_code').notNull(),
    quoteVersion: integer('quote_version').notNull(),
    /** The language of the PDF shown (its file label). */
    language: text('language').notNull(),
    pdfFileId: uuid('pdf_file_id'),
    /** SHA-256 (hex) of the exact bytes of that PDF. */
    pdfSha256: text('pdf_sha256').notNull(),
    /** Whether the client sent the hash of the PDF it showed (it then equalled pdfSha256). */
    pdfHashFromClient: boolean('pdf_hash_from_client').notNull().default(false),
    poNumber: text('po_number'),
    comment: text('comment'),
    /** The reason of a decline. */
    reason: text('reason'),
    /** The price break / quantity option the buyer chose, as sent (kept for the portal). */
    option: jsonb('option').$type<Record<string, unknown>>(),
    /** The PAdES signed PDF of an accepted quote (a file of the quote), once made. */
    signedFileId: uuid('signed_file_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('quote_acceptances_quote_uq').on(t.quoteId),
    index('quote_acceptances_org_idx').on(t.organisationId, t.createdAt),
    check('quote_acceptances_decision_check', sql`${t.decision} in ('accepted', 'declined')`),
    check('quote_acceptances_who_check', sql`(${t.userId} is null) <> (${t.guestLinkId} is null)`),
  ],
);

/**
 * The organisation's document-signing certificate (self-signed X.509, RSA 2048, SHA-256), made on
 * first use. The private key is stored sealed with ENCRYPTION_KEY (platform/secret-box.ts), never
 * in clear.
 */
export const organisationSigningKeys = pgTable('organisation_signing_keys', {
  organisationId: uuid('organisation_id')
    .primaryKey()
    .references(() => organisations.id),
  certificatePem: text('certificate_pem').notNull(),
  privateKeySealed: text('private_key_sealed').notNull(),
  notAfter: timestamp('not_after', { withTimezone: true, mode: 'date' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
