import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { type Actor, systemActor } from '../../platform/actor.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import type { ChangeActor, EventRecorder } from '../../platform/events.ts';
import { createSecretBox } from '../../platform/secret-box.ts';
import { FILE_ENTITY, PARENT_ENTITIES } from '../files/repository.ts';
import type { OrganisationSettingsService } from '../organisations/settings-service.ts';
import { type Language, languageOf, requireLanguage } from '../quotes/i18n.ts';
import { refusalError, refusalOf, transitionFor } from '../quotes/lifecycle.ts';
import type { QuotePdfService } from '../quotes/pdf-service.ts';
import { hashGuestToken } from '../quotes/pdf-service.ts';
import { chooseColumn, quoteColumns } from '../quotes/price-breaks.ts';
import {
  findGuestLinkByHash,
  findQuoteRow,
  type GuestLinkRow,
  liveItemsOf,
  QUOTE_ENTITY,
  type QuoteWithRefs,
} from '../quotes/repository.ts';
import type { QuoteService } from '../quotes/service.ts';
import {
  type AcceptanceRow,
  findAcceptance,
  findLanguagePdf,
  findSigningKey,
  findUserFacts,
  insertAcceptance,
  insertQuotePdfFile,
  insertSigningKey,
  lockUnsignedAcceptance,
  organisationName,
  QUOTE_ACCEPTANCE_ENTITY,
  readStoredFile,
  SIGNED_PDF_LABEL,
  setSignedFile,
} from './repository.ts';
import type { AcceptInput, DeclineInput } from './schemas.ts';
import type { SigningIdentity } from './signing.ts';

/** PDF signing (@signpdf, pkijs, asn1js) is loaded on the first signature (issue 31). */
const signing = () => import('./signing.ts');

/** Where a request comes from (recorded as evidence). */
export type RequestMeta = { ip: string | null; userAgent: string | null };

/** Who answers: a signed-in user, or the holder of a guest link made for the quote. */
export type Answerer = { kind: 'user'; actor: Actor } | { kind: 'guest'; link: GuestLinkRow };

type Decision = 'accepted' | 'declined';

const BUYER_ROLES = new Set(['contact', 'guest']);

/** The evidence as the API shows it. */
export function presentAcceptance(row: AcceptanceRow) {
  const { organisationId: _org, language, signedFileId: _signed, createdAt: _created, ...rest } = row;
  return {
    ...rest,
    localisationId: language,
    onBehalf: !BUYER_ROLES.has(row.actorRole) && !row.confirmed,
    signedPdfUrl: row.decision === 'accepted' ? `/api/quotes/${row.quoteId}/acceptance/signed-pdf` : null,
  };
}

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

/**
 * Buyers' answers to published quotes with their evidence (docs/quotes.md, "Acceptance
 * evidence"), and the PAdES signed PDF of an accepted quote.
 */
