/**
 * Quote PDFs: rendering in a language and storing the result as the quote's file of that
 * language (a new rendering replaces the previous one), downloads, and guest links that serve a
 * PDF without credentials (token shown once, stored as its SHA-256).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { type Actor, assertCompanyWritable, systemActor } from '../../platform/actor.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { toolingLines, variantLines } from '../../platform/line-parts.ts';
import { roundCents } from '../../platform/money.ts';
import { localisedLine } from '../catalogue/line-names.ts';
import { loadCatalogueWithNames } from '../catalogue/loader.ts';
import { fileStem, templateFileNames } from '../dielines/file-names.ts';
import { removeLabelledFilesInTransaction } from '../files/in-transaction.ts';
import type { FilesService } from '../files/service.ts';
import type { OrganisationSettingsService } from '../organisations/settings-service.ts';
import { vatTotals } from '../organisations/vat.ts';
import { dieLinesOf } from './brief-source-repository.ts';
import { type Language, requireLanguage, SUPPORTED_LANGUAGES } from './i18n.ts';
import { itemTree } from './items.ts';
import { isPastValidity } from './lifecycle.ts';
import { discountOf } from './line-money.ts';
import { type PdfDieLine, type PdfItem, type PdfQuote, renderQuotePdf } from './pdf.ts';
import type { RenderOptions } from './pdf-document.ts';
import {
  elementPositions,
  findQuotePdfWithContent,
  findTemplateRevisions,
  insertGuestLink,
  lockGuestLink,
  lockPdfRendering,
  longestLeadTimeOf,
  prepareStoredPdfHit,
  revokeGuestLink,
  type StoredPdfHitQuery,
} from './pdf-repository.ts';
import type { PdfSeller } from './pdf-seller.ts';
import { quoteColumns } from './price-breaks.ts';
import { createRenderPool, type RenderPool } from './render-pool.ts';
import {
  companyVatNumberOf,
  findGuestLinkByHash,
  findQuoteRow,
  findQuoteWithRefs,
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

/**
 * The die-line of each element item, from the prediction it was priced from, with the names of its
 * template files (the quote line's die-line routes answer these names; docs/dielines.md).
 */
async function dieLinesOfItems(db: Executor, items: Awaited<ReturnType<typeof liveItemsOf>>) {
  const elementItems = items.filter((i) => i.briefElementId && i.predictionId);
  const result = new Map<string, PdfDieLine>();
  if (!elementItems.length) return result;
  const [positions, drawings] = await Promise.all([
    elementPositions(db, [...new Set(elementItems.map((i) => i.briefElementId!))]),
    dieLinesOf(db, [...new Set(elementItems.map((i) => i.predictionId!))]),
  ]);
  const positionOf = new Map(positions.map((p) => [p.id, p.position]));
  const codeOf = new Map(items.map((i) => [i.id, i.reference]));
  for (const item of elementItems) {
    const position = item.elementPosition ?? positionOf.get(item.briefElementId!) ?? -1;
    const drawing = drawings.get(item.predictionId!)?.get(position);
    if (!drawing) continue;
    const code = item.parentId ? codeOf.get(item.parentId) : null;
    const files =
      code && drawing.inside && drawing.productCode
        ? templateFileNames(
            fileStem({
              brief: { code },
              version: drawing.version,
              position,
              input: drawing.inside,
              computed: { productCode: drawing.productCode },
            }),
          )
        : [];
    result.set(item.id, {
      dieLine: drawing.dieLine,
      files,
      kraft: drawing.productCode?.startsWith('0') ?? false,
    });
  }
  return result;
}

/**
 * The lead time the quote states: the longest `briefPrice.leadTime.workingDays` of the predictions
 * its items were priced from (the briefs are made side by side), or null without any.
 */
async function leadTimeOfItems(db: Executor, items: Awaited<ReturnType<typeof liveItemsOf>>) {
  const ids = [...new Set(items.flatMap((i) => (i.predictionId ? [i.predictionId] : [])))];
  if (!ids.length) return null;
  const days = await longestLeadTimeOf(db, ids);
  return days === null || days === undefined ? null : Math.round(Number(days));
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
  const [dieLines, customerVatNumber, leadTimeWorkingDays, { catalogue, names }] = await Promise.all([
    dieLinesOfItems(db, items),
    companyVatNumberOf(db, quote.organisationId, quote.companyId),
    leadTimeOfItems(db, items),
    loadCatalogueWithNames(db, quote.organisationId),
  ]);
  const pdfItem = (item: (typeof items)[number]): PdfItem => {
    const net = item.amount === null ? null : roundCents(item.amount - discountOf(item.amount, item));
    const localised = item.specification ? localisedLine(item, catalogue, names) : undefined;
    return {
      ...item,
      variants: variantLines(item.variants, item.quantity, net),
      tooling: toolingLines(item.tooling, item.toolingCost),
      localised,
    };
  };
  const tree = itemTree(items).map((root) => ({ ...pdfItem(root), children: root.children.map(pdfItem) }));
  return {
    ...quote,
    leadTimeWorkingDays,
    items: tree,
    priceBreakColumns: quoteColumns(items),
    dieLines,
    seller: seller ?? bareSeller(quote.organisationName),
    terms: { ...quote, ...vatTotals(quote.totalPrice, quote.vatRate), customerVatNumber },
  };
}

