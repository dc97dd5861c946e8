import type { Config } from '../../config.ts';
import type { Tx } from '../../db/client.ts';
import type { Change } from '../../platform/events.ts';
import { queueMail } from '../../platform/mail-outbox.ts';
import {
  findCompanyContacts,
  findQuoteForNotice,
  findQuoteLineName,
  findQuoteLines,
  findRecipient,
  type QuoteNotice,
  type Recipient,
} from './repository.ts';
import { mailLanguageOf, type NotificationKind, templates } from './templates.ts';

/** What an accept or decline event carries of the buyer's answer (the acceptances module). */
type AnswerSnapshot = {
  typedName?: string | null;
  email?: string | null;
  poNumber?: string | null;
  comment?: string | null;
  reason?: string | null;
  actorRole?: string;
};

const fullName = (user: Pick<Recipient, 'firstName' | 'lastName' | 'email'> | undefined) =>
  [user?.firstName, user?.lastName].filter(Boolean).join(' ') || user?.email || 'Someone';

/**
 * Notification e-mails, queued in the transaction of the change that causes them (read from the
 * events it recorded, so every road to a state change notifies alike): the buyer contact when a
 * quote is published (with the link to it, in the contact's language), the quote's sales owner
 * when the buyer accepts or declines it or someone comments on it, and the company's account
 * manager when a buyer orders again (a contact creates a quote only that way: the reorder's new
 * draft, docs/portal.md); the quote company's buyer contacts when a proof version is ready to
 * approve, and the sales owner when a buyer approves it or requests changes. A user opted out of a kind
 * (`users.email_opt_outs`) gets none of it; nobody is told of their own action.
 */