export function createAcceptanceService(
  ctx: Pick<AppContext, 'db' | 'change' | 'config' | 'log'>,
  deps: {
    quotes: Pick<QuoteService, 'visibleWithRefs' | 'get' | 'fireAnswer'>;
    pdfs: Pick<QuotePdfService, 'storedPdf'>;
    /** The seller's name and logo on the guest page (organisation settings). */
    brand?: Pick<OrganisationSettingsService, 'brandOf' | 'logoOf'>;
  },
) {
  const { db, change, config } = ctx;
  const { quotes, pdfs, brand } = deps;
  const box = createSecretBox(config.encryptionKey);

  /** A guest link that works (404 unknown, 410 revoked or expired). */
  async function liveLink(token: string) {
    const link = await findGuestLinkByHash(db, hashGuestToken(token));
    if (!link) throw notFound('Guest link');
    if (link.revokedAt) throw new AppError('guest_link_revoked', 'This link has been revoked');
    if (link.expiresAt.getTime() <= Date.now())
      throw new AppError('guest_link_expired', 'This link has expired');
    return link;
  }

  /** The quote as the answerer may see it (expired first when its validity has passed). */
  async function quoteOf(answerer: Answerer, id: string): Promise<QuoteWithRefs> {
    if (answerer.kind === 'user') return quotes.visibleWithRefs(answerer.actor, id);
    const { link } = answerer;
    // The link stands for its quote only; its creator's view reads it (and expires it if due).
    const found = await quotes.visibleWithRefs(systemActor(link.organisationId, link.createdById ?? ''), id);
    if (found.id !== link.quoteId) throw notFound('Quote');
    return found;
  }

  async function languageFor(answerer: Answerer, quote: QuoteWithRefs, sent?: string): Promise<Language> {
    if (sent) return requireLanguage(sent);
    if (answerer.kind === 'guest') return answerer.link.language as Language;
    const user = await findUserFacts(db, answerer.actor.organisationId, answerer.actor.userId);
    const own = user?.language ? languageOf(user.language) : null;
    if (own) return own;
    const contact = quote.contactId
      ? await findUserFacts(db, quote.organisationId, quote.contactId)
      : undefined;
    return (contact?.language ? languageOf(contact.language) : null) ?? 'en';
  }

  /**
   * The stored PDF of the quote in that language: the one the buyer downloads and is taken to
   * have been shown (the quote PDF service renders and stores it first when it is missing or
   * stale, with the seller's identity), so the evidence always names real, current bytes.
   */
  async function shownPdf(answerer: Answerer, quote: QuoteWithRefs, language: Language) {
    const userId = answerer.kind === 'user' ? answerer.actor.userId : (answerer.link.createdById ?? '');
    const { file } = await pdfs.storedPdf(systemActor(quote.organisationId, userId), quote, language);
    return { id: file.id, sha256: file.sha256 };
  }

  async function storeQuoteFile(
    tx: Tx,
    record: EventRecorder,
    organisationId: string,
    quoteId: string,
    input: { filename: string; label: string; content: Buffer; createdById: string | null },
  ) {
    const row = await insertQuotePdfFile(
      tx,
      {
        organisationId,
        entityId: quoteId,
        filename: input.filename,
        size: input.content.length,
        sha256: sha256(input.content),
        label: input.label,
        createdById: input.createdById,
      },
      input.content,
    );
    const { deletedAt: _deleted, ...snapshot } = row;
    await record({
      on: FILE_ENTITY,
      type: 'CREATE',
      entityId: row.id,
      snapshot,
      relation: PARENT_ENTITIES.quote,
      relationId: quoteId,
    });
    return { id: row.id, sha256: row.sha256, filename: row.filename, size: row.size };
  }

  /** What the body must carry: the buyer's typed name and confirmation to accept (400 otherwise). */
  function requireSignature(answerer: Answerer, input: AcceptInput) {
    const buyer = answerer.kind === 'guest' || answerer.actor.role === 'contact';
    const sentAnything = Object.values(input).some((value) => value !== undefined);
    // Staff recording an acceptance received elsewhere (phone, paper) may send no body at all.
    if (!buyer && !sentAnything) return;
    const issues = [];
    if (!input.typedName?.trim())
      issues.push({ pointer: '/typedName', message: 'type your full name to sign', in: 'body' as const });
    if (input.confirm !== true)
      issues.push({
        pointer: '/confirm',
        message: 'must be true: confirm that you accept the quote',
        in: 'body' as const,
      });
    if (answerer.kind === 'guest' && !input.email)
      issues.push({
        pointer: '/email',
        message: 'is required to accept through a guest link',
        in: 'body' as const,
      });
    if (issues.length) throw badRequest('Accepting a quote needs your typed name and confirmation', issues);
  }

  /**
   * Who fires the lifecycle's accept / decline: the signed-in user, or for a guest link the buyer
   * it stands for (a contact of the quote's company; the link is the credential, no user answers).
   */
  const answerActor = (answerer: Answerer, quote: QuoteWithRefs): Actor =>
    answerer.kind === 'user'
      ? answerer.actor
      : {
          userId: answerer.link.createdById ?? '',
          organisationId: quote.organisationId,
          role: 'contact',
          companyIds: quote.companyId ? [quote.companyId] : [],
          credential: 'system',
        };

  async function answer(
    answerer: Answerer,
    id: string,
    decision: Decision,
    input: AcceptInput & DeclineInput,
    meta: RequestMeta,
  ) {
    const quote = await quoteOf(answerer, id);
    // No row of the lifecycle table from the quote's state: its refusal first (whatever the
    // body), and no PDF rendered. The guards run when the answer fires the row.
    const trigger = decision === 'accepted' ? 'accept' : 'decline';
    if (!transitionFor(trigger, quote.state)) throw refusalError(refusalOf(trigger, quote, null)!);
    if (decision === 'accepted') requireSignature(answerer, input);
    // The price-break column chosen (422 when it names none, or none when several are offered);
    // a published quote's items no longer change, so they are read once here.
    const column =
      decision === 'accepted' ? chooseColumn(await liveItemsOf(db, quote.id), input.option) : null;
    const organisationId = quote.organisationId;
    const userId = answerer.kind === 'user' ? answerer.actor.userId : null;
    const changeActor: ChangeActor = { organisationId, userId };
    const language = await languageFor(answerer, quote, input.localisationId);
    const pdf = await shownPdf(answerer, quote, language);
    const clientHash = input.pdfSha256?.toLowerCase();
    if (clientHash && clientHash !== pdf.sha256) {
      throw new AppError(
        'pdf_hash_mismatch',
        `The PDF you were shown (SHA-256 ${clientHash}) is not the quote's current ${language} PDF (${pdf.sha256}): reload the quote and answer again`,
      );
    }
    const user = userId ? await findUserFacts(db, organisationId, userId) : undefined;
    const typedName = input.typedName?.trim() || null;
    const reason = input.reason?.trim() || null;
    const row = await change(changeActor, async (tx, record) => {
      const before = await findQuoteRow(tx, organisationId, id, true);
      if (!before) throw notFound('Quote');
      const current = await findLanguagePdf(tx, organisationId, id, language);
      if (current?.id !== pdf.id) {
        throw new AppError(
          'pdf_hash_mismatch',
          `The quote's ${language} PDF was replaced while you answered: reload the quote and answer again`,
        );
      }
      const now = new Date();
      const evidence = await insertAcceptance(tx, {
        organisationId,
        quoteId: id,
        decision,
        userId,
        guestLinkId: answerer.kind === 'guest' ? answerer.link.id : null,
        actorRole: answerer.kind === 'guest' ? 'guest' : answerer.actor.role,
        email: answerer.kind === 'guest' ? (input.email ?? null) : (user?.email ?? null),
        typedName,
        confirmed: input.confirm === true,
        answeredAt: now,
        ip: meta.ip,
        userAgent: meta.userAgent?.slice(0, 1000) ?? null,
        quoteCode: before.code!,
        quoteVersion: before.version,
        language,
        pdfFileId: pdf.id,
        pdfSha256: pdf.sha256,
        pdfHashFromClient: Boolean(clientHash),
        poNumber: input.poNumber?.trim() || null,
        comment: input.comment?.trim() || null,
        reason,
        // The column as it was offered (its id, rank, quantity and total), or what was sent.
        option: column
          ? {
              id: column.id,
              position: column.position,
              quantity: column.quantity,
              totalPrice: column.totalPrice,
              currency: quote.currency,
            }
          : null,
      });
      const acceptance = presentAcceptance(evidence);
      // The lifecycle table decides and moves the state; its event carries the evidence.
      await quotes.fireAnswer(tx, record, {
        actor: answerActor(answerer, quote),
        quote: before,
        trigger: decision === 'accepted' ? 'accept' : 'decline',
        input: { reason, answer: { respondedById: userId, acceptance } },
        now,
      });
      await record({
        on: QUOTE_ACCEPTANCE_ENTITY,
        type: 'CREATE',
        entityId: evidence.id,
        snapshot: acceptance,
        relation: QUOTE_ENTITY,
        relationId: id,
      });
      return evidence;
    });
    if (decision === 'accepted') {
      // The signed PDF now, so it is ready to download; a failure leaves it to the first download.
      await signedPdfOf(row).catch((error) =>
        ctx.log.error({ err: error, quoteId: id }, 'signed PDF not made at acceptance (made on download)'),
      );
    }
    return row;
  }

  /** The organisation's signing identity, made and stored (key sealed) on first use. */
  async function identityOf(organisationId: string): Promise<SigningIdentity> {
    let stored = await findSigningKey(db, organisationId);
    if (!stored) {
      const made = await (await signing()).createSigningIdentity(await organisationName(db, organisationId));
      stored = await insertSigningKey(db, {
        organisationId,
        certificatePem: made.certificatePem,
        privateKeySealed: box.seal(made.privateKeyPem),
        notAfter: made.notAfter,
      });
    }
    return {
      certificatePem: stored.certificatePem,
      privateKeyPem: box.open(stored.privateKeySealed),
      notAfter: stored.notAfter,
    };
  }

  /** The PAdES signed PDF of an accepted quote: made once, then read back. */
  async function signedPdfOf(acceptance: AcceptanceRow) {
    const { organisationId } = acceptance;
    if (acceptance.signedFileId) {
      const file = await readStoredFile(db, organisationId, acceptance.signedFileId);
      if (file) return file;
    }
    const shown = acceptance.pdfFileId
      ? await readStoredFile(db, organisationId, acceptance.pdfFileId)
      : undefined;
    if (!shown || sha256(shown.content) !== acceptance.pdfSha256) {
      throw new AppError(
        'pdf_not_generated',
        'The PDF the buyer accepted is no longer stored: it cannot be signed',
        {
          status: 409,
        },
      );
    }
    const identity = await identityOf(organisationId);
    const signer = acceptance.typedName ?? acceptance.email ?? acceptance.actorRole;
    const content = await (await signing()).signPdf(shown.content, identity, {
      name: await organisationName(db, organisationId),
      reason: [
        `Quote ${acceptance.quoteCode} v${acceptance.quoteVersion} accepted by ${signer}`,
        acceptance.poNumber ? `PO ${acceptance.poNumber}` : null,
        `evidence ${acceptance.id}`,
      ]
        .filter(Boolean)
        .join(', '),
      contactInfo: acceptance.email ?? '',
      location: acceptance.ip ?? '',
      signingTime: acceptance.answeredAt,
    });
    const fileId = await change({ organisationId, userId: null }, async (tx, record) => {
      const locked = await lockUnsignedAcceptance(tx, acceptance.id);
      // Another request signed it meanwhile: keep theirs.
      if (!locked) return (await findAcceptance(tx, organisationId, acceptance.quoteId))!.signedFileId!;
      const stored = await storeQuoteFile(tx, record, organisationId, acceptance.quoteId, {
        filename: `${acceptance.quoteCode}-signed.pdf`,
        label: SIGNED_PDF_LABEL,
        content,
        createdById: null,
      });
      await setSignedFile(tx, acceptance.id, stored.id);
      return stored.id;
    });
    return (await readStoredFile(db, organisationId, fileId))!;
  }

  async function evidenceOf(organisationId: string, quoteId: string) {
    const row = await findAcceptance(db, organisationId, quoteId);
    if (!row) {
      throw new AppError('acceptance_not_found', 'This quote has no recorded answer (accept or decline) yet');
    }
    return row;
  }

  async function signedOf(organisationId: string, quoteId: string) {
    const row = await evidenceOf(organisationId, quoteId);
    if (row.decision !== 'accepted') {
      throw new AppError('quote_not_signed', 'The quote was declined: there is no signed PDF');
    }
    return signedPdfOf(row);
  }

  return {
    /** POST /quotes/:id/accept by a user. */
    async accept(actor: Actor, id: string, input: AcceptInput, meta: RequestMeta) {
      await answer({ kind: 'user', actor }, id, 'accepted', input, meta);
      return quotes.get(actor, id);
    },

    /** POST /quotes/:id/decline by a user. */
    async decline(actor: Actor, id: string, input: DeclineInput, meta: RequestMeta) {
      await answer({ kind: 'user', actor }, id, 'declined', input, meta);
      return quotes.get(actor, id);
    },

    /** GET /quotes/:id/acceptance: staff and the quote's buyers (404 for anyone else). */
    async get(actor: Actor, id: string) {
      await quotes.visibleWithRefs(actor, id);
      return presentAcceptance(await evidenceOf(actor.organisationId, id));
    },

    /** GET /quotes/:id/acceptance/signed-pdf. */
    async signedPdf(actor: Actor, id: string) {
      await quotes.visibleWithRefs(actor, id);
      return signedOf(actor.organisationId, id);
    },

    /** GET /public/quotes/:token: what a guest needs to review and answer the quote. */
    async guestView(token: string) {
      const link = await liveLink(token);
      const answerer: Answerer = { kind: 'guest', link };
      const quote = await quoteOf(answerer, link.quoteId);
      const language = link.language as Language;
      const pdf = await findLanguagePdf(db, quote.organisationId, quote.id, language);
      const [evidence, items, seller] = await Promise.all([
        findAcceptance(db, quote.organisationId, quote.id),
        liveItemsOf(db, quote.id),
        brand?.brandOf(quote.organisationId, `/api/public/quotes/${token}/logo`),
      ]);
      return {
        seller: seller ?? { name: quote.organisationName, logoUrl: null },
        // The buyer's columns of the top lines (what the PDF prints), never a cost or margin.
        lines: items
          .filter((item) => !item.parentId)
          .map((item) => ({
            reference: item.reference,
            name: item.name,
            quantity: item.quantity,
            unitPrice: item.price,
            totalPrice: item.totalPrice,
          })),
        quote: {
          id: quote.id,
          code: quote.code,
          name: quote.name,
          state: quote.state,
          version: quote.version,
          currency: quote.currency,
          totalPrice: quote.totalPrice,
          validUntil: quote.validUntil,
          companyName: quote.company?.name ?? '',
          organisationName: quote.organisationName,
          priceBreakColumns: quoteColumns(await liveItemsOf(db, quote.id)),
        },
        localisationId: language,
        pdfUrl: `/api/public/quotes/pdf/${token}`,
        pdfSha256: pdf?.sha256 ?? null,
        acceptance: evidence
          ? {
              ...presentAcceptance(evidence),
              signedPdfUrl:
                evidence.decision === 'accepted' ? `/api/public/quotes/${token}/signed-pdf` : null,
            }
          : null,
      };
    },

    async guestAnswer(
      token: string,
      decision: Decision,
      input: AcceptInput & DeclineInput,
      meta: RequestMeta,
    ) {
      const link = await liveLink(token);
      await answer({ kind: 'guest', link }, link.quoteId, decision, input, meta);
      return this.guestView(token);
    },

    /** The seller's logo on the guest page. */
    async guestLogo(token: string) {
      const link = await liveLink(token);
      if (!brand) throw notFound('Logo');
      return brand.logoOf(link.organisationId);
    },

    async guestSignedPdf(token: string) {
      const link = await liveLink(token);
      return signedOf(link.organisationId, link.quoteId);
    },
  };
}

export type AcceptanceService = ReturnType<typeof createAcceptanceService>;