/**
 * The template part of a stored PDF's key: bump it when what a PDF shows changes (pdf.ts,
 * pdf-document.ts, fonts), and every stored PDF is rendered again on its next request.
 */
export const PDF_TEMPLATE_VERSION = 2;

/** The pg-boss queue that renders and stores the PDFs of a quote once it is published. */
export const PDF_JOB = 'quotes.pdf';
export type PdfJobData = { organisationId: string; quoteId: string; userId: string };

export type QuotePdfOptions = {
  /**
   * `templateVersion`: what besides the quote a stored PDF depends on, per organisation and
   * customer. A new value makes the stored PDFs it covers stale (re-rendered on their next
   * request). Default: templateFingerprint (the template's version, the organisation, its
   * settings, its catalogue's names and the customer company).
   */
  templateVersion?: (organisationId: string, companyId: string) => Promise<string>;
  /** The bounded pool of preview renders (default from config.pdfRender). */
  pool?: RenderPool;
};

/**
 * What a stored PDF prints besides the quote, as revisions: the template's own version, the
 * organisation's row (its name), its settings (the seller's identity, logo, terms, footer), its
 * catalogue (style, board and finish names per language: catalogueFingerprint changes with any
 * entry's edit, addition or removal) and the customer company (its name, VAT number). A change of
 * any of them gives a new key, so the next request renders the PDF again.
 */
export type TemplateRevisions = {
  organisationAt?: Date | null;
  settingsAt?: Date | null;
  catalogue?: string | null;
  companyAt?: Date | null;
};

/** The template part of a stored PDF's key (renderKeyOf) from its revisions. */
export const templateFingerprint = (r: TemplateRevisions) =>
  [
    PDF_TEMPLATE_VERSION,
    r.organisationAt?.getTime() ?? 0,
    r.settingsAt?.getTime() ?? 0,
    `catalogue@${r.catalogue ?? ''}`,
    `company@${r.companyAt?.getTime() ?? 0}`,
  ].join('.');

/** What a stored PDF was rendered from: the quote's revision, the language, the template. */
export const renderKeyOf = (quote: { updatedAt: Date }, language: Language, templateVersion: string) =>
  `quote@${quote.updatedAt.toISOString()}/${language}/template@${templateVersion}`;

