/**
 * Quote PDFs: rendering in a language and storing the result as the quote's file of that
 * language (a new rendering replaces the previous one), downloads, and guest links that serve a
 * PDF without credentials (token shown once, stored as its SHA-256).
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { briefElements } from '../../db/schema/briefs.ts';
import { files } from '../../db/schema/organisation-data.ts';
import { quoteGuestLinks } from '../../db/schema/quotes.ts';
import { type Actor, assertCompanyWritable } from '../../platform/actor.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import type { DieLine } from '../../pricing/index.ts';
import { removeLabelledFilesInTransaction } from '../files/in-transaction.ts';
import { readFileContent } from '../files/repository.ts';
import { createFilesService } from '../files/service.ts';
import type { OrganisationSettingsService } from '../organisations/settings-service.ts';
import { vatTotals } from '../organisations/vat.ts';
import { dieLinesOf } from './briefs-source.ts';
import { type Language, requireLanguage } from './i18n.ts';
import { itemTree } from './items.ts';
import { type PdfQuote, renderQuotePdf } from './pdf.ts';
import type { RenderOptions } from './pdf-document.ts';
import type { PdfSeller } from './pdf-seller.ts';
import {
  companyVatNumberOf,
  findGuestLinkByHash,
  findQuoteRow,
  type GuestLinkRow,
  guestLinksOf,
  liveItemsOf,
  QUOTE_ENTITY,
  QUOTE_GUEST_LINK_ENTITY,
  type QuoteWithRefs,
} from './repository.ts';
import type { QuoteService } from './service.ts';

/** How long a guest link works when the request gives no `expiresAt`. */
export const GUEST_LINK_DAYS = 30;
/** The longest a guest link may work. */
export const GUEST_LINK_MAX_DAYS = 366;

const DAY_MS = 86_400_000;

export const hashGuestToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A guest link as the API shows it (never its hash). */
export function presentLink(row: GuestLinkRow, now = new Date()) {
  const { tokenHash: _hash, organisationId: _org, language, ...link } = row;
  return {
    ...link,
    localisationId: language,
    active: !row.revokedAt && row.expiresAt.getTime() > now.getTime(),
  };
}

const quoteFile = (quoteId: string) => ({ entity: 'quote' as const, entityId: quoteId });

/** The die-line of each element item, from the prediction it was priced from. */
async function dieLinesOfItems(db: Executor, items: Awaited<ReturnType<typeof liveItemsOf>>) {
  const elementItems = items.filter((i) => i.briefElementId && i.predictionId);
  const result = new Map<string, DieLine>();
  if (!elementItems.length) return result;
  const [positions, drawings] = await Promise.all([
    db
      .select({ id: briefElements.id, position: briefElements.position })
      .from(briefElements)
      .where(inArray(briefElements.id, [...new Set(elementItems.map((i) => i.briefElementId!))])),
    dieLinesOf(db, [...new Set(elementItems.map((i) => i.predictionId!))]),
  ]);
  const positionOf = new Map(positions.map((p) => [p.id, p.position]));
  for (const item of elementItems) {
    const drawing = drawings.get(item.predictionId!)?.get(positionOf.get(item.briefElementId!) ?? -1);
    if (drawing) result.set(item.id, drawing.dieLine);
  }
  return result;
}

/** The seller of an organisation without settings: its name only. */
const bareSeller = (name: string): PdfSeller => ({
  name,
  legalName: null,
  tradingName: null,
  logo: null,
  registeredAddress: null,
  invoiceAddress: null,
  email: null,
  phoneNumber: null,
  website: null,
  vatNumber: null,
  registrationNumber: null,
  bankName: null,
  accountHolder: null,
  iban: null,
  bic: null,
  termsAndConditions: {},
  pdfFooter: null,
});

/** What the PDF of a quote shows; `seller` is the organisation settings' (its name alone without). */
export async function pdfDataOf(db: Executor, quote: QuoteWithRefs, seller?: PdfSeller): Promise<PdfQuote> {
  const items = await liveItemsOf(db, quote.id);
  const [dieLines, customerVatNumber] = await Promise.all([
    dieLinesOfItems(db, items),
    companyVatNumberOf(db, quote.organisationId, quote.companyId),
  ]);
  return {
    ...quote,
    items: itemTree(items),
    dieLines,
    seller: seller ?? bareSeller(quote.organisationName),
    terms: { ...quote, ...vatTotals(quote.totalPrice, quote.vatRate), customerVatNumber },
  };
}

