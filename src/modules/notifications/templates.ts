/**
 * The notification e-mails, per language (en, fr, de: the quote PDF's languages). Plain text:
 * every client shows it, and nothing in it can be mistaken for active content.
 */

export const NOTIFICATION_KINDS = [
  'quote_published',
  'quote_accepted',
  'quote_declined',
  'quote_comment',
  'quote_reordered',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_DESCRIPTIONS: Record<NotificationKind, string> = {
  quote_published: 'A quote is published to you (buyer contacts)',
  quote_accepted: 'A buyer accepts a quote you own (sales)',
  quote_declined: 'A buyer declines a quote you own (sales)',
  quote_comment: 'Someone comments on a quote you own (sales)',
  quote_reordered: 'A buyer orders again: a new draft quote for a company you manage (sales)',
};

export type MailLanguage = 'en' | 'fr' | 'de';

/** The language of a user's `language` setting (`fr-FR`, `fr`), English by default. */
export function mailLanguageOf(language: string | null | undefined): MailLanguage {
  const primary = language?.trim().slice(0, 2).toLowerCase();
  return primary === 'fr' || primary === 'de' ? primary : 'en';
}

export type QuoteFacts = {
  code: string | null;
  name: string;
  organisationName: string;
  companyName: string;
  link: string;
};

export type AnswerFacts = QuoteFacts & {
  who: string;
  poNumber?: string | null;
  comment?: string | null;
  reason?: string | null;
};

/** A buyer's "order again": the new draft and its lines at today's prices. */
export type ReorderFacts = QuoteFacts & {
  who: string;
  total: string;
  lines: { name: string; quantity: string; price: string }[];
};

type Text = { subject: string; text: string };

const lines = (...parts: (string | false | null | undefined)[]) =>
  parts.filter((p) => p !== false && p != null).join('\n');

export const templates: Record<
  MailLanguage,
  {
    published(q: QuoteFacts): Text;
    accepted(a: AnswerFacts): Text;
    declined(a: AnswerFacts): Text;
    comment(q: QuoteFacts & { who: string; body: string }): Text;
    reordered(r: ReorderFacts): Text;
  }
> = {
  en: {
    published: (q) => ({
      subject: `Quote ${q.code} from ${q.organisationName}: ${q.name}`,
      text: lines(
        'Hello,',
        '',
        `${q.organisationName} has sent you the quote ${q.code} "${q.name}".`,
        'Review it, accept or decline it online:',
        q.link,
        '',
        'This message was sent automatically.',
      ),
    }),
    accepted: (a) => ({
      subject: `Quote ${a.code} accepted by ${a.companyName}`,
      text: lines(
        `${a.who} accepted the quote ${a.code} "${a.name}" for ${a.companyName}.`,
        a.poNumber ? `PO number: ${a.poNumber}` : null,
        a.comment ? `Comment: ${a.comment}` : null,
        '',
        a.link,
      ),
    }),
    declined: (a) => ({
      subject: `Quote ${a.code} declined by ${a.companyName}`,
      text: lines(
        `${a.who} declined the quote ${a.code} "${a.name}" for ${a.companyName}.`,
        a.reason ? `Reason: ${a.reason}` : 'No reason given.',
        '',
        a.link,
      ),
    }),
    comment: (c) => ({
      subject: `New comment on quote ${c.code ?? c.name}`,
      text: lines(`${c.who} wrote on the quote ${c.code ?? ''} "${c.name}":`, '', c.body, '', c.link),
    }),
    reordered: (r) => ({
      subject: `${r.companyName} orders again: draft quote ${r.code ?? r.name}`,
      text: lines(
        `${r.who} of ${r.companyName} ordered again. A draft quote ${r.code ? `${r.code} ` : ''}"${r.name}" at today's prices waits for you to review and publish it:`,
        '',
        ...r.lines.map((l) => `- ${l.name} x ${l.quantity}: ${l.price}`),
        `Total: ${r.total}`,
        '',
        r.link,
      ),
    }),
  },
  fr: {
    published: (q) => ({
      subject: `Devis ${q.code} de ${q.organisationName} : ${q.name}`,
      text: lines(
        'Bonjour,',
        '',
        `${q.organisationName} vous a envoyé le devis ${q.code} « ${q.name} ».`,
        'Consultez-le, acceptez-le ou refusez-le en ligne :',
        q.link,
        '',
        'Ce message a été envoyé automatiquement.',
      ),
    }),
    accepted: (a) => ({
      subject: `Devis ${a.code} accepté par ${a.companyName}`,
      text: lines(
        `${a.who} a accepté le devis ${a.code} « ${a.name} » pour ${a.companyName}.`,
        a.poNumber ? `Numéro de commande : ${a.poNumber}` : null,
        a.comment ? `Commentaire : ${a.comment}` : null,
        '',
        a.link,
      ),
    }),
    declined: (a) => ({
      subject: `Devis ${a.code} refusé par ${a.companyName}`,
      text: lines(
        `${a.who} a refusé le devis ${a.code} « ${a.name} » pour ${a.companyName}.`,
        a.reason ? `Motif : ${a.reason}` : 'Aucun motif donné.',
        '',
        a.link,
      ),
    }),
    comment: (c) => ({
      subject: `Nouveau commentaire sur le devis ${c.code ?? c.name}`,
      text: lines(`${c.who} a écrit sur le devis ${c.code ?? ''} « ${c.name} » :`, '', c.body, '', c.link),
    }),
    reordered: (r) => ({
      subject: `${r.companyName} commande à nouveau : devis brouillon ${r.code ?? r.name}`,
      text: lines(
        `${r.who} (${r.companyName}) a commandé à nouveau. Un devis brouillon ${r.code ? `${r.code} ` : ''}« ${r.name} » aux prix du jour attend votre relecture et sa publication :`,
        '',
        ...r.lines.map((l) => `- ${l.name} x ${l.quantity} : ${l.price}`),
        `Total : ${r.total}`,
        '',
        r.link,
      ),
    }),
  },
  de: {
    published: (q) => ({
      subject: `Angebot ${q.code} von ${q.organisationName}: ${q.name}`,
      text: lines(
        'Guten Tag,',
        '',
        `${q.organisationName} hat Ihnen das Angebot ${q.code} „${q.name}“ gesendet.`,
        'Prüfen, annehmen oder ablehnen Sie es online:',
        q.link,
        '',
        'Diese Nachricht wurde automatisch gesendet.',
      ),
    }),
    accepted: (a) => ({
      subject: `Angebot ${a.code} von ${a.companyName} angenommen`,
      text: lines(
        `${a.who} hat das Angebot ${a.code} „${a.name}“ für ${a.companyName} angenommen.`,
        a.poNumber ? `Bestellnummer: ${a.poNumber}` : null,
        a.comment ? `Kommentar: ${a.comment}` : null,
        '',
        a.link,
      ),
    }),
    declined: (a) => ({
      subject: `Angebot ${a.code} von ${a.companyName} abgelehnt`,
      text: lines(
        `${a.who} hat das Angebot ${a.code} „${a.name}“ für ${a.companyName} abgelehnt.`,
        a.reason ? `Grund: ${a.reason}` : 'Kein Grund angegeben.',
        '',
        a.link,
      ),
    }),
    comment: (c) => ({
      subject: `Neuer Kommentar zum Angebot ${c.code ?? c.name}`,
      text: lines(`${c.who} schrieb zum Angebot ${c.code ?? ''} „${c.name}“:`, '', c.body, '', c.link),
    }),
    reordered: (r) => ({
      subject: `${r.companyName} bestellt erneut: Angebotsentwurf ${r.code ?? r.name}`,
      text: lines(
        `${r.who} (${r.companyName}) hat erneut bestellt. Ein Angebotsentwurf ${r.code ? `${r.code} ` : ''}„${r.name}“ zu heutigen Preisen wartet auf Ihre Prüfung und Veröffentlichung:`,
        '',
        ...r.lines.map((l) => `- ${l.name} x ${l.quantity}: ${l.price}`),
        `Summe: ${r.total}`,
        '',
        r.link,
      ),
    }),
  },
};