export function createQuotePdfService(
  ctx: Pick<AppContext, 'db' | 'database' | 'change' | 'config'>,
  deps: {
    quotes: QuoteService;
    settings: Pick<OrganisationSettingsService, 'sellerOf'>;
    /** The app's file store (filesModule): stored PDFs are its files. */
    files: Pick<FilesService, 'storeFile'>;
  },
  renderOptions: RenderOptions = {},
  options: QuotePdfOptions = {},
) {
  const { db } = ctx;
  const { quotes, settings, files: filesService } = deps;
  const pool = options.pool ?? createRenderPool(ctx.config.pdfRender);

  /** What the PDF prints; its die-line file names link to the quote's page, where they download. */
  const dataOf = async (found: QuoteWithRefs): Promise<PdfQuote> => ({
    ...(await pdfDataOf(db, found, await settings.sellerOf(db, found.organisationId))),
    dieLinesUrl: `${ctx.config.publicBaseUrl}/app/quotes/${found.id}`,
  });

  const templateVersion =
    options.templateVersion ??
    (async (organisationId: string, companyId: string) =>
      templateFingerprint((await findTemplateRevisions(db, organisationId, companyId)) ?? {}));

  /** The stored PDF of a quote in a language, its bytes with it (one statement: the hot path). */
  async function currentPdf(
    organisationId: string,
    quoteId: string,
    language: Language,
    executor: Executor = db,
  ) {
    const row = await findQuotePdfWithContent(executor, organisationId, quoteId, language);
    if (!row) return undefined;
    const { content, ...file } = row;
    return { file, content };
  }

  /**
   * Stores a rendering as the quote's file of its language, replacing the previous one, unless
   * the quote changed while it was rendered (409 quote_changed). With `keepSameKey` (a render
   * that only makes sure the PDF is stored: the publish job, a first download), a file of the same
   * key stored meanwhile by another render is kept and answered instead: replacing it would change
   * the bytes (and the SHA-256) a buyer may already have been shown for the same quote.
   */
  async function storeRendering(
    actor: Actor,
    found: QuoteWithRefs,
    language: Language,
    renderKey: string,
    content: Buffer,
    keepSameKey = false,
  ): Promise<{
    file: { id: string; filename: string; sha256: string; label: string | null };
    content: Buffer;
  }> {
    const id = found.id;
    return ctx.change(actor, async (tx, record) => {
      const row = await findQuoteRow(tx, actor.organisationId, id, true);
      if (!row) throw notFound('Quote');
      if (row.state !== 'published' || row.updatedAt.getTime() !== found.updatedAt.getTime()) {
        throw new AppError(
          'quote_changed',
          'The quote changed while its PDF was rendered: generate it again',
        );
      }
      if (keepSameKey) {
        const current = await currentPdf(actor.organisationId, id, language, tx);
        if (current?.file.renderKey === renderKey) return current;
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
          renderKey,
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
      return { file: stored, content };
    });
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
    const key = renderKeyOf(found, language, await templateVersion(actor.organisationId, found.companyId));
    // Rendering happens outside the transaction: nothing is locked while pdfkit works.
    const content = await renderQuotePdf(await dataOf(found), language, renderOptions);
    return storeRendering(actor, found, language, key, content);
  }

  /** Renders being made in this process, by quote, language and key: one render per key at once. */
  const inFlight = new Map<
    string,
    Promise<{ file: { id: string; filename: string; sha256: string }; content: Buffer }>
  >();

  /**
   * The stored PDF of a quote in a language, rendered and stored first when the quote is
   * published and its stored PDF is missing or stale (its key differs). Single-flight: concurrent
   * requests in this process share one render; on PostgreSQL an advisory lock per quote and
   * language makes the other nodes wait for it and then read the stored file. A quote that is no
   * longer published keeps the PDF it has (it can no longer be rendered).
   */
  async function storedPdf(actor: Actor, found: QuoteWithRefs, language: Language) {
    const organisationId = actor.organisationId;
    const key = renderKeyOf(found, language, await templateVersion(organisationId, found.companyId));
    const current = await currentPdf(organisationId, found.id, language);
    if (current && (current.file.renderKey === key || found.state !== 'published')) return current;
    if (found.state !== 'published') {
      throw new AppError(
        'pdf_not_generated',
        `No ${language} PDF of this quote: generate it with POST /quotes/${found.id}/generate-pdf`,
      );
    }
    const flightKey = `${organisationId}/${found.id}/${key}`;
    let flight = inFlight.get(flightKey);
    if (!flight) {
      // Stored on the service's behalf (a contact or a guest may be the first to ask), in the
      // name of the user who asked.
      const storer = systemActor(organisationId, actor.userId);
      flight = renderOnce(storer, found, language, key).finally(() => inFlight.delete(flightKey));
      inFlight.set(flightKey, flight);
    }
    return flight;
  }

  async function renderOnce(actor: Actor, found: QuoteWithRefs, language: Language, key: string) {
    const render = async () => {
      const again = await currentPdf(actor.organisationId, found.id, language);
      if (again?.file.renderKey === key) return again;
      const content = await renderQuotePdf(await dataOf(found), language, renderOptions);
      return storeRendering(actor, found, language, key, content, true);
    };
    // PGlite is one process: the in-process single flight is enough (and a transaction held
    // while rendering would stop every other query of its single connection).
    if (ctx.database.kind !== 'postgres') return render();
    return db.transaction(async (tx) => {
      await lockPdfRendering(tx, found.id, language);
      return render();
    });
  }

  /**
   * A download's hot path: one statement finds the quote, its template version and its stored PDF;
   * when the caller may see the quote and the file is current, it is the answer. Anything else
   * (not visible, to be expired, missing or stale, a custom template version) takes the full path,
   * which decides and answers exactly as before.
   */
  // Prepared once (on the first download), executed by name afterwards: no SQL built per request.
  let storedHitQuery: StoredPdfHitQuery | undefined;
  async function storedHit(actor: Actor, id: string, language: Language) {
    if (options.templateVersion) return undefined;
    storedHitQuery ??= prepareStoredPdfHit(db);
    const [row] = await storedHitQuery.execute({
      organisationId: actor.organisationId,
      quoteId: id,
      language,
    });
    if (!row?.fileId || row.content === null || !quotes.mayRead(actor, row)) return undefined;
    if (isPastValidity(row, new Date())) return undefined;
    const key = renderKeyOf(row, language, templateFingerprint(row));
    if (row.renderKey !== key && row.state === 'published') return undefined;
    return {
      file: {
        id: row.fileId,
        filename: row.filename!,
        sha256: row.sha256!,
        mimeType: row.mimeType!,
        renderKey: row.renderKey,
        label: row.label,
      },
      content: row.content,
    };
  }

  /** The job run after a publish: renders and stores the quote's PDF in every language. */
  async function storeAfterPublish({ organisationId, quoteId, userId }: PdfJobData) {
    const found = await findQuoteWithRefs(db, organisationId, quoteId);
    if (found?.state !== 'published') return;
    const actor = systemActor(organisationId, userId);
    for (const language of SUPPORTED_LANGUAGES) {
      try {
        await storedPdf(actor, found, language);
      } catch (error) {
        // A change since the publish (expired, signed): the next request renders what it needs.
        if (!(error instanceof AppError && error.code === 'quote_changed')) throw error;
      }
    }
  }

  return {
    generate,
    storeAfterPublish,
    /** The current stored PDF of a published quote in a language, rendered first when needed. */
    storedPdf,
    /** The pool drafts' previews are rendered through (tests fill it to see the 429). */
    renderPool: pool,

    /**
     * A PDF of the quote as it is now, whatever its state (drafts' previews), rendered through the
     * bounded pool and not stored (429 pdf_render_busy when the pool and its queue are full).
     */
    async preview(actor: Actor, id: string, localisationId: string) {
      const language = requireLanguage(localisationId, '/localisationId', 'params');
      const found = await quotes.visibleWithRefs(actor, id);
      assertCompanyWritable(actor, found.companyId);
      const content = await pool.run(async () =>
        renderQuotePdf(await dataOf(found), language, renderOptions),
      );
      return {
        file: {
          filename: `${found.code ?? 'draft'}-${language}-preview.pdf`,
          sha256: createHash('sha256').update(content).digest('hex'),
        },
        content,
      };
    },

    /**
     * The stored PDF of a quote in a language: a published quote's is rendered and stored on the
     * first request if the publish job has not done it yet (or its template changed); another
     * state serves what was stored (404 pdf_not_generated when nothing was).
     */
    async download(actor: Actor, id: string, localisationId: string) {
      const language = requireLanguage(localisationId, '/localisationId', 'params');
      const hit = await storedHit(actor, id, language);
      if (hit) return hit;
      const found = await quotes.visibleWithRefs(actor, id);
      return storedPdf(actor, found, language);
    },

    /**
     * A guest link to the quote's PDF in a language. The PDF is generated first when the quote is
     * published and has none in that language yet.
     */
    async createLink(
      actor: Actor,
      id: string,
      input: { localisationId: string; expiresAt?: string; proofs?: boolean },
    ) {
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
        const link = await insertGuestLink(tx, {
          organisationId: actor.organisationId,
          quoteId: id,
          language,
          tokenHash: hashGuestToken(token),
          expiresAt,
          proofs: input.proofs ?? false,
          createdById: actor.userId,
          createdAt: now,
        });
        await record({
          on: QUOTE_GUEST_LINK_ENTITY,
          type: 'CREATE',
          entityId: link.id,
          snapshot: presentLink(link, now),
          relation: QUOTE_ENTITY,
          relationId: id,
        });
        return link;
      });
      return {
        ...presentLink(row, now),
        token,
        url: `${ctx.config.publicBaseUrl}/api/public/quotes/pdf/${token}`,
        pageUrl: `${ctx.config.publicBaseUrl}/app/guest/${token}`,
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
        const current = await lockGuestLink(tx, actor.organisationId, id, linkId);
        if (!current) throw notFound('Guest link');
        if (current.revokedAt) return current;
        const revoked = await revokeGuestLink(tx, linkId);
        await record({
          on: QUOTE_GUEST_LINK_ENTITY,
          type: 'UPDATE',
          entityId: linkId,
          snapshot: presentLink(revoked),
          updatedColumns: ['revokedAt'],
          relation: QUOTE_ENTITY,
          relationId: id,
        });
        return revoked;
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
      const quote = await findQuoteWithRefs(db, link.organisationId, link.quoteId);
      if (!quote) throw notFound('Quote');
      const userId = link.createdById ?? quote.createdById;
      if (!userId) {
        // Nobody to store a rendering in the name of: what is stored, or nothing.
        const pdf = await currentPdf(link.organisationId, link.quoteId, link.language as Language);
        if (!pdf) throw notFound('PDF');
        return pdf;
      }
      try {
        return await storedPdf(systemActor(link.organisationId, userId), quote, link.language as Language);
      } catch (error) {
        if (error instanceof AppError && error.code === 'pdf_not_generated') throw notFound('PDF');
        throw error;
      }
    },
  };
}

export type QuotePdfService = ReturnType<typeof createQuotePdfService>;