export function createNotifier(deps: { config: Pick<Config, 'smtpUrl' | 'publicBaseUrl'> }) {
  const { config } = deps;
  const linkOf = (quoteId: string) => `${config.publicBaseUrl}/app/quotes/${quoteId}`;

  const wants = (
    user: Recipient | undefined,
    kind: NotificationKind,
  ): user is Recipient & { email: string } => Boolean(user?.email) && !user!.emailOptOuts.includes(kind);

  /** The sales owner: the quote's author when staff, else the company's account manager. */
  async function ownerOf(tx: Tx, organisationId: string, quote: QuoteNotice) {
    const author = await findRecipient(tx, organisationId, quote.createdById);
    if (author && author.role !== 'contact' && author.email) return author;
    return findRecipient(tx, organisationId, quote.managedById);
  }

  const facts = (quote: QuoteNotice) => ({
    code: quote.code,
    name: quote.name,
    organisationName: quote.organisationName,
    companyName: quote.companyName,
    link: linkOf(quote.id),
  });

  async function send(
    tx: Tx,
    organisationId: string,
    kind: NotificationKind,
    to: string,
    text: { subject: string; text: string },
  ) {
    await queueMail(tx, { organisationId, kind, to: [to], ...text }, config);
  }

  async function onQuoteState(tx: Tx, change: Change) {
    const snapshot = change.snapshot as
      | { id?: string; state?: string; acceptance?: AnswerSnapshot }
      | undefined;
    const state = snapshot?.state;
    if (!snapshot?.id || !change.updatedColumns?.includes('state')) return;
    if (state !== 'published' && state !== 'signed' && state !== 'rejected') return;
    const quote = await findQuoteForNotice(tx, snapshot.id);
    if (!quote) return;
    const { organisationId } = quote;
    if (state === 'published') {
      const contact = await findRecipient(tx, organisationId, quote.contactId);
      if (contact) {
        if (wants(contact, 'quote_published')) {
          const lang = mailLanguageOf(contact.language);
          await send(
            tx,
            organisationId,
            'quote_published',
            contact.email,
            templates[lang].published(facts(quote)),
          );
        }
      } else if (quote.email) {
        // A quote addressed to an e-mail without a contact user: no preferences to read.
        await send(tx, organisationId, 'quote_published', quote.email, templates.en.published(facts(quote)));
      }
      return;
    }
    const kind: NotificationKind = state === 'signed' ? 'quote_accepted' : 'quote_declined';
    const owner = await ownerOf(tx, organisationId, quote);
    if (!wants(owner, kind) || owner.id === quote.respondedById) return;
    const answer = snapshot.acceptance;
    const responder = await findRecipient(tx, organisationId, quote.respondedById);
    const who = answer?.typedName
      ? `${answer.typedName}${answer.email ? ` <${answer.email}>` : ''}${answer.actorRole === 'guest' ? ' (guest link)' : ''}`
      : fullName(responder);
    const lang = mailLanguageOf(owner.language);
    const details = {
      ...facts(quote),
      who,
      poNumber: answer?.poNumber,
      comment: answer?.comment,
      reason: answer?.reason,
    };
    await send(
      tx,
      organisationId,
      kind,
      owner.email,
      templates[lang][state === 'signed' ? 'accepted' : 'declined'](details),
    );
  }

  async function onComment(tx: Tx, change: Change) {
    const snapshot = change.snapshot as { body?: string; createdById?: string | null } | undefined;
    if (!change.relationId || !snapshot?.body) return;
    const quote = await findQuoteForNotice(tx, change.relationId);
    if (!quote) return;
    const { organisationId } = quote;
    const owner = await ownerOf(tx, organisationId, quote);
    if (!wants(owner, 'quote_comment') || owner.id === snapshot.createdById) return;
    const author = await findRecipient(tx, organisationId, snapshot.createdById);
    const lang = mailLanguageOf(owner.language);
    await send(
      tx,
      organisationId,
      'quote_comment',
      owner.email,
      templates[lang].comment({ ...facts(quote), who: fullName(author), body: snapshot.body }),
    );
  }

  /** A quote a buyer contact created: their "order again" draft, for the seller to review. */
  async function onQuoteCreated(tx: Tx, change: Change) {
    if (!change.entityId) return;
    const quote = await findQuoteForNotice(tx, change.entityId);
    if (!quote) return;
    const { organisationId } = quote;
    const buyer = await findRecipient(tx, organisationId, quote.createdById);
    if (buyer?.role !== 'contact') return;
    const owner = await ownerOf(tx, organisationId, quote);
    if (!wants(owner, 'quote_reordered')) return;
    const lang = mailLanguageOf(owner.language);
    const locale = lang === 'en' ? 'en-GB' : lang;
    const money = (value: number, digits = 2) =>
      new Intl.NumberFormat(locale, {
        style: 'currency',
        currency: quote.currency,
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      }).format(value);
    const items = await findQuoteLines(tx, quote.id);
    await send(
      tx,
      organisationId,
      'quote_reordered',
      owner.email,
      templates[lang].reordered({
        ...facts(quote),
        who: fullName(buyer),
        total: money(quote.totalPrice),
        lines: items.map((item) => ({
          name: item.name,
          quantity: new Intl.NumberFormat(locale).format(item.quantity),
          price: item.price === null ? '-' : money(item.price, 4),
        })),
      }),
    );
  }

  /**
   * A proof version's events: its proof PDF made (preflight done) asks the quote's buyer contacts
   * to approve it; a decision on it tells the sales owner.
   */
  async function onProof(tx: Tx, change: Change) {
    const snapshot = change.snapshot as
      | {
          quoteId?: string;
          quoteItemId?: string;
          version?: number;
          createdById?: string | null;
          urls?: { proofPdf?: string | null };
          decision?: {
            decision?: string;
            userId?: string | null;
            role?: string | null;
            email?: string | null;
            typedName?: string | null;
            comment?: string | null;
          } | null;
        }
      | undefined;
    if (!snapshot?.quoteId || !snapshot.quoteItemId) return;
    const requested = change.fieldName === 'preflightState' && Boolean(snapshot.urls?.proofPdf);
    const decided = change.fieldName === 'decision' ? snapshot.decision : null;
    if (!requested && !decided?.decision) return;
    const quote = await findQuoteForNotice(tx, snapshot.quoteId);
    if (!quote) return;
    const { organisationId } = quote;
    const line = (await findQuoteLineName(tx, snapshot.quoteItemId)) ?? '';
    const proofFacts = { ...facts(quote), line, version: snapshot.version ?? 1 };
    if (requested) {
      const contacts = await findCompanyContacts(tx, organisationId, quote.companyId);
      const quoteContact = await findRecipient(tx, organisationId, quote.contactId);
      if (quoteContact?.role === 'contact' && !contacts.some((c) => c.id === quoteContact.id)) {
        contacts.unshift(quoteContact);
      }
      if (contacts.length === 0) {
        // A quote addressed to an e-mail without a contact user: no preferences to read.
        if (quote.email) {
          await send(
            tx,
            organisationId,
            'proof_requested',
            quote.email,
            templates.en.proofRequested(proofFacts),
          );
        }
        return;
      }
      for (const contact of contacts) {
        // Nobody is told of their own upload.
        if (contact.id === snapshot.createdById || !wants(contact, 'proof_requested')) continue;
        const lang = mailLanguageOf(contact.language);
        await send(
          tx,
          organisationId,
          'proof_requested',
          contact.email,
          templates[lang].proofRequested(proofFacts),
        );
      }
      return;
    }
    const approved = decided!.decision === 'approved';
    const kind: NotificationKind = approved ? 'proof_approved' : 'proof_changes_requested';
    const owner = await ownerOf(tx, organisationId, quote);
    if (!wants(owner, kind) || owner.id === decided!.userId) return;
    const decider = await findRecipient(tx, organisationId, decided!.userId);
    const who = decided!.typedName
      ? `${decided!.typedName}${decided!.email ? ` <${decided!.email}>` : ''}${decided!.role === 'guest' ? ' (guest link)' : ''}`
      : fullName(decider);
    const lang = mailLanguageOf(owner.language);
    const details = { ...proofFacts, who, comment: decided!.comment };
    await send(
      tx,
      organisationId,
      kind,
      owner.email,
      approved ? templates[lang].proofApproved(details) : templates[lang].proofChangesRequested(details),
    );
  }

  return {
    /** The commit hook: the e-mails the recorded changes call for, in their transaction. */
    async onChanges(tx: Tx, recorded: readonly Change[]) {
      for (const change of recorded) {
        if (change.on.entity === 'QUOTE' && change.type === 'UPDATE' && change.fieldName === 'state') {
          await onQuoteState(tx, change);
        } else if (change.on.entity === 'QUOTE' && change.type === 'CREATE') {
          await onQuoteCreated(tx, change);
        } else if (
          change.on.entity === 'COMMENT' &&
          change.type === 'CREATE' &&
          change.relation?.entity === 'QUOTE'
        ) {
          await onComment(tx, change);
        } else if (change.on.entity === 'ARTWORK_PROOF' && change.type === 'UPDATE') {
          await onProof(tx, change);
        }
      }
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;
