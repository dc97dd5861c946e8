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
import { id, organisationId, timestamps } from './columns.ts';
import { organisations } from './platform.ts';
import { quoteGuestLinks, quoteItems, quotes } from './quotes.ts';

export const PREFLIGHT_STATES = ['pending', 'done', 'failed'] as const;
export type PreflightState = (typeof PREFLIGHT_STATES)[number];

export const PROOF_DECISIONS = ['approved', 'changes_requested'] as const;
export type ProofDecision = (typeof PROOF_DECISIONS)[number];

export const FINDING_SEVERITIES = ['error', 'warning'] as const;
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];

/** One preflight finding: a stable code, its severity and the figures a sentence is made from. */
export type PreflightFinding = {
  code: string;
  severity: FindingSeverity;
  params: Record<string, string | number>;
};

/** What preflight read of the artwork (its first page). */
export type ArtworkInfo = {
  kind: 'pdf' | 'png' | 'jpeg' | 'tiff';
  /** Print size of the first page (a raster at its own resolution), mm. */
  widthMm: number;
  heightMm: number;
  /** The lowest effective resolution of its raster images at print size; null without any. */
  minPpi: number | null;
  colourSpaces: string[];
  outputIntent: string | null;
  /** The blank and the size the artwork should have (blank + bleed on every side), mm. */
  blank: { widthMm: number; heightMm: number; bleedMm: number } | null;
};

/**
 * Proof versions of a quote line (docs/proofs.md): every artwork upload is a new version, with
 * the artwork file, its preflight (a durable job) and the proof PDF made from it (the artwork on
 * the die-line template), then the buyer's decision with its evidence (who, typed name, when, IP,
 * user agent, SHA-256 of the proof shown). A decision is written once, on the latest version only.
 */
export const artworkProofs = pgTable(
  'artwork_proofs',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    quoteId: uuid('quote_id')
      .notNull()
      .references(() => quotes.id),
    quoteItemId: uuid('quote_item_id')
      .notNull()
      .references(() => quoteItems.id),
    /** 1, 2, ... per line. */
    version: integer('version').notNull(),
    /** The artwork as uploaded (a file of the quote, label `artwork`). */
    artworkFileId: uuid('artwork_file_id').notNull(),
    artworkFilename: text('artwork_filename').notNull(),
    artworkSha256: text('artwork_sha256').notNull(),
    preflightState: text('preflight_state').$type<PreflightState>().notNull().default('pending'),
    findings: jsonb('findings').$type<PreflightFinding[]>().notNull().default([]),
    artwork: jsonb('artwork').$type<ArtworkInfo>(),
    /** The proof PDF (a file of the quote, label `proof`) and its SHA-256, once made. */
    proofFileId: uuid('proof_file_id'),
    proofSha256: text('proof_sha256'),
    preflightAt: timestamp('preflight_at', { withTimezone: true, mode: 'date' }),
    decision: text('decision').$type<ProofDecision>(),
    decidedById: uuid('decided_by_id'),
    decidedRole: text('decided_role'),
    /** A guest's decision: the guest link made for proofs it came through, and the e-mail typed. */
    decidedGuestLinkId: uuid('decided_guest_link_id').references(() => quoteGuestLinks.id),
    decidedEmail: text('decided_email'),
    typedName: text('typed_name'),
    comment: text('comment'),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** Whether the client sent the SHA-256 of the proof it showed (it then equalled proofSha256). */
    hashFromClient: boolean('hash_from_client').notNull().default(false),
    createdById: uuid('created_by_id'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('artwork_proofs_item_version_uq').on(t.quoteItemId, t.version),
    index('artwork_proofs_quote_idx').on(t.organisationId, t.quoteId, t.quoteItemId, t.version),
    index('artwork_proofs_pending_idx').on(t.preflightState).where(sql`${t.preflightState} = 'pending'`),
    check('artwork_proofs_preflight_check', sql`${t.preflightState} in ('pending', 'done', 'failed')`),
    check(
      'artwork_proofs_decision_check',
      sql`${t.decision} is null or ${t.decision} in ('approved', 'changes_requested')`,
    ),
  ],
);