export function createQuotePdfService(
  ctx: AppContext,
  quotes: QuoteService,
  settings: Pick<OrganisationSettingsService, 'sellerOf'>,
  renderOptions: RenderOptions = {},
) {
  const { db } = ctx;
  const filesService = createFilesService(ctx);

  async function currentPdf(organisationId: string, quoteId: string, language: Language) {
    const [file] = await db
      .select({ id: files.id, filename: files.filename, sha256: files.sha256, mimeType: files.mimeType })
      .from(files)
      .where(
        and(
          eq(files.organisationId, organisationId),
          eq(files.entity, 'quote'),
          eq(files.entityId, quoteId),
          eq(files.label, language),
          eq(files.mimeType, 'application/pdf'),
          isNull(files.deletedAt),
        ),
      )
      .orderBy(files.createdAt)
      .limit(1);
    if (!file) return undefined;
    const content = await readFileContent(db, file.id);
    return content ? { file, content } : undefined;
  }

  /** Renders the PDF of a published quote in a language and stores it, replacing the previous one. */
  async function generate(actor: Actor, id: string, localisationId: string) {
    const language = requireLanguage(localisationId);
    const found = await quotes.visibleWithRefs(actor, id);
    assertCompanyWritable(actor, found.companyId);
    if (found.state !== 'published') {
      throw new AppError(
        'quote_not_published',
        `A PDF is generated for a published quote only (this one is ${found.state})`,
      );
    }
    // Rendering happens outside the transaction: nothing is locked while pdfkit works.
    const seller = await settings.sellerOf(db, actor.organisationId);
    const content = await renderQuotePdf(await pdfDataOf(db, found, seller), language, renderOptions);
    const file = await ctx.change(actor, async (tx, record) => {
      const row = await findQuoteRow(tx, actor.organisationId, id, true);
      if (!row) throw notFound('Quote');
      if (row.state !== 'published' || row.updatedAt.getTime() !== found.updatedAt.getTime()) {
        throw new AppError(
          'quote_changed',
          'The quote changed while its PDF was rendered: generate it again',
        );
      }
      await removeLabelledFilesInTransaction(tx, actor, quoteFile(id), language, record);
      const stored = await filesService.storeFile(
        tx,
        actor,
        {
          ...quoteFile(id),
          filename: `${row.code}-${language}.pdf`,
          mimeType: 'application/pdf',
          content,
          label: language,
        },
        record,
      );
      await record({
        on: QUOTE_ENTITY,
        type: 'UPDATE',
        entityId: id,
        snapshot: row,
        updatedRelations: ['pdfs'],
      });
      return stored;
    });
    return { file, content };
  }

  return {
    generate,

    /** The stored PDF of a quote in a language (404 when it has not been generated). */
    async download(actor: Actor, id: string, localisationId: string) {
      const language = requireLanguage(localisationId, '/localisationId', 'params');
      await quotes.assertVisible(actor, id);
      const pdf = await currentPdf(actor.organisationId, id, language);
      if (!pdf) {
        throw new AppError(
          'pdf_not_generated',
          `No ${language} PDF of this quote: generate it with POST /quotes/${id}/generate-pdf`,
        );
      }
      return pdf;
    },

    /**
     * A guest link to the quote's PDF in a language. The PDF is generated first when the quote is
     * published and has none in that language yet.
     */
    async createLink(actor: Actor, id: string, input: { localisationId: string; expiresAt?: string }) {
      const language = requireLanguage(input.localisationId);
      const now = new Date();
      const expiresAt = input.expiresAt
        ? new Date(input.expiresAt)
        : new Date(now.getTime() + GUEST_LINK_DAYS * DAY_MS);
      if (expiresAt.getTime() <= now.getTime()) {
        throw new AppError('invalid_expiry', 'expiresAt must be in the future', {
          issues: [{ pointer: '/expiresAt', message: 'must be in the future', in: 'body' }],
        });
      }
      if (expiresAt.getTime() > now.getTime() + GUEST_LINK_MAX_DAYS * DAY_MS) {
        throw new AppError('invalid_expiry', `A guest link works at most ${GUEST_LINK_MAX_DAYS} days`, {
          issues: [
            { pointer: '/expiresAt', message: `must be within ${GUEST_LINK_MAX_DAYS} days`, in: 'body' },
          ],
        });
      }
      const found = await quotes.visibleWithRefs(actor, id);
      assertCompanyWritable(actor, found.companyId);
      if (found.state === 'draft') {
        throw new AppError('quote_not_published', 'A draft has no PDF to share: publish the quote first');
      }
      if (!(await currentPdf(actor.organisationId, id, language))) {
        if (found.state !== 'published') {
          throw new AppError(
            'pdf_not_generated',
            `The quote has no ${language} PDF and, being ${found.state}, can no longer be rendered`,
            { status: 409 },
          );
        }
        await generate(actor, id, language);
      }
      const token = randomBytes(32).toString('base64url');
      const row = await ctx.change(actor, async (tx, record) => {
        const [link] = await tx
          .insert(quoteGuestLinks)
          .values({
            organisationId: actor.organisationId,
            quoteId: id,
            language,
            tokenHash: hashGuestToken(token),
            expiresAt,
            createdById: actor.userId,
            createdAt: now,
          })
          .returning();
        await record({
          on: QUOTE_GUEST_LINK_ENTITY,
          type: 'CREATE',
          entityId: link!.id,
          snapshot: presentLink(link!, now),
          relation: QUOTE_ENTITY,
          relationId: id,
        });
        return link!;
      });
      return {
        ...presentLink(row, now),
        token,
        url: `${ctx.config.publicBaseUrl}/api/public/quotes/pdf/${token}`,
      };
    },

    async listLinks(actor: Actor, id: string) {
      const found = await quotes.visibleWithRefs(actor, id);
      assertCompanyWritable(actor, found.companyId);
      const now = new Date();
      return (await guestLinksOf(db, actor.organisationId, id)).map((row) => presentLink(row, now));
    },

    /** Revokes a link (idempotent: revoking a revoked link changes nothing). */
    async revokeLink(actor: Actor, id: string, linkId: string) {
      const found = await quotes.visibleWithRefs(actor, id);
      assertCompanyWritable(actor, found.companyId);
      const row = await ctx.change(actor, async (tx, record) => {
        const [current] = await tx
          .select()
          .from(quoteGuestLinks)
          .where(
            and(
              eq(quoteGuestLinks.id, linkId),
              eq(quoteGuestLinks.quoteId, id),
              eq(quoteGuestLinks.organisationId, actor.organisationId),
            ),
          )
          .for('update');
        if (!current) throw notFound('Guest link');
        if (current.revokedAt) return current;
        const [revoked] = await tx
          .update(quoteGuestLinks)
          .set({ revokedAt: new Date() })
          .where(eq(quoteGuestLinks.id, linkId))
          .returning();
        await record({
          on: QUOTE_GUEST_LINK_ENTITY,
          type: 'UPDATE',
          entityId: linkId,
          snapshot: presentLink(revoked!),
          updatedColumns: ['revokedAt'],
          relation: QUOTE_ENTITY,
          relationId: id,
        });
        return revoked!;
      });
      return presentLink(row);
    },

    /**
     * The PDF behind a guest token, without credentials: 404 for an unknown token, 410 for a
     * revoked or expired link, 404 when the quote or its PDF is gone.
     */
    async servePublic(token: string) {
      const link = await findGuestLinkByHash(db, hashGuestToken(token));
      if (!link) throw notFound('Guest link');
      if (link.revokedAt) throw new AppError('guest_link_revoked', 'This link has been revoked');
      if (link.expiresAt.getTime() <= Date.now()) {
        throw new AppError('guest_link_expired', 'This link has expired');
      }
      const quote = await findQuoteRow(db, link.organisationId, link.quoteId);
      if (!quote) throw notFound('Quote');
      const pdf = await currentPdf(link.organisationId, link.quoteId, link.language as Language);
      if (!pdf) throw notFound('PDF');
      return pdf;
    },
  };
}

export type QuotePdfService = ReturnType<typeof createQuotePdfService>;
