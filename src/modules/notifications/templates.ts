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
  'proof_requested',
  'proof_approved',
  'proof_changes_requested',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_DESCRIPTIONS: Record<NotificationKind, string> = {
  quote_published: 'A quote is published to you (buyer contacts)',
  quote_accepted: 'A buyer accepts a quote you own (sales)',
  quote_declined: 'A buyer declines a quote you own (sales)',
  quote_comment: 'Someone comments on a quote you own (sales)',
  quote_reordered: 'A buyer orders again: a new draft quote for a company you manage (sales)',
  proof_requested: 'A new artwork proof waits for your approval (buyer contacts)',
  proof_approved: 'A buyer approves an artwork proof of a quote you own (sales)',
  proof_changes_requested: 'A buyer requests changes to an artwork proof of a quote you own (sales)',
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

/** A proof version of a quote line, and for a decision who decided and their comment. */
export type ProofFacts = QuoteFacts & {
  line: string;
  version: number;
  who?: string;
  comment?: string | null;
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
    proofRequested(p: ProofFacts): Text;
    proofApproved(p: ProofFacts): Text;
    proofChangesRequested(p: ProofFacts): Text;
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
    proofRequested: (p) => ({
      subject: `Proof to approve: ${p.line} (v${p.version}), quote ${p.code ?? p.name}`,
      text: lines(
        'Hello,',
        '',
        `${p.organisationName} has prepared the artwork proof version ${p.version} of "${p.line}" in the quote ${p.code ?? ''} "${p.name}".`,
        'Check it, then approve it or request changes online:',
        p.link,
        '',
        'This message was sent automatically.',
      ),
    }),
    proofApproved: (p) => ({
      subject: `Proof approved: ${p.line} (v${p.version}), quote ${p.code ?? p.name}`,
      text: lines(
        `${p.who} of ${p.companyName} approved the artwork proof version ${p.version} of "${p.line}" in the quote ${p.code ?? ''} "${p.name}".`,
        p.comment ? `Comment: ${p.comment}` : null,
        '',
        p.link,
      ),
    }),
    proofChangesRequested: (p) => ({
      subject: `Proof changes requested: ${p.line} (v${p.version}), quote ${p.code ?? p.name}`,
      text: lines(
        `${p.who} of ${p.companyName} requested changes to the artwork proof version ${p.version} of "${p.line}" in the quote ${p.code ?? ''} "${p.name}":`,
        '',
        p.comment ?? '',
        '',
        p.link,
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
    proofRequested: (p) => ({
      subject: `BAT à valider : ${p.line} (v${p.version}), devis ${p.code ?? p.name}`,
      text: lines(
        'Bonjour,',
        '',
        `${p.organisationName} a préparé le BAT version ${p.version} de « ${p.line} » du devis ${p.code ?? ''} « ${p.name} ».`,
        'Vérifiez-le, puis validez-le ou demandez des modifications en ligne :',
        p.link,
        '',
        'Ce message a été envoyé automatiquement.',
      ),
    }),
    proofApproved: (p) => ({
      subject: `BAT validé : ${p.line} (v${p.version}), devis ${p.code ?? p.name}`,
      text: lines(
        `${p.who} (${p.companyName}) a validé le BAT version ${p.version} de « ${p.line} » du devis ${p.code ?? ''} « ${p.name} ».`,
        p.comment ? `Commentaire : ${p.comment}` : null,
        '',
        p.link,
      ),
    }),
    proofChangesRequested: (p) => ({
      subject: `Modifications demandées sur le BAT : ${p.line} (v${p.version}), devis ${p.code ?? p.name}`,
      text: lines(
        `${p.who} (${p.companyName}) a demandé des modifications au BAT version ${p.version} de « ${p.line} » du devis ${p.code ?? ''} « ${p.name} » :`,
        '',
        p.comment ?? '',
        '',
        p.link,
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
    proofRequested: (p) => ({
      subject: `Proof zur Freigabe: ${p.line} (v${p.version}), Angebot ${p.code ?? p.name}`,
      text: lines(
        'Guten Tag,',
        '',
        `${p.organisationName} hat den Proof Version ${p.version} für „${p.line}“ im Angebot ${p.code ?? ''} „${p.name}“ erstellt.`,
        'Prüfen Sie ihn und geben Sie ihn online frei oder fordern Sie Änderungen an:',
        p.link,
        '',
        'Diese Nachricht wurde automatisch gesendet.',
      ),
    }),
    proofApproved: (p) => ({
      subject: `Proof freigegeben: ${p.line} (v${p.version}), Angebot ${p.code ?? p.name}`,
      text: lines(
        `${p.who} (${p.companyName}) hat den Proof Version ${p.version} für „${p.line}“ im Angebot ${p.code ?? ''} „${p.name}“ freigegeben.`,
        p.comment ? `Kommentar: ${p.comment}` : null,
        '',
        p.link,
      ),
    }),
    proofChangesRequested: (p) => ({
      subject: `Änderungen am Proof angefordert: ${p.line} (v${p.version}), Angebot ${p.code ?? p.name}`,
      text: lines(
        `${p.who} (${p.companyName}) hat Änderungen am Proof Version ${p.version} für „${p.line}“ im Angebot ${p.code ?? ''} „${p.name}“ angefordert:`,
        '',
        p.comment ?? '',
        '',
        p.link,
      ),
    }),
  },
};
